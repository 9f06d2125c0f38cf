"""The per-game seam: games are found by module, so a sixth game edits no shared code."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from catalog.games import all_games, discover_games, get_game, is_game
from decklab.plugins import game_modules

SLUGS = ["monster-hunter", "ouka-fushin", "recharge", "unmatched", "mattsan"]


def test_it_registers_the_five_games_under_their_digest_names() -> None:
    assert [g.slug for g in all_games()] == SLUGS
    for spec in all_games():
        assert spec.rules_digest == f"{spec.slug}.md"
        assert (Path(__file__).parents[3] / "shared" / "rules" / spec.rules_digest).exists()


def test_it_refuses_an_unknown_slug() -> None:
    assert not is_game("magic")
    with pytest.raises(LookupError):
        get_game("magic")


@pytest.fixture
def plugin_package(tmp_path: Path) -> Iterator[str]:
    """A throwaway package holding one new game, as a sixth game's author would write it."""
    package = tmp_path / "sixth_game_pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "go.py").write_text(
        textwrap.dedent(
            """
            from catalog.games.base import CardType, GameSpec

            GAME_SLUG = "go-cards"
            GAME = GameSpec(
                slug=GAME_SLUG, name_en="Go Cards", name_ja="碁カード", publisher="x",
                years="2026", rules_digest="go-cards.md", card_types=(CardType("stone", "Stone"),),
            )
            """
        )
    )
    sys.path.insert(0, str(tmp_path))
    yield "sixth_game_pkg"
    sys.path.remove(str(tmp_path))
    for name in [n for n in sys.modules if n.startswith("sixth_game_pkg")]:
        del sys.modules[name]


def test_a_new_game_module_is_found_without_editing_shared_code(plugin_package: str) -> None:
    found = discover_games(plugin_package)
    assert list(found) == ["go-cards"]
    assert found["go-cards"].card_type_codes == ("stone",)
    assert list(game_modules(plugin_package)) == ["go-cards"]
