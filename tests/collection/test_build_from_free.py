"""The deck editor's search limited to cards I own, and to copies no built deck holds
(``is:owned`` / ``is:free``): "build only from what I have"."""

from __future__ import annotations

from typing import Any

from django.test import Client
from django.urls import reverse

from collection.services import deck_mark_built
from decks.services import deck_create
from tests.collection.conftest import Shelf, add, make_deck

HTMX = {"HTTP_HX_REQUEST": "true"}


def found(client: Client, deck: Any, **query: str) -> set[str]:
    html = client.get(reverse("decks:edit-search", args=[deck.public_id]), query, **HTMX)
    assert html.status_code == 200, html.content
    text = html.content.decode()
    return {code for code in ("MTC-001", "MTC-002", "MTC-003") if f'"{code}"' in text}


def test_only_owned_and_only_free_copies(shelf: Shelf, owner: Any, owner_client: Client) -> None:
    fox, wall, _tide = shelf.cards
    add(owner, shelf.base_printings[0], 2)  # two Flame Fox
    add(owner, shelf.base_printings[1], 1)  # one Stone, Wall
    built = make_deck(owner, shelf.game, [(fox, 2)], name="Built")
    deck_mark_built(deck=built, user=owner)  # holds both Flame Fox
    editing = deck_create(owner=owner, game=shelf.game, name="New")
    everything = found(owner_client, editing, type=fox.card_type)
    assert everything == {"MTC-001", "MTC-002", "MTC-003"}
    assert found(owner_client, editing, type=fox.card_type, mine="owned") == {"MTC-001", "MTC-002"}
    assert found(owner_client, editing, type=fox.card_type, mine="free") == {"MTC-002"}
    assert wall.code == "MTC-002"


def test_a_copy_beyond_the_reservation_is_free(
    shelf: Shelf, owner: Any, owner_client: Client
) -> None:
    fox = shelf.cards[0]
    add(owner, shelf.base_printings[0], 3)
    deck_mark_built(deck=make_deck(owner, shelf.game, [(fox, 2)]), user=owner)
    editing = deck_create(owner=owner, game=shelf.game, name="New")
    assert found(owner_client, editing, q="is:free") == {"MTC-001"}
