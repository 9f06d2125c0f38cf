"""The one registry of games: a plain list, duplicate slugs refused, parts found by name."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from catalog.spec import all_games, get_game, is_game
from games import registry
from games.registry import Game

RULES = Path(__file__).resolve().parents[3] / "shared" / "rules"


def test_the_builtin_list_is_the_registry_in_sort_order() -> None:
    packages = [g.package for g in registry.all_games()]
    assert sorted(packages) == sorted(registry.BUILTIN)
    orders = [g.sort_order for g in registry.all_games()]
    assert orders == sorted(orders)
    assert [s.slug for s in all_games()] == registry.slugs()


@pytest.mark.parametrize("game", registry.all_games(), ids=lambda g: g.slug)
def test_every_game_cites_a_digest_that_exists_and_declares_its_parts(game: Game) -> None:
    assert game.digest == f"{game.slug}.md"
    assert (RULES / game.digest).exists()
    spec = get_game(game.slug)
    assert (spec.slug, spec.rules_digest, spec.sort_order) == (
        game.slug,
        game.digest,
        game.sort_order,
    )
    assert game.has_deck_rules
    assert game.setup.schedule.opening >= 1
    assert game.catalog_file is not None and game.catalog_file.name == "catalog.json"


def test_it_refuses_an_unknown_slug() -> None:
    assert not is_game("magic")
    with pytest.raises(LookupError):
        get_game("magic")
    with pytest.raises(LookupError):
        registry.get("magic")


def test_a_game_without_a_part_says_so_and_a_broken_part_raises(tmp_path: Path) -> None:
    package = tmp_path / "brokengame"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "engine.py").write_text("import no_such_module_anywhere\n")
    sys.path.insert(0, str(tmp_path))
    try:
        game = Game(slug="broken", package="brokengame", digest="broken.md")
        assert not game.has_deck_rules
        assert game.panels == ()
        with pytest.raises(LookupError, match=r"declares no RULES in deck\.py"):
            _ = game.deck_rules
        with pytest.raises(ModuleNotFoundError):
            _ = game.engine
    finally:
        sys.path.remove(str(tmp_path))
        for name in [n for n in sys.modules if n.startswith("brokengame")]:
            del sys.modules[name]


@pytest.fixture
def go_cards(tmp_path: Path) -> Iterator[str]:
    """A throwaway package holding one new game, as a sixth game's author writes it."""
    package = tmp_path / "go_cards_pkg"
    package.mkdir()
    (package / "__init__.py").write_text(
        textwrap.dedent(
            """
            from games.registry import Game

            GAME = Game(slug="go-cards", package=__name__, digest="go-cards.md", sort_order=99)
            """
        )
    )
    (package / "catalog.py").write_text(
        textwrap.dedent(
            """
            from catalog.spec import CardType, GameSpec

            SPEC = GameSpec(
                slug="go-cards", name_en="Go Cards", name_ja="碁カード", publisher="x",
                years="2026", rules_digest="go-cards.md", card_types=(CardType("stone", "Stone"),),
            )
            """
        )
    )
    sys.path.insert(0, str(tmp_path))
    yield "go_cards_pkg"
    registry.unregister("go-cards")
    sys.path.remove(str(tmp_path))
    for name in [n for n in sys.modules if n.startswith("go_cards_pkg")]:
        del sys.modules[name]


def test_a_new_game_package_registers_without_editing_shared_code(go_cards: str) -> None:
    game = registry.register(go_cards)
    assert registry.get("go-cards") is game
    assert registry.slugs()[-1] == "go-cards"
    assert get_game("go-cards").card_type_codes == ("stone",)
    assert game.engine is None  # no engine.py: the game simply has none yet
    registry.register(go_cards)  # the same game again changes nothing


def test_a_second_game_with_a_taken_slug_is_refused(go_cards: str) -> None:
    registry.register(go_cards)
    impostor = Game(slug="go-cards", package="elsewhere", digest="go-cards.md")
    with pytest.raises(ValueError, match="Two games claim the slug 'go-cards'"):
        registry.register(impostor)
    assert registry.get("go-cards").package == go_cards
