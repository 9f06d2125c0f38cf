"""The game contract is written once (``games.registry.Game``'s ``Declared`` parts): the docs
list the same parts, shared code reads them only through the accessors, and every registered
game declares each part with the type the contract names."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from catalog.importers.formats import CatalogFormat
from catalog.query.fields import SearchField
from catalog.spec import GameSpec
from decks.extras import Extra
from decks.game_rules import DeckRules
from decks.imports.formats import DeckFormat
from games import registry
from games.contract import contract_table, declared_parts
from games.official import OfficialProduct
from games.registry import Game
from games.web import with_game_locales
from simulator.engine.cards import SimDeck
from simulator.engine.engine import Engine
from simulator.engine.setup import GameSetup
from simulator.testhands.panels import Panel

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "adding-a-game.md"
TABLE = re.compile(r"<!-- contract:start -->\n(.*?)\n<!-- contract:end -->", re.S)


def test_the_docs_list_exactly_the_parts_of_the_contract() -> None:
    found = TABLE.search(DOC.read_text(encoding="utf-8"))
    assert found, "docs/adding-a-game.md lost its contract table markers"
    expected = "\n".join(contract_table(Game))
    assert found.group(1) == expected, (
        "docs/adding-a-game.md's contract table differs from games.registry.Game; "
        f"paste this between the markers:\n{expected}"
    )


def _shared_python() -> list[Path]:
    skipped = {"tests", "docs", "bench", ".venv", "games", "locale", "node_modules"}
    return [
        path
        for path in ROOT.rglob("*.py")
        if not skipped & set(path.relative_to(ROOT).parts) and "migrations" not in path.parts
    ]


def test_no_shared_module_looks_a_part_up_by_its_name() -> None:
    parts = declared_parts(Game).values()
    names = {part.name for part in parts} | {part.module for part in parts}
    any_name = "|".join(map(re.escape, names))
    by_string = re.compile(rf"\.(?:module|declared|part)\(\s*[\"'](?:{any_name})[\"']")
    any_part = "|".join(re.escape(part.name) for part in parts)
    attribute = re.compile(rf"getattr\([^)]*[\"'](?:{any_part})[\"']")
    offenders = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in _shared_python()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if by_string.search(line) or attribute.search(line)
    ]
    assert offenders == []


def _tuple_of(kind: type) -> Callable[[Any], bool]:
    return lambda value: isinstance(value, tuple) and all(isinstance(v, kind) for v in value)


def _optional(check: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda value: value is None or check(value)


def _finishes(value: Any) -> bool:
    return all(isinstance(code, str) and label for code, label in value)


#: what each part must be, by accessor: the runtime face of the contract's types
CHECKS: dict[str, Callable[[Any], bool]] = {
    "spec": lambda v: isinstance(v, GameSpec),
    "search_fields": _tuple_of(SearchField),
    "deck_rules": lambda v: isinstance(v, DeckRules),
    "default_printing_hook": _optional(callable),
    "extras": _tuple_of(Extra),
    "setup": lambda v: isinstance(v, GameSetup),
    "engine": _optional(lambda v: isinstance(v, Engine)),
    "panels": _tuple_of(Panel),
    "deck_formats": _tuple_of(DeckFormat),
    "catalog_formats": _tuple_of(CatalogFormat),
    "finishes": _optional(lambda v: isinstance(v, tuple) and _finishes(v)),
    "languages": _optional(_tuple_of(str)),
    "official_products": lambda v: (
        isinstance(v, Mapping) and all(isinstance(p, OfficialProduct) for p in v.values())
    ),
    "start_deck_hook": _optional(callable),
    "golden_deck": _optional(lambda v: isinstance(v, SimDeck)),
    "golden_games": _optional(lambda v: isinstance(v, tuple)),
}


def test_every_part_of_the_contract_has_a_type_check_here() -> None:
    assert set(CHECKS) == set(declared_parts(Game))


@pytest.mark.parametrize("game", registry.all_games(), ids=lambda g: g.slug)
@pytest.mark.parametrize("accessor", sorted(CHECKS))
def test_every_game_declares_each_part_with_its_contract_type(game: Game, accessor: str) -> None:
    value = getattr(game, accessor)
    assert CHECKS[accessor](value), f"{game.slug}: {accessor} is {value!r}"


def test_a_required_part_missing_names_the_file_to_write(tmp_path: Path) -> None:
    game = Game(slug="bare", package="tests.games", digest="bare.md")
    with pytest.raises(LookupError, match=r"declares no SPEC in catalog\.py"):
        _ = game.spec
    with pytest.raises(LookupError, match=r"declares no SETUP in schedule\.py"):
        _ = game.setup
    assert game.engine is None and game.search_fields == () and not game.pins_printings
    assert game.start_deck("X", ["a"]) == (["a"], {})


def test_a_game_with_a_locale_folder_brings_its_translations(tmp_path: Path) -> None:
    package = tmp_path / "lantern_game"
    (package / "locale" / "ja" / "LC_MESSAGES").mkdir(parents=True)
    (package / "__init__.py").write_text(
        "from games.registry import Game\n"
        "GAME = Game(slug='lantern', package=__name__, digest='lantern.md')\n"
    )
    sys.path.insert(0, str(tmp_path))
    try:
        registry.register("lantern_game")
        found = with_game_locales(["/site/locale"])
        assert found[0] == "/site/locale"
        assert package / "locale" in found
        assert with_game_locales(found) == found  # listed once
        builtin = [g for g in registry.all_games() if g.package in registry.BUILTIN]
        assert all(g.directory / "locale" not in found for g in builtin)
    finally:
        registry.unregister("lantern")
        sys.path.remove(str(tmp_path))
        for name in [n for n in sys.modules if n.startswith("lantern_game")]:
            del sys.modules[name]
