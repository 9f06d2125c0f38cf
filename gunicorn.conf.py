"""gunicorn settings for DeckLab: `gunicorn -c gunicorn.conf.py decklab.wsgi`.

Each value can be overridden from the environment (GUNICORN_WORKERS, ...). Size the PostgreSQL
pool with them: every worker process holds up to DATABASE_POOL_MAX connections (README,
"Connections").
"""

from __future__ import annotations

import gc
import os

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
# processes: one per core is enough, the pages are short; threads overlap database waits
workers = int(os.environ.get("GUNICORN_WORKERS", str(os.cpu_count() or 2)))
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
worker_class = "gthread"
# a page that takes longer than this is killed and logged; simulations run in Celery, not here
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
# on SIGHUP or SIGTERM, a worker finishes the requests it has before it exits
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "30"))
keepalive = 5
# Load the app once in the master and fork it: faster start, shared memory. Graceful reload
# without dropping a request: `kill -HUP <master>` starts new workers before the old ones stop
# (with preload, code changes need USR2 + QUIT of the old master instead, see the README).
preload_app = os.environ.get("GUNICORN_PRELOAD", "1") == "1"
# recycle workers now and then so a slow leak cannot grow without bound
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "2000"))
max_requests_jitter = 200
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-")
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")


def pre_fork(server: object, worker: object) -> None:
    """What the master loaded (Django, the app, with preload) is frozen out of the collector
    before each fork: a worker's first full collection would otherwise write to every one of
    those objects' headers, copying the shared pages one by one, a pause of hundreds of
    milliseconds in the middle of a request (Python's gc.freeze, made for exactly this)."""
    gc.freeze()


def post_fork(server: object, worker: object) -> None:
    """A forked worker must not share the master's database connections (preload)."""
    from django.db import connections

    for conn in connections.all(initialized_only=True):
        conn.close()
