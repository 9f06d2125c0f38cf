"""The API's anonymous throttle counts the client's address read through the trusted proxies."""

from __future__ import annotations

import os
from typing import Any

from django.contrib.auth.models import AnonymousUser
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from decklab.api.throttling import AtomicAnonRateThrottle

LIMIT = 3


class _Three(AtomicAnonRateThrottle):
    scope = "test-three"
    rate = f"{LIMIT}/hour"


def _through_proxy(forwarded: str) -> Request:
    request = APIRequestFactory().get(
        "/api/v1/games/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=forwarded
    )
    request.user = AnonymousUser()
    return Request(request)


def _address() -> str:
    return f"2001:db8::{os.urandom(2).hex()}"


def test_behind_the_proxy_each_client_has_its_own_count(settings: Any) -> None:
    settings.PROXY_COUNT = 1
    first, second = _address(), _address()
    assert [_Three().allow_request(_through_proxy(first), None) for _ in range(4)] == [
        True,
        True,
        True,
        False,
    ]
    assert _Three().allow_request(_through_proxy(second), None)
    # a forged entry left of the proxy's own does not give a fresh count
    assert not _Three().allow_request(_through_proxy(f"{_address()}, {first}"), None)


def test_without_a_proxy_the_forwarded_header_is_ignored(settings: Any) -> None:
    settings.PROXY_COUNT = 0
    request = APIRequestFactory().get(
        "/api/v1/games/", REMOTE_ADDR=_address(), HTTP_X_FORWARDED_FOR=_address()
    )
    request.user = AnonymousUser()
    assert [_Three().allow_request(request, None) for _ in range(4)][-1] is False
    forged = APIRequestFactory().get(
        "/api/v1/games/", REMOTE_ADDR=request.META["REMOTE_ADDR"], HTTP_X_FORWARDED_FOR=_address()
    )
    forged.user = AnonymousUser()
    assert _Three().allow_request(forged, None) is False
