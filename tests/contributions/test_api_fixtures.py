"""The contributions API tests' clients and bodies (no tests here: pytest collects nothing).

The cast is the contributions conftest's: ``owner`` proposes, ``editor`` and ``second_editor``
review, ``stranger`` has no rights. Requests carry a Token, as a script would."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.contributions.conftest import GAME, SOURCE, hunter, payload

API = "/api/v1/"


def client_for(user: Any | None) -> APIClient:
    client = APIClient()
    if user is not None:
        token, _created = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def create_body(**changes: Any) -> dict[str, Any]:
    """A valid new-card proposal, with ``changes`` applied."""
    body: dict[str, Any] = {
        "kind": "card",
        "game": GAME,
        "payload": payload(cards=[hunter("T-002", "Second Hunter")]),
        **SOURCE,
    }
    body.update(changes)
    return body


def proposal_url(proposal_id: int, action: str = "") -> str:
    return f"{API}proposals/{proposal_id}/" + (f"{action}/" if action else "")


def where(response: Any) -> set[str]:
    """The places a refusal names."""
    return {problem["where"] for problem in response.json()["problems"]}


@pytest.fixture(autouse=True)
def fresh_cache() -> None:
    cache.clear()
