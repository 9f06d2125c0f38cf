"""The game's default printing (Unmatched: a card added to a hero's deck is pinned to the
printing in that hero's own box, with its fighter and boost) is decided by the deck services,
so the editor, the API's entries, its create and PUT, and text imports all pin the same one;
a clone and a restore keep the entries exactly as they were."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from catalog.models import Card, Game, Printing
from decks.imports.service import deck_import
from decks.models import Deck, DeckEntry
from decks.services import deck_clone, deck_create, deck_entry_update, deck_restore
from decks.specs import EntrySpec
from tests.decks.test_api_fixtures import API, client_for, deck_url

HTMX = {"HTTP_HX_REQUEST": "true"}
TEXT = "game: unmatched\nname: Gorgon\n\n## hero\n1 Medusa\n\n## deck\n3 Feint\n"


@pytest.fixture
def unmatched(db: None) -> Game:
    call_command("import_catalog", "games/unmatched/catalog.json", verbosity=0)
    return Game.objects.get(slug="unmatched")


@pytest.fixture
def medusas_feint(unmatched: Game) -> Printing:
    return Printing.objects.get(card__game=unmatched, card__code="feint", collector_number="medusa")


@pytest.fixture
def medusa_deck(owner: Any, unmatched: Game) -> Deck:
    hero = Card.objects.get(game=unmatched, code="character-medusa")
    return deck_create(
        owner=owner, game=unmatched, name="Gorgon", entries=[EntrySpec(hero, "hero", 1)]
    )


def feint_printings(deck: Deck) -> list[tuple[str, int, str | None]]:
    return [
        (e.zone, e.quantity, e.printing.collector_number if e.printing else None)
        for e in DeckEntry.objects.filter(deck=deck, card__code="feint").select_related("printing")
    ]


def test_the_editor_pins_a_card_added_without_a_printing_to_the_heros_own(
    medusa_deck: Deck, medusas_feint: Printing, owner_client: Client
) -> None:
    url = reverse("decks:edit-add", args=[medusa_deck.public_id])
    for version in (1, 2, 3):
        data = {"version": version, "card": "feint", "zone": "deck"}
        assert owner_client.post(url, data, **HTMX).status_code == 200
    assert feint_printings(medusa_deck) == [("deck", 3, "medusa")]


def test_the_api_entries_endpoint_pins_the_same_printing(
    medusa_deck: Deck, medusas_feint: Printing, owner: Any
) -> None:
    api: APIClient = client_for(owner)
    url = deck_url(medusa_deck, "entries/")
    body = {"card": "feint", "zone": "deck", "quantity": 2, "version": 1}
    response = api.post(url, body, format="json")
    assert response.status_code == 200, response.json()
    response = api.post(
        url, {"card": "feint", "zone": "deck", "delta": 1, "version": 2}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert feint_printings(medusa_deck) == [("deck", 3, "medusa")]


def test_the_api_create_and_put_pin_the_same_printing(
    unmatched: Game, medusas_feint: Printing, owner: Any
) -> None:
    api: APIClient = client_for(owner)
    entries = [
        {"card": "character-medusa", "zone": "hero", "quantity": 1},
        {"card": "feint", "zone": "deck", "quantity": 3},
    ]
    made = api.post(API, {"game": "unmatched", "name": "Gorgon", "entries": entries}, format="json")
    assert made.status_code == 201, made.json()
    deck = Deck.objects.get(public_id=made.json()["public_id"])
    assert feint_printings(deck) == [("deck", 3, "medusa")]

    put = api.put(
        deck_url(deck), {"name": "Gorgon", "entries": entries, "version": 1}, format="json"
    )
    assert put.status_code == 200, put.json()
    assert feint_printings(deck) == [("deck", 3, "medusa")]


def test_a_text_import_pins_the_same_printing(
    unmatched: Game, medusas_feint: Printing, owner: Any
) -> None:
    deck = deck_import(owner=owner, game=unmatched, text=TEXT)
    assert feint_printings(deck) == [("deck", 3, "medusa")]


def test_an_unpinned_entry_stays_unpinned_through_its_buttons_a_clone_and_a_restore(
    medusa_deck: Deck, medusas_feint: Printing, owner: Any, owner_client: Client
) -> None:
    feint = Card.objects.get(game=medusa_deck.game, code="feint")
    DeckEntry.objects.create(deck=medusa_deck, card=feint, zone="deck", quantity=1)
    entry = DeckEntry.objects.get(deck=medusa_deck, card=feint)
    # the player's choice "Any printing", through the row's + button
    url = reverse("decks:edit-entry", args=[medusa_deck.public_id, entry.pk])
    assert owner_client.post(url, {"version": 1, "delta": "1"}, **HTMX).status_code == 200
    assert feint_printings(medusa_deck) == [("deck", 2, None)]

    clone = deck_clone(deck=medusa_deck, user=owner)
    assert feint_printings(clone) == [("deck", 2, None)]

    medusa_deck.refresh_from_db()
    revision = medusa_deck.revisions.order_by("-number").first()
    assert revision is not None
    entry = DeckEntry.objects.get(deck=medusa_deck, card=feint)
    deck_entry_update(
        deck=medusa_deck,
        user=owner,
        expected_version=medusa_deck.version,
        entry=entry,
        printing=medusas_feint,
    )
    deck_restore(
        deck=medusa_deck, user=owner, expected_version=medusa_deck.version, revision=revision
    )
    assert feint_printings(medusa_deck) == [("deck", 2, None)]
