"""Fixtures of the sixth-game tests (tests/games/test_sixth_game*.py): the Pebbles package
written into a temporary folder and registered, its catalog loaded, a deck, and its Japanese
catalog of labels on LOCALE_PATHS. Test modules import the fixtures they use by name."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from catalog.models import Game
from decks.imports.service import deck_import
from decks.models import Deck
from games import registry
from games.reference import reference
from tests.games.sixth_game import PACKAGE, SLUG, write_pebbles

KEEPER = "1 Old Keeper"
#: a legal bag of 10 pebbles
BAG = ("4 Grey Pebble", "3 Red Pebble", "3 Blue Pebble")
#: the bag, a pouch (the sideboard) of two, two marks, and tokens over the game's limit of 5
LIST = "\n".join(
    (
        "game: pebbles",
        "tokens: 7",
        "marks: 2 1",
        "## keeper",
        KEEPER,
        "## bag",
        *BAG,
        "## pouch",
        "2 Green Pebble",
    )
)


@pytest.fixture(scope="module")
def pebbles(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    folder = tmp_path_factory.mktemp("sixth-game")
    package = write_pebbles(folder)
    sys.path.insert(0, str(folder))
    registry.register(PACKAGE)
    reference.cache_clear()
    yield package
    registry.unregister(SLUG)
    reference.cache_clear()
    sys.path.remove(str(folder))
    for name in [n for n in sys.modules if n.startswith(PACKAGE)]:
        del sys.modules[name]


@pytest.fixture
def catalog(pebbles: Path, db: None) -> Game:
    call_command("import_catalog", str(pebbles / "catalog.json"), verbosity=0)
    return Game.objects.get(slug=SLUG)


@pytest.fixture
def deck(catalog: Game, owner: Any) -> Deck:
    return deck_import(owner=owner, game=catalog, text=LIST, name="Bag of stones")


@pytest.fixture
def japanese_labels(pebbles: Path, settings: Any) -> Path:
    """The game's own gettext catalog of its labels listed in LOCALE_PATHS, as a site running
    the game lists it (Django merges every LOCALE_PATHS catalog; changing the setting drops the
    loaded catalogs)."""
    locale = pebbles / "locale"
    settings.LOCALE_PATHS = [*settings.LOCALE_PATHS, locale]
    return locale
