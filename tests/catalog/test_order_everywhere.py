"""Every ``order:`` key the search language documents (``name``, ``type``, ``number`` and each
game's number fields, docs/search.md), both directions, answers its results wherever the
language is read: the deck editor's search, the game's catalog page and the API."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.db.models.functions import Length
from django.test import Client
from django.urls import reverse

from catalog.models import Card, Game, Printing
from catalog.query.fields import ORDER_BASE, game_fields
from decks.services import deck_create
from decks.views.editor import SEARCH_LIMIT
from games import registry

pytestmark = pytest.mark.django_db

SLUGS = [game.slug for game in registry.all_games()]


def order_keys(slug: str) -> list[str]:
    return [*ORDER_BASE, *(f.name for f in game_fields(slug) if f.kind == "number")]


def load(slug: str) -> Game:
    call_command("import_catalog", str(registry.get(slug).catalog_file), verbosity=0)
    return Game.objects.get(slug=slug)


@pytest.mark.parametrize("slug", SLUGS)
def test_every_order_key_answers_in_the_editor_the_catalog_and_the_api(
    slug: str, owner: Any, owner_client: Client
) -> None:
    game = load(slug)
    deck = deck_create(owner=owner, game=game, name="Sorted")
    editor = reverse("decks:edit-search", args=[deck.public_id])
    page = reverse("catalog:game", args=[slug])
    api = f"/api/v1/games/{slug}/cards/"
    for key in order_keys(slug):
        for direction in ("asc", "desc"):
            query = f"order:{key} dir:{direction}"
            answer = owner_client.get(editor, {"q": query}, HTTP_HX_REQUEST="true")
            assert answer.status_code == 200, (slug, query, "editor")
            html = answer.content.decode()
            assert "data-query-error" not in html and "data-results=" in html, (slug, query)
            assert 'data-results="0"' not in html, (slug, query)
            assert owner_client.get(page, {"q": query}).status_code == 200, (slug, query)
            listed = owner_client.get(api, {"q": query})
            assert listed.status_code == 200, (slug, query, listed.content[:300])
            assert listed.json()["results"], (slug, query)
    for key in ORDER_BASE:
        # the API's search across games reads the fields every game shares
        listed = owner_client.get("/api/v1/cards/", {"q": f"order:{key}", "game": slug})
        assert listed.status_code == 200, (slug, key, listed.content[:300])


def lowest_number(card: Card) -> str:
    printing = (
        Printing.objects.filter(card=card)
        .order_by(Length("collector_number"), "collector_number")
        .first()
    )
    assert printing is not None
    return printing.collector_number.rjust(40, "0")


def test_the_editor_sorts_by_each_cards_lowest_collector_number(
    owner: Any, owner_client: Client
) -> None:
    game = load("unmatched")
    deck = deck_create(owner=owner, game=game, name="By number")
    url = reverse("decks:edit-search", args=[deck.public_id])
    answer = owner_client.get(url, {"q": "order:number"}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    shown = [r["card"].code for r in answer.context["results"]]
    cards = sorted(
        Card.objects.filter(game=game), key=lambda c: (lowest_number(c), c.name_en, c.pk)
    )
    assert shown == [c.code for c in cards][:SEARCH_LIMIT]
