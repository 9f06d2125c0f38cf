"""A successful login forgives that account's failures only, never the address's."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

ADDRESS = "198.51.100.77"


def _try(username: str, password: str, address: str = ADDRESS) -> int:
    response = Client().post(
        reverse("accounts:login"),
        {"username": username, "password": password},
        REMOTE_ADDR=address,
    )
    return int(response.status_code)


@pytest.fixture
def victims(db: None) -> list[str]:
    names = [f"victim{n}" for n in range(3)]
    for name in names:
        get_user_model().objects.create_user(name, f"{name}@example.test", "unguessable-pw-1")
    return names


def test_logging_in_to_ones_own_account_does_not_reset_a_password_spray(
    owner: Any, victims: list[str]
) -> None:
    tries = settings.AXES_FAILURE_LIMIT - 1
    statuses = [_try(victims[0], f"guess{n}") for n in range(tries)]
    assert statuses == [400] * tries
    assert _try("owner", PASSWORD) == 302  # the attacker's own account
    # the address keeps its count: the next wrong password, on another account, locks it
    assert _try(victims[1], "guess") == 429
    assert _try(victims[2], "unguessable-pw-1") == 429
    assert _try("owner", PASSWORD) == 429
    # a player elsewhere is not concerned
    assert _try(victims[2], "unguessable-pw-1", address="203.0.113.5") == 302


def test_a_successful_login_forgives_the_players_own_typos(owner: Any) -> None:
    tries = settings.AXES_FAILURE_LIMIT - 1
    for _ in range(tries):
        assert _try("owner", "typo") == 400
    assert _try("owner", PASSWORD) == 302
    for _ in range(tries):
        assert _try("owner", "typo") == 400
    assert _try("owner", PASSWORD) == 302
