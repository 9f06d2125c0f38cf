"""Shared pieces of the deck API tests: catalogs, clients for the cast, decks to act on.

The other test_api_* modules import these; this module holds no tests of its own.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.core.management import call_command
from rest_framework.test import APIClient

from catalog.models import Card, Game, Product
from decks.models import Deck
from decks.services import deck_create
from decks.specs import EntrySpec

__all__ = [
    "API",
    "STARTER",
    "anonymous_api",
    "client_for",
    "deck",
    "deck_url",
    "fresh_throttles",
    "friend_api",
    "legal_entries",
    "make_deck",
    "mattsan",
    "monster_hunter",
    "owner_api",
    "starter",
    "starter_list",
    "stranger_api",
]

API = "/api/v1/decks/"
STARTER = "MTD-ST1"


def deck_url(deck: Deck | str, tail: str = "") -> str:
    public_id = deck if isinstance(deck, str) else deck.public_id
    return f"{API}{public_id}/{tail}"


def client_for(user: Any | None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture(autouse=True)
def fresh_throttles() -> None:
    # Throttle counters live in the cache, which outlives a test.
    cache.clear()


@pytest.fixture
def mattsan(db: None) -> Game:
    call_command("import_catalog", "games/mattsan/catalog.json", verbosity=0)
    return Game.objects.get(slug="mattsan")


@pytest.fixture
def monster_hunter(db: None) -> Game:
    call_command("import_catalog", "games/monster_hunter/catalog.json", verbosity=0)
    return Game.objects.get(slug="monster-hunter")


@pytest.fixture
def starter(mattsan: Game) -> Product:
    return Product.objects.get(game=mattsan, code=STARTER)


def starter_list(product: Product) -> list[dict[str, Any]]:
    """The starter's 30 cards as API entries (a legal Mattsan deck)."""
    return [
        {"card": item.printing.card.code, "zone": item.zone, "quantity": item.quantity}
        for item in product.items.select_related("printing__card").order_by("pk")
    ]


@pytest.fixture
def legal_entries(starter: Product) -> list[dict[str, Any]]:
    return starter_list(starter)


def make_deck(
    owner: Any,
    game: Game,
    *,
    visibility: str = Deck.Visibility.PRIVATE,
    name: str = "Robo Street",
    entries: list[dict[str, Any]] | None = None,
) -> Deck:
    cards = {c.code: c for c in Card.objects.filter(game=game)}
    specs = [EntrySpec(cards[e["card"]], e["zone"], e["quantity"]) for e in entries or []]
    return deck_create(owner=owner, game=game, name=name, visibility=visibility, entries=specs)


@pytest.fixture
def deck(owner: Any, mattsan: Game, legal_entries: list[dict[str, Any]]) -> Deck:
    """The owner's private, legal Mattsan deck (the starter's list)."""
    return make_deck(owner, mattsan, entries=legal_entries)


@pytest.fixture
def owner_api(owner: Any) -> APIClient:
    return client_for(owner)


@pytest.fixture
def friend_api(friend: Any) -> APIClient:
    return client_for(friend)


@pytest.fixture
def stranger_api(stranger: Any) -> APIClient:
    return client_for(stranger)


@pytest.fixture
def anonymous_api() -> APIClient:
    return APIClient()
