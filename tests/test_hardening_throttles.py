"""API throttles hold under concurrency, and the API answers when the cache is down."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from rest_framework.test import APIClient, APIRequestFactory

from decklab.api.throttling import AtomicAnonRateThrottle

ATTEMPTS, THREADS, LIMIT = 240, 16, 100


class _Hundred(AtomicAnonRateThrottle):
    scope = "test-hundred"
    rate = f"{LIMIT}/hour"


def _anonymous_request(address: str) -> Any:
    request = APIRequestFactory().get("/api/v1/games/", REMOTE_ADDR=address)
    request.user = AnonymousUser()
    return request


def test_exactly_the_limit_passes_when_sixteen_threads_call_at_once() -> None:
    cache.clear()
    request = _anonymous_request("203.0.113.7")
    passed: list[bool] = []
    start = threading.Barrier(THREADS)

    def caller() -> None:
        start.wait()
        for _ in range(ATTEMPTS // THREADS):
            passed.append(_Hundred().allow_request(request, None))

    threads = [threading.Thread(target=caller) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert (passed.count(True), passed.count(False)) == (LIMIT, ATTEMPTS - LIMIT)


def test_a_throttled_request_is_a_429_with_retry_after(settings: Any) -> None:
    cache.clear()
    throttle = _Hundred()
    request = _anonymous_request("203.0.113.8")
    assert all(throttle.allow_request(request, None) for _ in range(LIMIT))
    assert not throttle.allow_request(request, None)
    wait = throttle.wait()
    assert wait is not None and 0 <= wait <= 3600


@pytest.mark.django_db
def test_the_api_answers_when_the_cache_is_down(settings: Any) -> None:
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            # nothing listens on port 9 (discard) of this machine
            "LOCATION": "redis://127.0.0.1:9/0",
        }
    }
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_CLASSES": [
            "decklab.api.throttling.AtomicAnonRateThrottle",
            "decklab.api.throttling.AtomicUserRateThrottle",
        ],
    }
    response = APIClient().get("/api/v1/games/")
    assert response.status_code == 200
