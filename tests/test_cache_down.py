"""With the cache's Redis down, pages are served uncached and readiness says the cache is down.

A Redis of the test's own (redis-server on a free port), stopped and started again mid-test."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from catalog.cache import catalog_version_bump
from catalog.models import CardSet
from tests.simulator.test_runs_recovery import RedisServer

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("committed_catalogs"),
    pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server"),
]


@pytest.fixture
def redis(tmp_path: Path, settings: Any) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path)
    settings.CACHES = {
        "default": {
            "BACKEND": "decklab.cache.FallThroughRedisCache",
            "LOCATION": server.url,
            "KEY_PREFIX": f"cache-down-{os.urandom(4).hex()}",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 2},
        }
    }
    try:
        yield server
    finally:
        server.stop()


def _set_page() -> str:
    card_set = CardSet.objects.filter(game__slug="unmatched").order_by("pk").first()
    assert card_set is not None
    return f"/games/unmatched/sets/{card_set.code}/"


def test_an_anonymous_set_page_is_served_while_the_cache_is_down(redis: RedisServer) -> None:
    visitor = Client(raise_request_exception=False)
    url = _set_page()
    cached = visitor.get(url)
    assert cached.status_code == 200
    redis.stop()
    uncached = visitor.get(url)
    assert uncached.status_code == 200
    assert uncached.context["page"].paginator.count == cached.context["page"].paginator.count
    assert visitor.get(url + "?page=2").status_code in (200, 404)
    # a catalog import committing meanwhile does not fail either
    catalog_version_bump()


def test_readiness_names_the_cache_when_it_is_down_and_recovers_with_it(
    redis: RedisServer,
) -> None:
    probe = Client(raise_request_exception=False)
    assert probe.get("/health/ready").json()["cache"] == "ok"
    redis.stop()
    down = probe.get("/health/ready")
    assert down.status_code == 503
    assert down.json() == {
        "status": "unavailable",
        "database": "ok",
        "broker": "ok",
        "cache": "down",
    }
    assert down["Retry-After"] == "10"
    redis.start()
    assert probe.get("/health/ready").status_code == 200
