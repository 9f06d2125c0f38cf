"""A public collection shows what its owner chose (the trade list, or every card too) and never
the owner's private fields; whether a deck is built is its owner's alone. Checked for the
owner, a friend, a stranger and an anonymous visitor, through the pages and the API."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from collection.models import CollectionItem, CollectionSettings
from collection.services import collection_settings_update, deck_mark_built
from decks.models import Deck
from tests.collection.conftest import Shelf, add, make_deck

API = "/api/v1/collection"
PUBLIC_FIELDS = {
    "id",
    "game",
    "card",
    "name",
    "set",
    "number",
    "variant",
    "quantity",
    "trade_quantity",
    "condition",
    "finish",
    "language",
}
#: values only the owner may see, written where a page or an answer could leak them
SECRETS = ("Secret binder", "found-in-attic", "my private note", "1234.56", "2021-03-04")


@pytest.fixture
def offered(owner: Any, shelf: Shelf) -> tuple[CollectionItem, CollectionItem]:
    """The owner's two items: 3 Flame Fox with 1 offered for trade, 2 Stone, Wall kept; both
    with every private field filled."""
    private = {
        "binder": "Secret binder",
        "tags": ("found-in-attic",),
        "note": "my private note",
        "price": Decimal("1234.56"),
        "currency": "JPY",
        "acquired_on": date(2021, 3, 4),
    }
    add(owner, shelf.base_printings[0], 3, trade_quantity=1, **private)
    add(owner, shelf.base_printings[1], 2, **private)
    fox = CollectionItem.objects.get(owner=owner, printing=shelf.base_printings[0])
    wall = CollectionItem.objects.get(owner=owner, printing=shelf.base_printings[1])
    return fox, wall


@pytest.fixture
def others(friend_client: Client, stranger_client: Client, client: Client) -> list[Client]:
    return [friend_client, stranger_client, client]


def _leaks(body: str) -> list[str]:
    return [secret for secret in SECRETS if secret in body]


def test_a_public_collection_shows_others_only_the_trade_list_by_default(
    owner: Any, offered: tuple[CollectionItem, CollectionItem], others: list[Client]
) -> None:
    fox, wall = offered
    collection_settings_update(owner=owner, is_public=True)
    for client in others:
        listed = client.get(f"{API}/items/?owner=owner")
        assert listed.status_code == 200
        rows = listed.json()["results"]
        # the copies offered, not the copies kept
        assert [(r["card"], r["quantity"], r["trade_quantity"]) for r in rows] == [
            ("MTC-001", 1, 1)
        ]
        assert set(rows[0]) == PUBLIC_FIELDS
        assert _leaks(listed.content.decode()) == []
        detail = client.get(f"{API}/items/{fox.pk}/")
        assert (detail.status_code, set(detail.json())) == (200, PUBLIC_FIELDS)
        assert client.get(f"{API}/items/{wall.pk}/").status_code == 404
        exported = client.get(f"{API}/export/?owner=owner")
        assert exported.status_code == 200
        assert exported.json()["rows"] == 1
        assert _leaks(exported.content.decode()) == []


def test_others_cannot_filter_a_public_collection_by_its_private_fields(
    owner: Any, offered: tuple[CollectionItem, CollectionItem], stranger_client: Client
) -> None:
    collection_settings_update(owner=owner, is_public=True, shows_all_cards=True)
    everything = stranger_client.get(f"{API}/items/?owner=owner").json()["results"]
    for query in ("binder=Other", "tag=nothing", "binder=Secret+binder", "sort=recent"):
        found = stranger_client.get(f"{API}/items/?owner=owner&{query}").json()["results"]
        assert found == everything, query


def test_a_player_may_choose_to_show_every_card_and_how_many(
    owner: Any, offered: tuple[CollectionItem, CollectionItem], others: list[Client]
) -> None:
    collection_settings_update(owner=owner, is_public=True, shows_all_cards=True)
    for client in others:
        listed = client.get(f"{API}/items/?owner=owner&sort=name")
        rows = listed.json()["results"]
        assert [(r["card"], r["quantity"]) for r in rows] == [("MTC-001", 3), ("MTC-002", 2)]
        assert all(set(r) == PUBLIC_FIELDS for r in rows)
        assert _leaks(listed.content.decode()) == []
        exported = client.get(f"{API}/export/?owner=owner")
        assert exported.json()["rows"] == 2
        assert _leaks(exported.content.decode()) == []
        page = client.get(reverse("collection:player-cards", args=["owner"]))
        assert page.status_code == 200
        html = page.content.decode()
        assert 'data-quantity="3"' in html and 'data-quantity="2"' in html
        assert _leaks(html) == []


def test_the_owner_still_reads_every_private_field(
    owner_client: Client, owner: Any, offered: tuple[CollectionItem, CollectionItem]
) -> None:
    collection_settings_update(owner=owner, is_public=True)
    rows = owner_client.get(f"{API}/items/?sort=name").json()["results"]
    assert [(r["quantity"], r["binder"], r["note"], r["price"]) for r in rows] == [
        (3, "Secret binder", "my private note", "1234.56"),
        (2, "Secret binder", "my private note", "1234.56"),
    ]


def test_the_trade_page_shows_others_no_private_field(
    owner: Any, offered: tuple[CollectionItem, CollectionItem], others: list[Client]
) -> None:
    collection_settings_update(owner=owner, is_public=True)
    for client in others:
        page = client.get(reverse("collection:trades", args=["owner"]))
        html = page.content.decode()
        assert page.status_code == 200 and "Flame Fox" in html and "Stone, Wall" not in html
        assert _leaks(html) == []
        assert "all-cards-link" not in html
        # every card is the owner's choice, not the default
        assert client.get(reverse("collection:player-cards", args=["owner"])).status_code == 404


def test_a_private_collection_shows_nothing_to_others(
    owner: Any, offered: tuple[CollectionItem, CollectionItem], others: list[Client]
) -> None:
    fox, _wall = offered
    for client in others:
        for url in (
            f"{API}/items/?owner=owner",
            f"{API}/items/{fox.pk}/",
            f"{API}/export/?owner=owner",
            reverse("collection:trades", args=["owner"]),
            reverse("collection:player-cards", args=["owner"]),
        ):
            assert client.get(url).status_code == 404, url


def test_the_collection_page_says_plainly_what_each_choice_shows(
    owner_client: Client, owner: Any
) -> None:
    html = owner_client.get(reverse("collection:index")).content.decode()
    assert 'value="private" id="visibility-private" checked' in html
    assert "how many copies I offer" in html
    assert "every card I own and how many copies of each" in html
    assert "Never shown to others, whatever I choose" in html
    url = reverse("collection:settings")
    assert owner_client.post(url, {"visibility": "cards"}).status_code == 302
    found = CollectionSettings.objects.get(owner=owner)
    assert (found.is_public, found.shows_all_cards) == (True, True)
    assert owner_client.post(url, {"visibility": "trades"}).status_code == 302
    found.refresh_from_db()
    assert (found.is_public, found.shows_all_cards) == (True, False)
    assert owner_client.post(url, {"visibility": "everyone"}).status_code == 400
    assert owner_client.post(url, {"visibility": "private"}).status_code == 302
    found.refresh_from_db()
    assert found.is_public is False


def test_the_settings_api_sets_what_a_public_collection_shows(
    owner_client: Client, owner: Any
) -> None:
    def patch(body: Any) -> Any:
        return owner_client.patch(
            f"{API}/settings/", json.dumps(body), content_type="application/json"
        )

    assert patch({"is_public": True}).json() == {"is_public": True, "shows_all_cards": False}
    assert patch({"shows_all_cards": True}).json() == {"is_public": True, "shows_all_cards": True}
    assert owner_client.get(f"{API}/settings/").json() == {
        "is_public": True,
        "shows_all_cards": True,
    }
    assert patch({}).status_code == 400


def test_whether_a_deck_is_built_is_shown_to_its_owner_only(
    owner: Any, owner_client: Client, others: list[Client], shelf: Shelf
) -> None:
    add(owner, shelf.base_printings[0], 1)
    deck = make_deck(owner, shelf.game, [(shelf.cards[0], 1)])
    Deck.objects.filter(pk=deck.pk).update(visibility="public")
    deck_mark_built(deck=deck, user=owner)
    collection_settings_update(owner=owner, is_public=True, shows_all_cards=True)
    page = reverse("decks:detail", args=[deck.public_id])
    report = f"/api/v1/decks/{deck.public_id}/collection/"
    assert 'data-built="1"' in owner_client.get(page).content.decode()
    assert owner_client.get(report).json()["is_built"] is True
    for client in others:
        response = client.get(page)
        assert response.status_code == 200
        assert 'data-built="1"' not in response.content.decode()
    for client in others[:2]:
        # the report is the reader's own collection against the deck
        assert client.get(report).json()["is_built"] is False


def test_a_public_export_does_not_tell_the_size_of_what_is_kept_private(
    owner: Any,
    offered: tuple[CollectionItem, CollectionItem],
    stranger_client: Client,
    settings: Any,
) -> None:
    """The export's "too big, a worker writes it" answer counts only what the owner shows:
    a collection larger than the threshold with one card offered exports that card to others."""
    settings.COLLECTION_JOB_THRESHOLD = 1
    collection_settings_update(owner=owner, is_public=True)
    exported = stranger_client.get(f"{API}/export/?owner=owner")
    assert exported.status_code == 200
    assert exported.json()["rows"] == 1
    collection_settings_update(owner=owner, is_public=True, shows_all_cards=True)
    # two cards shown, above the threshold: refused, as it now says nothing private
    assert stranger_client.get(f"{API}/export/?owner=owner").status_code == 400
