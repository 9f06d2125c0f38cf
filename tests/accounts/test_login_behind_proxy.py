"""Login limits count each player's own address behind the proxy, and only what the proxies
wrote: a real reverse proxy in front of a live server, clients on different addresses."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.urls import reverse

from tests.accounts.http_proxy import Browser, reverse_proxy
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)

ATTACKER = "127.0.0.2"
PLAYER = "127.0.0.3"


def _login(browser: Browser, username: str, password: str, **headers: str) -> int:
    return browser.post_form(
        reverse("accounts:login"), {"username": username, "password": password}, headers
    )


def _lock_out(browser: Browser, **headers: str) -> None:
    """Wrong passwords on as many different accounts as the limit: only the address locks."""
    statuses = [
        _login(browser, f"nobody{n}", "wrong", **headers)
        for n in range(settings.AXES_FAILURE_LIMIT)
    ]
    assert statuses[-1] == 429, statuses


@pytest.fixture
def proxied(live_server: Any, settings: Any) -> Iterator[str]:
    settings.PROXY_COUNT = 1
    with reverse_proxy(live_server.url) as url:
        yield url


def test_behind_the_proxy_one_locked_out_address_leaves_another_player_logging_in(
    proxied: str, owner: Any
) -> None:
    _lock_out(Browser(proxied, ATTACKER))
    assert _login(Browser(proxied, ATTACKER), "owner", PASSWORD) == 429
    assert _login(Browser(proxied, PLAYER), "owner", PASSWORD) == 302


def test_behind_the_proxy_a_forged_forwarded_header_does_not_dodge_the_lock(
    proxied: str, owner: Any
) -> None:
    attacker = Browser(proxied, ATTACKER)
    for n in range(settings.AXES_FAILURE_LIMIT):
        # a new forged address on every try: the proxy appends the real one after it
        _login(attacker, f"nobody{n}", "wrong", **{"X-Forwarded-For": f"198.51.100.{n}"})
    forged = {"X-Forwarded-For": "198.51.100.200"}
    assert _login(Browser(proxied, ATTACKER), "owner", PASSWORD, **forged) == 429


def test_behind_the_proxy_a_forged_header_naming_a_player_does_not_lock_them_out(
    proxied: str, owner: Any
) -> None:
    _lock_out(Browser(proxied, ATTACKER), **{"X-Forwarded-For": PLAYER})
    assert _login(Browser(proxied, PLAYER), "owner", PASSWORD) == 302


def test_without_a_proxy_the_forwarded_header_is_ignored_both_ways(
    live_server: Any, owner: Any, settings: Any
) -> None:
    settings.PROXY_COUNT = 0
    attacker = Browser(live_server.url, ATTACKER)
    for n in range(settings.AXES_FAILURE_LIMIT):
        forged = {"X-Forwarded-For": f"{PLAYER}, 198.51.100.{n}"}
        _login(attacker, f"nobody{n}", "wrong", **forged)
    # the forged addresses neither spread the count (the attacker is locked) ...
    dodge = {"X-Forwarded-For": "198.51.100.250"}
    assert _login(Browser(live_server.url, ATTACKER), "owner", PASSWORD, **dodge) == 429
    # ... nor pin it on someone else (the player they named still logs in)
    assert _login(Browser(live_server.url, PLAYER), "owner", PASSWORD) == 302
