"""Sign-ups and password-reset mails are limited per address and per e-mail address typed."""

from __future__ import annotations

import os
import threading
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import connection
from django.test import Client
from django.urls import reverse

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

SIGNUP = reverse("accounts:signup")
RESET = reverse("accounts:password-reset")
REFUSED = "Too many requests from this address or for this e-mail address."


def _address() -> str:
    """An address of this test's own: the counters live in the cache for the whole session."""
    return f"2001:db8::{os.urandom(2).hex()}:{os.urandom(2).hex()}"


def _tag() -> str:
    return os.urandom(4).hex()


def _sign_up(username: str, email: str, address: str, **extra: str) -> Any:
    form = {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD}
    return Client().post(SIGNUP, form, REMOTE_ADDR=address, **extra)


@pytest.fixture
def limits(settings: Any) -> Any:
    settings.ACCOUNT_MAIL_RATE_PER_ADDRESS = "3/hour"
    settings.ACCOUNT_MAIL_RATE_PER_EMAIL = "2/hour"
    return settings


def test_sign_ups_from_one_address_stop_at_the_limit(limits: Any) -> None:
    address, tag = _address(), _tag()
    for n in range(3):
        assert _sign_up(f"p{tag}{n}", f"p{tag}{n}@example.test", address).status_code == 302
    refused = _sign_up(f"p{tag}x", f"p{tag}x@example.test", address)
    assert refused.status_code == 429
    assert REFUSED in refused.content.decode()
    assert int(refused["Retry-After"]) > 0
    assert len(mail.outbox) == 3
    assert not get_user_model().objects.filter(username=f"p{tag}x").exists()
    # someone else signs up as usual
    assert _sign_up(f"p{tag}y", f"p{tag}y@example.test", _address()).status_code == 302


def test_sign_ups_for_one_mailbox_stop_at_the_limit_whatever_the_address(limits: Any) -> None:
    tag = _tag()
    email = f"target{tag}@example.test"
    assert _sign_up(f"a{tag}", email, _address()).status_code == 302
    assert _sign_up(f"b{tag}", email, _address()).status_code == 302
    assert _sign_up(f"c{tag}", email, _address()).status_code == 429
    assert [m.to for m in mail.outbox] == [[email], [email]]


def test_password_reset_mails_stop_at_the_limits(limits: Any) -> None:
    email = f"player{_tag()}@example.test"
    get_user_model().objects.create_user(f"u{_tag()}", email, PASSWORD)
    address = _address()
    for n in range(3):
        # unknown addresses are not mailed, but still counted: the answer must not differ
        response = Client().post(RESET, {"email": f"x{n}@example.test"}, REMOTE_ADDR=address)
        assert response.status_code == 302
    refused = Client().post(RESET, {"email": email}, REMOTE_ADDR=address)
    assert refused.status_code == 429
    assert REFUSED in refused.content.decode()
    assert mail.outbox == []
    for _ in range(2):
        response = Client().post(RESET, {"email": email}, REMOTE_ADDR=_address())
        assert response.status_code == 302
    third = Client().post(RESET, {"email": email.upper()}, REMOTE_ADDR=_address())
    assert third.status_code == 429
    assert len(mail.outbox) == 2


def test_behind_a_proxy_each_client_is_counted_on_its_own(limits: Any) -> None:
    limits.PROXY_COUNT = 1
    proxy, tag = _address(), _tag()
    first, second = _address(), _address()
    for n in range(3):
        response = _sign_up(
            f"f{tag}{n}", f"f{tag}{n}@example.test", proxy, HTTP_X_FORWARDED_FOR=first
        )
        assert response.status_code == 302
    over = _sign_up(f"f{tag}x", f"f{tag}x@example.test", proxy, HTTP_X_FORWARDED_FOR=first)
    assert over.status_code == 429
    other = _sign_up(f"s{tag}", f"s{tag}@example.test", proxy, HTTP_X_FORWARDED_FOR=second)
    assert other.status_code == 302


@pytest.mark.django_db(transaction=True)
def test_twenty_sign_ups_at_once_from_one_address_let_exactly_the_limit_through(
    limits: Any,
) -> None:
    address, tag = _address(), _tag()
    barrier = threading.Barrier(20)
    statuses: list[int] = []

    def sign_up(n: int) -> None:
        try:
            barrier.wait()
            statuses.append(_sign_up(f"t{tag}{n}", f"t{tag}{n}@example.test", address).status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=sign_up, args=(n,)) for n in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [302] * 3 + [429] * 17
    assert get_user_model().objects.filter(username__startswith=f"t{tag}").count() == 3
    assert len(mail.outbox) == 3
