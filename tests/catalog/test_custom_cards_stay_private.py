"""A player's own cards (from a custom deck import) never show in the public catalog."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from catalog.importers.write import game_sync
from catalog.models import Card, CardSet, Printing


@pytest.fixture
def custom_card(owner: Any) -> Card:
    game = game_sync("unmatched")
    card_set = CardSet.objects.create(
        game=game,
        code="custom-1-my-hero",
        name_en="My hero (custom deck)",
        kind="box",
        owner=owner,
    )
    card = Card.objects.create(
        game=game,
        code="u1-secret-strike",
        name_en="Secret Strike",
        card_type="attack",
        attributes={"value": 4},
        owner=owner,
    )
    Printing.objects.create(
        card=card,
        card_set=card_set,
        collector_number="my-hero",
        attributes={"fighter": "any", "boost": 2},
    )
    return card


@pytest.mark.django_db
def test_custom_cards_are_not_on_catalog_pages(custom_card: Card, client: Client) -> None:
    assert client.get("/games/unmatched/cards/u1-secret-strike/").status_code == 404
    assert client.get("/games/unmatched/sets/custom-1-my-hero/").status_code == 404
    game_page = client.get("/games/unmatched/", {"q": "Secret"})
    assert "Secret Strike" not in game_page.content.decode()
    assert "My hero (custom deck)" not in game_page.content.decode()


@pytest.mark.django_db
def test_custom_cards_are_not_in_the_api(custom_card: Card, client: Client) -> None:
    assert client.get("/api/v1/games/unmatched/cards/u1-secret-strike/").status_code == 404
    listed = client.get("/api/v1/games/unmatched/cards/", {"q": "secret"}).json()
    assert listed["count"] == 0
    assert client.get("/api/v1/cards/", {"q": "secret"}).json()["count"] == 0
