"""The API's messages in each language name zones, card types and games in that language
(decks/legality/rules.py and decks/api/cards.py keep those names lazy until rendered)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

from catalog.models import Game
from decks.api.cards import _zone_error

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("committed_catalogs")]
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def validate(client: Client, entries: list[dict[str, Any]], language: str) -> Any:
    response = client.post(
        "/api/v1/decks/validate/",
        json.dumps({"game": "unmatched", "entries": entries}),
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert response.status_code == 200
    return {p["code"]: p for p in response.json()["problems"]}


@pytest.mark.parametrize("language", ["en", "ja"])
def test_both_languages_of_a_problem_name_the_zones_in_their_own_language(
    client: Client, language: str
) -> None:
    problems = validate(client, [{"card": "feint", "zone": "sideboard", "quantity": 7}], language)
    fix = problems["unknown-zone"]["fix"]
    assert "action deck" in fix["en"] and not JAPANESE.search(fix["en"].replace("Feint", ""))
    assert "アクションデッキ" in fix["ja"] and "action deck" not in fix["ja"]
    size = validate(client, [{"card": "feint", "zone": "deck", "quantity": 1}], language)
    assert size["zone-size"]["message"]["en"] == (
        "The action deck has 1 card; it must have exactly 30."
    )
    assert size["zone-size"]["message"]["ja"].startswith("アクションデッキは1枚です。")


def test_an_unknown_zone_of_an_api_entry_names_the_game_and_zones_in_each_language() -> None:
    said = _zone_error(Game.objects.get(slug="unmatched"), "sideboard")
    assert said is not None
    both = said.both()
    assert "Unmatched" in both["en"] and "action deck" in both["en"]
    assert "アンマッチ" in both["ja"] and "アクションデッキ" in both["ja"]
    assert "Unmatched" not in both["ja"] and "deck," not in both["ja"]
