"""Shared fixtures: a small cast of named users used by every permission test.

- ``owner`` owns the decks under test;
- ``friend`` is someone the owner shared an unlisted link with (no special rights);
- ``stranger`` has never seen the deck.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

PASSWORD = "correct-horse-battery-staple"


def _user(username: str) -> Any:
    return get_user_model().objects.create_user(
        username=username, email=f"{username}@example.test", password=PASSWORD
    )


@pytest.fixture
def owner(db: None) -> Any:
    return _user("owner")


@pytest.fixture
def friend(db: None) -> Any:
    return _user("friend")


@pytest.fixture
def stranger(db: None) -> Any:
    return _user("stranger")


def _client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def owner_client(owner: Any) -> Client:
    return _client_for(owner)


@pytest.fixture
def friend_client(friend: Any) -> Client:
    return _client_for(friend)


@pytest.fixture
def stranger_client(stranger: Any) -> Client:
    return _client_for(stranger)
