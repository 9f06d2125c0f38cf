"""The collection page and API filter with the card search language: the game's own fields,
negation and the shared fields; a mistake is pointed at, never an empty result or a 500."""

from __future__ import annotations

from typing import Any

from django.test import Client
from django.urls import reverse

from tests.collection.conftest import Shelf, add


def shown(client: Client, shelf: Shelf, q: str) -> set[str]:
    page = client.get(reverse("collection:game", args=[shelf.game.slug]), {"q": q})
    assert page.status_code == 200, page.content
    text = page.content.decode()
    return {card.name_en for card in shelf.cards if card.name_en in text}


def test_names_fields_and_negation_filter_the_items(
    shelf: Shelf, owner: Any, owner_client: Client
) -> None:
    for printing in shelf.base_printings:
        add(owner, printing, 1)
    fox, wall, tide = (c.name_en for c in shelf.cards)
    assert shown(owner_client, shelf, "fox") == {fox}
    assert shown(owner_client, shelf, "-fox") == {wall, tide}
    assert shown(owner_client, shelf, "fox or tide") == {fox, tide}
    assert shown(owner_client, shelf, "set:MT1 -tide") == {fox, wall}


def test_a_mistake_is_a_400_naming_its_place(
    shelf: Shelf, owner: Any, owner_client: Client
) -> None:
    add(owner, shelf.base_printings[0], 1)
    page = owner_client.get(reverse("collection:game", args=[shelf.game.slug]), {"q": "fox ("})
    assert page.status_code == 400
    assert "data-query-error" in page.content.decode()
    api = owner_client.get("/api/v1/collection/items/", {"q": "shcool:x", "game": "mattsan"})
    assert api.status_code == 400
    assert "shcool" in str(api.json())
