"""Health endpoints for a load balancer and an orchestrator.

``/health/live``: the process answers (no dependency is checked, so a database outage does not
get every web process restarted). ``/health/ready``: the database answers a query, the
broker accepts a connection and the cache (Redis) answers; 503 with what failed otherwise, so
traffic goes elsewhere. Neither says more than "ok" or the failing part's name: addresses stay
in the log.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

log = logging.getLogger(__name__)

#: seconds the readiness probe waits for the broker
BROKER_TIMEOUT = 2


def _database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except Exception:
        log.warning("readiness: the database does not answer", exc_info=True)
        return False


def _broker_ok() -> bool:
    from decklab.celery import app

    try:
        with app.connection_for_write(settings.CELERY_BROKER_URL) as conn:
            conn.ensure_connection(max_retries=1, timeout=BROKER_TIMEOUT)
        return True
    except Exception:
        log.warning("readiness: the broker does not answer", exc_info=True)
        return False


def _cache_ok() -> bool:
    """The shared cache answers; a per-process cache (no REDIS_URL) always does.

    Pages keep working without it (decklab/cache.py), but slower and unthrottled: the probe
    says so rather than hide it."""
    from django.core.cache import cache

    ping = getattr(cache, "ping", None)
    if ping is None:
        return True
    try:
        return bool(ping())
    except Exception:
        log.warning("readiness: the cache does not answer", exc_info=True)
        return False


@never_cache
@require_GET
def live(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


@never_cache
@require_GET
def ready(request: HttpRequest) -> JsonResponse:
    checks = {"database": _database_ok(), "broker": _broker_ok(), "cache": _cache_ok()}
    ok = all(checks.values())
    body = {
        "status": "ok" if ok else "unavailable",
        **{k: "ok" if v else "down" for k, v in checks.items()},
    }
    response = JsonResponse(body, status=200 if ok else 503)
    if not ok:
        response["Retry-After"] = "10"
    return response
