"""A game's rules reference names its own sections (reference.json): a section key only one
game has shows under that game's own heading, in the reader's language, with no shared list."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.test import Client

from games import registry
from games.reference import reference
from tests.games.sixth_game import PACKAGE, SLUG, write_pebbles

REFERENCE = {
    "format": "decklab-rules-reference",
    "version": 1,
    "sections": [
        {
            "key": "scoring",
            "en": {"title": "Counting the chips"},
            "ja": {"title": "チップの数え方"},
            "rules": [
                {
                    "anchor": "chip-count",
                    "lines": [3, 3],
                    "en": {"title": "One point a chip", "text": "Each chip scores one point."},
                    "ja": {"title": "チップ1枚で1点", "text": "チップ1枚につき1点です。"},
                }
            ],
        }
    ],
}


@pytest.fixture
def scoring_game(tmp_path: Path) -> Iterator[None]:
    """The sixth game (Pebbles), with a reference whose one section no other game has."""
    package = write_pebbles(tmp_path)
    (package / "reference.json").write_text(json.dumps(REFERENCE), encoding="utf-8")
    sys.path.insert(0, str(tmp_path))
    registry.register(PACKAGE)
    reference.cache_clear()
    yield
    registry.unregister(SLUG)
    reference.cache_clear()
    sys.path.remove(str(tmp_path))
    for name in [n for n in sys.modules if n.startswith(PACKAGE)]:
        del sys.modules[name]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "heading"), [("en", "Counting the chips"), ("ja", "チップの数え方")]
)
def test_a_section_only_one_game_has_shows_under_the_games_own_heading(
    client: Client, scoring_game: None, language: str, heading: str
) -> None:
    client.cookies["django_language"] = language
    response = client.get(f"/rules/{SLUG}/")
    page = response.content.decode()
    assert response.status_code == 200
    assert 'id="scoring"' in page and 'href="#scoring"' in page
    assert f'<h2 class="h4" id="scoring-title">{heading}</h2>' in page
    assert 'id="chip-count"' in page


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "heading"), [("en", "Deck construction"), ("ja", "デッキ構築")]
)
def test_a_built_in_games_section_headings_come_from_its_reference(
    client: Client, language: str, heading: str
) -> None:
    client.cookies["django_language"] = language
    page = client.get("/rules/mattsan/").content.decode()
    assert f'<h2 class="h4" id="construction-title">{heading}</h2>' in page
