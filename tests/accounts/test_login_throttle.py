"""Wrong passwords are throttled per account and per address, and the lock ends by itself."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

LOCKED = "Too many wrong passwords for this account or from this address."


def _try(client: Client, username: str, password: str, address: str = "198.51.100.1") -> Any:
    return client.post(
        reverse("accounts:login"),
        {"username": username, "password": password},
        REMOTE_ADDR=address,
    )


def test_after_the_limit_of_wrong_passwords_even_the_right_one_is_refused(owner: Any) -> None:
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _try(client, "owner", "wrong").status_code == 400  # the form again, with an error
    assert _try(client, "owner", "wrong").status_code == 429  # the limit-th locks
    locked = _try(client, "owner", PASSWORD)
    assert locked.status_code == 429
    assert LOCKED in locked.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_account_is_locked_from_another_address_too(owner: Any) -> None:
    for n in range(settings.AXES_FAILURE_LIMIT):
        _try(Client(), "owner", "wrong", address=f"198.51.100.{n + 10}")
    assert _try(Client(), "owner", PASSWORD, address="203.0.113.99").status_code == 429


def test_an_address_guessing_many_accounts_is_locked(owner: Any, stranger: Any) -> None:
    for n in range(settings.AXES_FAILURE_LIMIT):
        _try(Client(), f"nobody{n}", "wrong", address="198.51.100.50")
    assert _try(Client(), "stranger", PASSWORD, address="198.51.100.50").status_code == 429


def test_the_lock_ends_by_itself_after_the_cool_off(owner: Any, settings: Any) -> None:
    settings.AXES_COOLOFF_TIME = timedelta(seconds=0)
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _try(Client(), "owner", "wrong")
    assert _try(Client(), "owner", PASSWORD).status_code == 302


def test_fewer_wrong_passwords_than_the_limit_still_let_the_owner_in(owner: Any) -> None:
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        _try(Client(), "owner", "wrong")
    assert _try(Client(), "owner", PASSWORD).status_code == 302
