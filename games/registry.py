"""The one registry of games (python-chess style: a plain list), pure Python.

A game is one package under ``games/`` (or anywhere importable) whose ``__init__`` declares
``GAME = Game(...)``. Everything else the game knows sits in modules of that package with fixed
names, imported only when asked for, so the pure parts (schedule, rules, engine, golden data)
can be used without Django and the Django parts (catalog spec, deck rules, extras, formats,
test-hand panels) load on first use:

=================  =========================================================================
``catalog.py``     ``SPEC``: card types, attribute schemas, facets, variants (Django forms)
``catalog.json``   the game's catalog data, loaded by ``manage.py load_catalogs``
``deck.py``        ``RULES``: zones, legality rules, statistics (``decks.game_rules``)
``extras.py``      ``EXTRAS``: deck extras as components (``decks.extras``)
``rules.py``       pure rules shared by the deck checker and the engine
``schedule.py``    ``SETUP``: the draw schedule of test hands and odds (pure)
``engine.py``      ``ENGINE``: the goldfish engine (pure; absent: the game has none yet)
``testhand.py``    ``PANELS``: what a test hand shows beside the cards (the engine's view)
``search.py``      ``FIELDS``: the game's fields in the card search language (``catalog.query``)
``formats.py``     ``DECK_FORMATS`` and ``CATALOG_FORMATS``: the game's own file formats
``golden.py``      ``GOLDEN_DECK`` and ``GOLDEN_GAMES``; transcripts in ``golden/``
``templates/``     ``face.html`` (the card face) and partials, as ``games/<slug>/<file>``
``static/``        styles and scripts, served as ``games/<slug>/<file>``
=================  =========================================================================

The built-in games are the list ``BUILTIN`` below: adding one is a folder and one line here.
``register`` adds a game from elsewhere (a test's temporary package, or the packages named in
the ``DECKLAB_EXTRA_GAMES`` setting); a second game with a slug already taken is refused.
"""

from __future__ import annotations

import importlib
import threading
from contextlib import ContextDecorator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from simulator.engine.engine import Engine
    from simulator.engine.setup import GameSetup

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
    #: parts swapped for others by ``PartOverride`` (tests only): part name -> module path
    overrides: dict[str, str] = field(default_factory=dict, repr=False)
    #: dotted names already found missing: a failed import searches the disk again every
    #: time, and pages ask for parts (formats, extras) a game may not have on every request
    _missing: set[str] = field(default_factory=set, repr=False)

    def __repr__(self) -> str:
        return f"<Game {self.slug}>"

    @cached_property
    def directory(self) -> Path:
        module = importlib.import_module(self.package)
        return Path(str(module.__file__)).resolve().parent

    def part(self, name: str) -> ModuleType | None:
        """The package's module ``name``, or None when the game has no such part. A module
        that exists but fails to import still raises: a broken part is seen, never hidden."""
        dotted = self.overrides.get(name) or f"{self.package}.{name}"
        if dotted in self._missing:
            return None
        try:
            return importlib.import_module(dotted)
        except ModuleNotFoundError as exc:
            if exc.name != dotted:
                raise
            self._missing.add(dotted)
            return None

    def declared(self, part: str, name: str, default: Any = None) -> Any:
        module = self.part(part)
        return getattr(module, name, default) if module is not None else default

    # --- the pure parts ------------------------------------------------------------------
    @property
    def setup(self) -> GameSetup:
        """How test hands and odds deal this game (``schedule.py``'s ``SETUP``)."""
        found = self.declared("schedule", "SETUP")
        if found is None:
            raise LookupError(f"The game {self.slug!r} declares no draw schedule")
        setup: GameSetup = found
        return setup

    @property
    def engine(self) -> Engine[Any, Any] | None:
        """The goldfish engine, or None while the game has none."""
        engine: Engine[Any, Any] | None = self.declared("engine", "ENGINE")
        return engine

    @property
    def golden_dir(self) -> Path:
        return self.directory / "golden"

    @property
    def catalog_file(self) -> Path | None:
        path = self.directory / "catalog.json"
        return path if path.exists() else None

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


class PartOverride(ContextDecorator):
    """Swap one part of a registered game for another module while a test runs (a decorator
    or a ``with`` block): the run tests play a tiny controllable engine on Mattsan decks."""

    def __init__(self, slug: str, part: str, module: str) -> None:
        self.slug, self.part, self.module = slug, part, module
        self._before: str | None = None

    def __enter__(self) -> PartOverride:
        game = get(self.slug)
        self._before = game.overrides.get(self.part)
        game.overrides[self.part] = self.module
        return self

    def __exit__(self, *exc: object) -> None:
        game = get(self.slug)
        if self._before is None:
            game.overrides.pop(self.part, None)
        else:
            game.overrides[self.part] = self._before
