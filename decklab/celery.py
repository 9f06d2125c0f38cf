"""The Celery app, configured from Django settings (the CELERY_ namespace), and what a worker
does around its tasks: it warms the simulation engines as it starts, and hands each task's
database connections back to the pool as the task ends."""

from __future__ import annotations

import logging
import os
from typing import Any

from celery import Celery, signals
from kombu.transport import TRANSPORT_ALIASES

# The embedded broker (filesystem://) is kombu's filesystem transport with atomic writes
# (decklab/broker.py): kombu's own lets a worker read a message the web process has not finished
# writing, which stops the worker.
TRANSPORT_ALIASES["filesystem"] = "decklab.broker:Transport"

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "decklab.settings")

app = Celery("decklab")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

logger = logging.getLogger(__name__)

#: the warm-up's report, said once the worker's logging is set up (``_say_warmed``)
_warmed: list[str] = []


#: tasks between two full closes of a worker's database connections (and psycopg's pool)
POOLED_DB_REUSE_MAX = 1000


@signals.celeryd_init.connect
def _keep_the_pool(conf: Any = None, **_kwargs: Any) -> None:
    """In a ``celery worker`` process (``celeryd_init`` is the worker program's, before the
    Django fixup reads its settings) with PostgreSQL's pool: keep the pool across tasks, unless
    CELERY_DB_REUSE_MAX says otherwise. The fixup then closes the connections only every
    ``POOLED_DB_REUSE_MAX`` tasks, and ``_connections_back_to_the_pool`` hands them back to the
    pool around each task (decklab/settings.py says why)."""
    from django.conf import settings

    pooled = "pool" in settings.DATABASES["default"].get("OPTIONS", {})
    if conf is None or not pooled or conf.get("CELERY_DB_REUSE_MAX") is not None:
        return
    conf.update(CELERY_DB_REUSE_MAX=POOLED_DB_REUSE_MAX)
    # The fixup read the setting already, as the worker imported its tasks.
    for fixup in getattr(app, "_fixups", ()):
        worker_fixup = getattr(fixup, "_worker_fixup", None)
        if worker_fixup is not None:
            worker_fixup.db_reuse_max = POOLED_DB_REUSE_MAX


@signals.worker_init.connect
def _warm_engines(**_kwargs: Any) -> None:
    """Compile the engines' kernels (or load them from numba's disk cache) before the worker
    takes a task, so no run waits for a compiler.

    ``worker_init`` runs in the worker's main process before its pool starts, with Django set
    up: a prefork pool's children (and any that replace them later) are forked from a process
    whose kernels are loaded, and the solo and thread pools run their tasks in that process.
    ``worker_process_init`` would compile once per child, and a child taking more than 4 s
    there is killed (``worker_proc_alive_timeout``); ``worker_ready`` comes after the worker
    has started consuming, too late for the first chunk."""
    from simulator.warmup import engines_warm

    _warmed.append(engines_warm().line())


@signals.worker_ready.connect
def _say_warmed(**_kwargs: Any) -> None:
    # Celery sets up the worker's logging after worker_init: the line is logged here, once
    # the log goes where the worker's log goes (just before "ready.").
    for line in _warmed:
        logger.info("%s", line)
    _warmed.clear()


@signals.task_prerun.connect
@signals.task_postrun.connect
def _connections_back_to_the_pool(sender: Any = None, **_kwargs: Any) -> None:
    """What Django does around a request, around a task: each connection that is broken or
    past its age (every one, with CONN_MAX_AGE 0) is closed, which with psycopg's pool hands it
    back to the pool and drops it there if broken. The Django fixup leaves the connections
    alone when CELERY_DB_REUSE_MAX is set (decklab/settings.py says why). An eager task runs
    inside its caller's transaction, which this must not end."""
    if sender is None or getattr(getattr(sender, "request", None), "is_eager", False):
        return
    from django.db import close_old_connections

    close_old_connections()
