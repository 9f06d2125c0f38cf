"""A deck's history through the API: revisions, one revision, diffs, restoring."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from decks.api import errors
from decks.models import Deck, DeckRevision

# the shared fixtures (owner_api, deck, mattsan…), found by pytest in this namespace
from tests.decks.test_api_fixtures import *  # noqa: F403
from tests.decks.test_api_fixtures import deck_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def edited(owner_api: APIClient, deck: Deck) -> Deck:
    """Three revisions: created; renamed; two copies of Abandoned Factory added."""
    owner_api.patch(deck_url(deck), {"name": "Renamed", "version": 1}, format="json")
    owner_api.post(
        deck_url(deck, "entries/"),
        {"card": "MTD-045", "zone": "main", "quantity": 2, "version": 2},
        format="json",
    )
    deck.refresh_from_db()
    assert deck.version == 3
    return deck


def test_revisions_are_listed_newest_first_with_author_and_summary(
    owner_api: APIClient, edited: Deck
) -> None:
    response = owner_api.get(deck_url(edited, "revisions/"))
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 3
    numbers = [r["number"] for r in body["results"]]
    assert numbers == [3, 2, 1]
    newest = body["results"][0]
    assert newest["author"] == "owner"
    assert newest["summary"] == "+2 Abandoned Factory"
    assert newest["url"].endswith(deck_url(edited, "revisions/3/"))
    assert body["results"][2]["summary"] == "created"


def test_one_revision_has_the_snapshot_of_that_save(owner_api: APIClient, edited: Deck) -> None:
    response = owner_api.get(deck_url(edited, "revisions/2/"))
    assert response.status_code == 200
    snapshot = response.json()["snapshot"]
    assert snapshot["name"] == "Renamed"
    assert sum(e["quantity"] for e in snapshot["entries"]) == 30


def test_an_unknown_revision_is_404(owner_api: APIClient, edited: Deck) -> None:
    response = owner_api.get(deck_url(edited, "revisions/9/"))
    assert response.status_code == 404
    assert response.json()["detail"] == str(errors.REVISION_NOT_FOUND) % {"number": 9}


def test_the_diff_gives_entry_and_field_changes(owner_api: APIClient, edited: Deck) -> None:
    response = owner_api.get(deck_url(edited, "diff/?from=1&to=3"))
    assert response.status_code == 200
    body = response.json()
    assert body["from"] == 1 and body["to"] == 3
    assert body["fields"] == {"name": {"before": "Robo Street", "after": "Renamed"}}
    (change,) = body["entries"]
    assert change["card"] == "MTD-045" and change["name_en"] == "Abandoned Factory"
    assert (change["before"], change["after"], change["delta"]) == (0, 2, 2)
    assert body["summary"] == "+2 Abandoned Factory, name"


@pytest.mark.parametrize(
    ("query", "field"),
    [("", "from"), ("?from=1", "to"), ("?from=x&to=2", "from"), ("?from=1&to=7", "to")],
)
def test_a_diff_of_unreadable_or_missing_revisions_is_a_400(
    owner_api: APIClient, edited: Deck, query: str, field: str
) -> None:
    response = owner_api.get(deck_url(edited, f"diff/{query}"))
    assert response.status_code == 400
    assert field in response.json()


def test_restoring_brings_an_earlier_revision_back_as_a_new_one(
    owner_api: APIClient, edited: Deck
) -> None:
    response = owner_api.post(
        deck_url(edited, "restore/"), {"revision": 1, "version": 3}, format="json"
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["version"] == 4 and body["name"] == "Robo Street" and body["card_count"] == 30
    assert not any(e["card"] == "MTD-045" for e in body["entries"])
    assert DeckRevision.objects.filter(deck=edited).count() == 4
    diff = owner_api.get(deck_url(edited, "diff/?from=1&to=4")).json()
    assert diff["entries"] == [] and diff["fields"] == {}


def test_restoring_an_unknown_revision_is_a_400(owner_api: APIClient, edited: Deck) -> None:
    response = owner_api.post(
        deck_url(edited, "restore/"), {"revision": 8, "version": 3}, format="json"
    )
    assert response.status_code == 400
    assert response.json() == {"revision": [str(errors.REVISION_NOT_FOUND) % {"number": 8}]}
    edited.refresh_from_db()
    assert edited.version == 3


def test_the_revision_list_is_paged(owner_api: APIClient, edited: Deck) -> None:
    body: Any = owner_api.get(deck_url(edited, "revisions/?page_size=2")).json()
    assert body["count"] == 3 and len(body["results"]) == 2 and body["next"]
