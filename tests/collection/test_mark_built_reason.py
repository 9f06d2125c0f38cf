"""A deck that cannot be marked as built says why beside the greyed-out button: which cards
are missing and how many copies of each, or that the deck is empty."""

from __future__ import annotations

import re
from typing import Any

from django.test import Client
from django.urls import reverse

from tests.collection.conftest import Shelf, add, make_deck


def why_not_built(html: str) -> str:
    found = re.search(r'<div[^>]*id="mark-built-why"[^>]*>(.*?)</div>', html, re.S)
    assert found, "the disabled button comes with its reason"
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split())


def test_the_reason_names_each_missing_card_and_how_many_copies(
    shelf: Shelf, owner: Any, owner_client: Client
) -> None:
    add(owner, shelf.base_printings[0], 1)
    add(owner, shelf.base_printings[2], 3)
    deck = make_deck(
        owner, shelf.game, [(shelf.cards[0], 3), (shelf.cards[1], 1), (shelf.cards[2], 3)]
    )
    html = owner_client.get(reverse("decks:detail", args=[deck.public_id])).content.decode()
    assert re.search(r'id="mark-built"[^>]*disabled[^>]*aria-describedby="mark-built-why"', html)
    assert 'data-why-not-built="3"' in html
    reason = why_not_built(html)
    assert reason.startswith("To mark it as built, you need 3 more copies:")
    assert "2 × Flame Fox" in reason and "1 × Stone, Wall" in reason
    assert "Tide Caller" not in reason


def test_the_editor_shows_the_reason_too(shelf: Shelf, owner: Any, owner_client: Client) -> None:
    deck = make_deck(owner, shelf.game, [(shelf.cards[1], 1)])
    html = owner_client.get(reverse("decks:edit", args=[deck.public_id])).content.decode()
    assert why_not_built(html).startswith("To mark it as built, you need 1 more copy:")


def test_an_empty_deck_says_it_has_no_cards(shelf: Shelf, owner: Any, owner_client: Client) -> None:
    deck = make_deck(owner, shelf.game, [])
    html = owner_client.get(reverse("decks:detail", args=[deck.public_id])).content.decode()
    assert re.search(r'id="mark-built"[^>]*disabled', html)
    assert why_not_built(html) == "A deck with no cards cannot be marked as built."


def test_a_buildable_deck_has_an_enabled_button_and_no_reason(
    shelf: Shelf, owner: Any, owner_client: Client
) -> None:
    add(owner, shelf.base_printings[0], 2)
    deck = make_deck(owner, shelf.game, [(shelf.cards[0], 2)])
    html = owner_client.get(reverse("decks:detail", args=[deck.public_id])).content.decode()
    assert re.search(r'id="mark-built">', html)
    assert "mark-built-why" not in html
