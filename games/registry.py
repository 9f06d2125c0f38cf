"""The one registry of games (python-chess style: a plain list), pure Python.

A game is one package under ``games/`` (or anywhere importable) whose ``__init__`` declares
``GAME = Game(...)``. Everything else the game knows sits in modules of that package with fixed
names, imported only when asked for, so the pure parts (schedule, rules, engine, golden data)
can be used without Django and the Django parts (catalog spec, deck rules, extras, formats,
test-hand panels) load on first use.

The parts are the contract written once in ``Game`` below: each is a typed accessor
(``game.deck_rules``, ``game.engine``, ``game.search_fields``, ...) declared with
``games.contract.Declared`` (its module, its name there, what it gives). Shared code reads a
game only through them; ``docs/adding-a-game.md`` lists the same parts, and a test holds the
two together.

The built-in games are the list ``BUILTIN`` below: adding one is a folder and one line here.
``register`` adds a game from elsewhere (a test's temporary package, or the packages named in
the ``DECKLAB_EXTRA_GAMES`` setting); a second game with a slug already taken is refused.
"""

from __future__ import annotations

import importlib
import threading
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar

from games.contract import Declared, DefaultPrinting, StartDeck

if TYPE_CHECKING:
    from collections.abc import Mapping

    from catalog.importers.formats import CatalogFormat
    from catalog.models import Card, Printing
    from catalog.query.fields import SearchField
    from catalog.spec import GameSpec
    from decks.extras import Extra
    from decks.game_rules import DeckRules
    from decks.imports.formats import DeckFormat
    from decks.models import Deck
    from games.official import OfficialProduct
    from simulator.engine.cards import SimDeck
    from simulator.engine.engine import Engine
    from simulator.engine.setup import GameSetup
    from simulator.testhands.panels import Panel

#: the games that ship with DeckLab, in the order their packages are imported
BUILTIN: tuple[str, ...] = (
    "games.unmatched",
    "games.recharge",
    "games.monster_hunter",
    "games.ouka_fushin",
    "games.mattsan",
)


@dataclass(eq=False)
class Game:
    """One game: its slug, where its package is, and its parts, each loaded on first use."""

    slug: str
    #: the dotted name of the package (``__name__`` in its ``__init__``)
    package: str
    #: the rule digest its validators and engines cite: shared/rules/<digest>
    digest: str
    #: where the game sits in lists (catalog home, pickers)
    sort_order: int = 100
    #: dotted names already found missing: a failed import searches the disk again every
    #: time, and pages ask for parts (formats, extras) a game may not have on every request
    _missing: set[str] = field(default_factory=set, repr=False)

    # --- the contract: every part a game may declare ---------------------------------------
    # catalog.py
    spec: ClassVar[Declared[GameSpec]] = Declared(
        "catalog", "SPEC", "card types, attribute schemas, facets, variants", required=True
    )
    # search.py
    search_fields: ClassVar[Declared[tuple[SearchField, ...]]] = Declared(
        "search", "FIELDS", "search fields that are not one attribute (several keys)", default=()
    )
    # deck.py
    deck_rules: ClassVar[Declared[DeckRules]] = Declared(
        "deck", "RULES", "zones, legality rules, statistics", required=True
    )
    default_printing_hook: ClassVar[Declared[DefaultPrinting | None]] = Declared(
        "deck", "default_printing", "the printing a card added without one is pinned to"
    )
    # extras.py
    extras: ClassVar[Declared[tuple[Extra, ...]]] = Declared(
        "extras", "EXTRAS", "what a deck keeps beside its cards", default=()
    )
    # schedule.py (pure)
    setup: ClassVar[Declared[GameSetup]] = Declared(
        "schedule", "SETUP", "how test hands and odds deal", required=True
    )
    # engine.py (pure)
    engine: ClassVar[Declared[Engine[Any, Any] | None]] = Declared(
        "engine", "ENGINE", "the goldfish engine (absent: the game has none yet)"
    )
    # testhand.py
    panels: ClassVar[Declared[tuple[Panel, ...]]] = Declared(
        "testhand", "PANELS", "what a test hand shows beside the cards", default=()
    )
    # formats.py
    deck_formats: ClassVar[Declared[tuple[DeckFormat, ...]]] = Declared(
        "formats", "DECK_FORMATS", "the game's own deck file formats", default=()
    )
    catalog_formats: ClassVar[Declared[tuple[CatalogFormat, ...]]] = Declared(
        "formats", "CATALOG_FORMATS", "the game's own catalog file formats", default=()
    )
    # collection.py
    finishes: ClassVar[Declared[tuple[tuple[str, Any], ...] | None]] = Declared(
        "collection", "FINISHES", "the finishes a collection item may have (code, label)"
    )
    languages: ClassVar[Declared[tuple[str, ...] | None]] = Declared(
        "collection", "LANGUAGES", "the languages the game was printed in, the usual first"
    )
    # official.py
    official_products: ClassVar[Declared[Mapping[str, OfficialProduct]]] = Declared(
        "official", "OFFICIAL", "facts about official products, by product code", default={}
    )
    start_deck_hook: ClassVar[Declared[StartDeck | None]] = Declared(
        "official", "start_deck", "a deck started from an official product, choices applied"
    )
    # golden.py (pure)
    golden_deck: ClassVar[Declared[SimDeck | None]] = Declared(
        "golden", "GOLDEN_DECK", "a hand-made deck reaching every rule of the engine"
    )
    golden_games: ClassVar[Declared[tuple[Any, ...] | None]] = Declared(
        "golden", "GOLDEN_GAMES", "the games recorded as golden transcripts"
    )

    def __repr__(self) -> str:
        return f"<Game {self.slug}>"

    @cached_property
    def directory(self) -> Path:
        module = importlib.import_module(self.package)
        return Path(str(module.__file__)).resolve().parent

    def module(self, name: str) -> ModuleType | None:
        """The package's module ``name`` (for ``Declared`` only), or None when the game has
        no such module. A module that exists but fails to import still raises: a broken part
        is seen, never hidden."""
        dotted = f"{self.package}.{name}"
        if dotted in self._missing:
            return None
        try:
            return importlib.import_module(dotted)
        except ModuleNotFoundError as exc:
            if exc.name != dotted:
                raise
            self._missing.add(dotted)
            return None

    # --- hooks -----------------------------------------------------------------------------
    @property
    def pins_printings(self) -> bool:
        """Whether the game pins cards added without a printing (``default_printing``)."""
        return self.default_printing_hook is not None

    def default_printing(self, deck: Deck, card: Card) -> Printing | None:
        """The printing ``card`` is pinned to in ``deck`` when added without one, or None."""
        hook = self.default_printing_hook
        return hook(deck, card) if hook is not None else None

    def start_deck(self, code: str, entries: list[Any]) -> tuple[list[Any], dict[str, Any]]:
        """The entries and extras of a new deck started from product ``code``; a game without
        ``official.start_deck`` keeps the product's list as it is."""
        hook = self.start_deck_hook
        return hook(code, entries) if hook is not None else (entries, {})

    @property
    def has_deck_rules(self) -> bool:
        return self.module("deck") is not None

    # --- files ------------------------------------------------------------------------------
    @property
    def golden_dir(self) -> Path:
        return self.directory / "golden"

    @property
    def catalog_file(self) -> Path | None:
        path = self.directory / "catalog.json"
        return path if path.exists() else None

    @property
    def reference_file(self) -> Path:
        return self.directory / "reference.json"

    @property
    def templates_dir(self) -> Path:
        return self.directory / "templates"

    @property
    def static_dir(self) -> Path:
        return self.directory / "static"


_games: dict[str, Game] = {}
_loaded = False


def _game_of(package: str) -> Game:
    module = importlib.import_module(package)
    game = getattr(module, "GAME", None)
    if not isinstance(game, Game):
        raise TypeError(f"{package} declares no GAME = Game(...)")
    return game


#: threads of a fresh process loading at once saw a half-filled registry (one game of five)
_load_lock = threading.RLock()


_loading = False


def _ensure_loaded() -> None:
    global _loaded, _loading
    if _loaded:
        return
    with _load_lock:
        # loaded by another thread while this one waited, or this thread's register() below
        # calling back in (the lock is re-entrant)
        if _loaded or _loading:
            return
        _loading = True
        try:
            for package in BUILTIN:
                register(_game_of(package))
        finally:
            _loading = False
        _loaded = True


def register(game: Game | str) -> Game:
    """Add a game (or the game of a package named by its dotted path); refuse a slug that
    another game already has."""
    _ensure_loaded()
    found = _game_of(game) if isinstance(game, str) else game
    current = _games.get(found.slug)
    if current is not None and current is not found:
        raise ValueError(
            f"Two games claim the slug {found.slug!r}: {current.package}, {found.package}"
        )
    _games[found.slug] = found
    return found


def unregister(slug: str) -> None:
    _ensure_loaded()
    _games.pop(slug, None)


def all_games() -> list[Game]:
    """Every registered game, in its sort order."""
    _ensure_loaded()
    return sorted(_games.values(), key=lambda g: (g.sort_order, g.slug))


def slugs() -> list[str]:
    return [game.slug for game in all_games()]


def get(slug: str) -> Game:
    _ensure_loaded()
    try:
        return _games[slug]
    except KeyError:
        raise LookupError(f"Unknown game {slug!r}") from None


def is_game(slug: str) -> bool:
    _ensure_loaded()
    return slug in _games


def engines() -> dict[str, Engine[Any, Any]]:
    """The games that have a goldfish engine, by slug."""
    return {g.slug: e for g in all_games() if (e := g.engine) is not None}
