"""The Celery app, configured from Django settings (the CELERY_ namespace)."""

from __future__ import annotations

import os

from celery import Celery
from kombu.transport import TRANSPORT_ALIASES

# The embedded broker (filesystem://) is kombu's filesystem transport with atomic writes
# (decklab/broker.py): kombu's own lets a worker read a message the web process has not finished
# writing, which stops the worker.
TRANSPORT_ALIASES["filesystem"] = "decklab.broker:Transport"

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "decklab.settings")

app = Celery("decklab")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
