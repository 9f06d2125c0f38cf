from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "decklab.settings")
application = get_wsgi_application()

# the API schema, built once before serving: a fresh worker's first requests must not race to
# build it (decklab/api/middleware.py). With gunicorn's preload this runs once, in the master.
from decklab.api.middleware import warm_up  # noqa: E402  (needs the settings loaded above)

warm_up()
