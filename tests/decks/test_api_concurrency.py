"""Every write names the version it read: 428 without one, 409 when stale, never an overwrite."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from decks import errors as deck_errors
from decks.api import errors
from decks.models import Deck, DeckEntry, DeckRevision

# the shared fixtures (owner_api, deck, mattsan…), found by pytest in this namespace
from tests.decks.test_api_fixtures import *  # noqa: F403
from tests.decks.test_api_fixtures import client_for, deck_url

pytestmark = pytest.mark.django_db


def _snapshot(deck: Deck) -> tuple[Any, ...]:
    deck.refresh_from_db()
    entries = sorted(DeckEntry.objects.filter(deck=deck).values_list("card__code", "quantity"))
    return (deck.version, deck.name, deck.visibility, tuple(entries))


def test_the_second_of_two_writers_who_read_the_same_version_gets_409(
    owner: Any, deck: Deck
) -> None:
    laptop, phone = client_for(owner), client_for(owner)
    read_on_laptop = laptop.get(deck_url(deck)).json()
    read_on_phone = phone.get(deck_url(deck)).json()
    assert read_on_laptop["version"] == read_on_phone["version"] == 1

    first = laptop.patch(
        deck_url(deck), {"name": "Laptop", "version": read_on_laptop["version"]}, format="json"
    )
    assert first.status_code == 200 and first.json()["version"] == 2
    after_first = _snapshot(deck)

    second = phone.put(
        deck_url(deck),
        {"name": "Phone", "entries": [], "version": read_on_phone["version"]},
        format="json",
    )
    assert second.status_code == 409
    assert second.json() == {"detail": str(deck_errors.STALE_DECK), "current_version": 2}
    assert second["ETag"] == '"2"'
    assert _snapshot(deck) == after_first  # nothing of the phone's change was saved
    assert DeckRevision.objects.filter(deck=deck).count() == 2


@pytest.mark.parametrize(
    ("method", "tail", "body"),
    [
        ("patch", "", {"name": "Stale"}),
        ("put", "", {"name": "Stale", "entries": []}),
        ("post", "entries/", {"card": "MTD-045", "zone": "main", "quantity": 1}),
        ("post", "restore/", {"revision": 1}),
        ("post", "import/", {"text": "1 Abandoned Factory"}),
    ],
)
def test_every_write_with_a_stale_version_is_409_and_changes_nothing(
    owner_api: APIClient, deck: Deck, method: str, tail: str, body: dict[str, Any]
) -> None:
    owner_api.patch(deck_url(deck), {"name": "Moved on", "version": 1}, format="json")
    before = _snapshot(deck)
    response = getattr(owner_api, method)(
        deck_url(deck, tail), {**body, "version": 1}, format="json"
    )
    assert response.status_code == 409, response.json()
    assert response.json()["current_version"] == 2
    assert _snapshot(deck) == before


def test_stale_entry_changes_and_deletes_are_409(owner_api: APIClient, deck: Deck) -> None:
    entry = DeckEntry.objects.filter(deck=deck).first()
    assert entry is not None
    owner_api.patch(deck_url(deck), {"name": "Moved on", "version": 1}, format="json")
    before = _snapshot(deck)
    url = deck_url(deck, f"entries/{entry.pk}/")
    assert owner_api.patch(url, {"quantity": 1, "version": 1}, format="json").status_code == 409
    assert owner_api.delete(url, HTTP_IF_MATCH='"1"').status_code == 409
    assert owner_api.delete(deck_url(deck), HTTP_IF_MATCH='"1"').status_code == 409
    assert _snapshot(deck) == before


@pytest.mark.parametrize(
    ("method", "tail", "body"),
    [
        ("patch", "", {"name": "No version"}),
        ("put", "", {"name": "No version", "entries": []}),
        ("delete", "", None),
        ("post", "entries/", {"card": "MTD-045", "zone": "main", "quantity": 1}),
        ("post", "restore/", {"revision": 1}),
        ("post", "import/", {"text": "1 Abandoned Factory"}),
    ],
)
def test_a_write_without_a_version_is_428_and_changes_nothing(
    owner_api: APIClient, deck: Deck, method: str, tail: str, body: dict[str, Any] | None
) -> None:
    before = _snapshot(deck)
    response = getattr(owner_api, method)(deck_url(deck, tail), body, format="json")
    assert response.status_code == 428
    assert response.json() == {"version": [str(errors.VERSION_REQUIRED)]}
    assert _snapshot(deck) == before


@pytest.mark.parametrize("header", ['"1"', "1", 'W/"1"'])
def test_if_match_names_the_version_instead_of_the_body(
    owner_api: APIClient, deck: Deck, header: str
) -> None:
    response = owner_api.patch(
        deck_url(deck), {"name": "Header"}, format="json", HTTP_IF_MATCH=header
    )
    assert response.status_code == 200
    assert response["ETag"] == '"2"'


def test_a_stale_if_match_is_409(owner_api: APIClient, deck: Deck) -> None:
    owner_api.patch(deck_url(deck), {"name": "Moved on", "version": 1}, format="json")
    response = owner_api.patch(
        deck_url(deck), {"name": "Stale"}, format="json", HTTP_IF_MATCH='"1"'
    )
    assert response.status_code == 409


@pytest.mark.parametrize(
    ("header", "version", "field"),
    [
        ("*", None, "If-Match"),
        ('"abc"', None, "If-Match"),
        ('"1", "2"', None, "If-Match"),
        ('"1"', 2, "version"),
        (None, "one", "version"),
        (None, 0, "version"),
        (None, True, "version"),
    ],
)
def test_an_unreadable_or_contradictory_version_is_a_400(
    owner_api: APIClient, deck: Deck, header: str | None, version: Any, field: str
) -> None:
    body: dict[str, Any] = {"name": "Unclear"}
    if version is not None:
        body["version"] = version
    extra = {"HTTP_IF_MATCH": header} if header is not None else {}
    response = owner_api.patch(deck_url(deck), body, format="json", **extra)
    assert response.status_code == 400
    assert field in response.json()
    assert _snapshot(deck)[0] == 1


def test_the_version_read_after_a_write_is_the_one_to_send_next(
    owner_api: APIClient, deck: Deck
) -> None:
    version = owner_api.get(deck_url(deck)).json()["version"]
    for name in ("One", "Two", "Three"):
        response = owner_api.patch(
            deck_url(deck), {"name": name, "version": version}, format="json"
        )
        assert response.status_code == 200
        version = response.json()["version"]
    assert version == 4
