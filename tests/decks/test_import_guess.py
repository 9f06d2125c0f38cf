"""Imports that guess right (decks/imports/guess.py): a text list's ``game:`` line wins over the
Game box, an unmatched.cards deck pasted as a text list is read as one, and a list of another
game imported into an existing deck reports only that mismatch."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from catalog.models import Game
from decks.imports.errors import DeckImportError
from decks.imports.service import deck_import, deck_import_into
from decks.services import deck_create

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("committed_catalogs")]

DECKS_DIR = Path(settings.BASE_DIR).parent / "shared" / "data" / "unmatched" / "decks"
UNMATCHED_LIST = "game: unmatched\nname: Feints\n## hero\n1 Medusa\n## deck\n3 Feint\n3 Regroup\n"


def game(slug: str) -> Game:
    return Game.objects.get(slug=slug)


@pytest.mark.parametrize("line", ["game: unmatched", "ゲーム: アンマッチ", "Game: Unmatched"])
def test_a_game_line_naming_another_game_imports_a_deck_of_that_game(owner: Any, line: str) -> None:
    text = UNMATCHED_LIST.replace("game: unmatched", line)
    deck = deck_import(owner=owner, game=game("monster-hunter"), text=text)
    assert (deck.game.slug, deck.name, deck.card_count) == ("unmatched", "Feints", 6)


def test_into_an_existing_deck_a_list_of_another_game_reports_only_the_mismatch(
    owner: Any,
) -> None:
    deck = deck_create(owner=owner, game=game("monster-hunter"), name="Hunters")
    with pytest.raises(DeckImportError) as refused:
        deck_import_into(deck=deck, user=owner, expected_version=deck.version, text=UNMATCHED_LIST)
    (problem,) = refused.value.problems
    assert (problem.line, problem.code) == (1, "game")
    assert "Unmatched" in problem.message and "Monster Hunter" in problem.message


@pytest.mark.parametrize("box", ["unmatched", "monster-hunter"])
def test_unmatched_cards_json_pasted_as_a_text_list_is_read_as_that_json(
    owner: Any, box: str
) -> None:
    text = (DECKS_DIR / "medusa.json").read_text(encoding="utf-8")
    deck = deck_import(owner=owner, game=game(box), text=text, fmt="text")
    assert (deck.game.slug, deck.card_count, deck.is_legal) == ("unmatched", 30, True)


def test_broken_json_pasted_as_text_is_still_read_as_a_text_list(owner: Any) -> None:
    with pytest.raises(DeckImportError) as refused:
        deck_import(owner=owner, game=game("unmatched"), text='{"hero": ', fmt="text")
    assert len(refused.value.problems) == 1


def test_the_api_import_follows_the_game_line(owner_client: Any) -> None:
    response = owner_client.post(
        "/api/v1/decks/import/",
        json.dumps({"game": "monster-hunter", "text": UNMATCHED_LIST}),
        content_type="application/json",
    )
    assert response.status_code == 201, response.content[:400]
    assert response.json()["game"] == "unmatched"
