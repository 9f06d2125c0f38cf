"""The contract between DeckLab and a game, written once: what a game package may declare.

Each part is a ``Declared`` attribute of ``games.registry.Game`` (``game.deck_rules``,
``game.search_fields``, ...): the module of the game's package it lives in, the name it has
there, its type, and whether every game must have it. Shared code reads a game only through
these accessors, so no shared module spells a part's module or name as a string, and the list
in ``docs/adding-a-game.md`` is checked against this one (``tests/games/test_contract.py``).
The hooks (functions a game may give) are typed by the Protocols below.

Pure Python: the types of the Django parts are named for mypy only, and a part's module is
imported on first use, so the pure parts (schedule, engine, golden games) load without Django.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, overload

if TYPE_CHECKING:
    from catalog.models import Card, Printing
    from decks.models import Deck
    from games.registry import Game

T = TypeVar("T")


class DefaultPrinting(Protocol):
    """``deck.py``'s ``default_printing``: the printing a card added without one is pinned to
    in this deck (Unmatched: the one in the hero's own deck), or None when none fits."""

    def __call__(self, deck: Deck, card: Card) -> Printing | None: ...


class StartDeck(Protocol):
    """``official.py``'s ``start_deck``: the entries and extras of a deck started from the
    official product ``code`` (its default choices applied)."""

    def __call__(self, code: str, entries: list[Any]) -> tuple[list[Any], dict[str, Any]]: ...


@dataclass(frozen=True)
class Declared(Generic[T]):
    """One part of the contract: ``name`` in the game's module ``module``.

    Reading it on a game gives the declared value, or ``default`` when the game has no such
    module or name; a ``required`` part missing is a LookupError naming the file to write."""

    module: str
    name: str
    #: one line for the docs and errors: what the part gives the game
    what: str
    required: bool = False
    default: Any = None

    @overload
    def __get__(self, game: None, owner: type[Game]) -> Declared[T]: ...
    @overload
    def __get__(self, game: Game, owner: type[Game]) -> T: ...
    def __get__(self, game: Game | None, owner: type[Game]) -> Declared[T] | T:
        if game is None:
            return self
        module = game.module(self.module)
        if module is None or not hasattr(module, self.name):
            if self.required:
                raise LookupError(
                    f"The game {game.slug!r} declares no {self.name} in {self.module}.py"
                )
            default: T = self.default
            return default
        value: T = getattr(module, self.name)
        return value


@dataclass(frozen=True)
class File:
    """A file or folder of the game's package that DeckLab reads by its name."""

    path: str
    what: str


def declared_parts(cls: type[Any]) -> dict[str, Declared[Any]]:
    """The accessor name of every part a class declares (the contract, for docs and checks)."""
    return {
        name: value
        for klass in reversed(cls.__mro__)
        for name, value in vars(klass).items()
        if isinstance(value, Declared)
    }


#: the files and folders of a game package that are data, not Python modules
FILES: Sequence[File] = (
    File("__init__.py", "GAME = Game(...): the slug, digest and sort order; registers the game"),
    File("catalog.json", "the game's catalog data, loaded by manage.py load_catalogs"),
    File("reference.json", "the rules reference page, in our own words, in both languages"),
    File("official.json", "facts about official products a game's official.py may read"),
    File("rules.py", "pure rules the deck checker and the engine share (imported by the game)"),
    File("templates/", "face.html (the card face) and partials, as games/<slug>/<file>"),
    File("static/", "styles and scripts, served as games/<slug>/<file>"),
    File("golden/", "the golden transcripts written by manage.py regenerate_golden"),
    File("locale/", "a game kept outside DeckLab: its own translations (LOCALE_PATHS)"),
)


def contract_table(cls: type[Any]) -> list[str]:
    """The contract as the rows of the Markdown table in ``docs/adding-a-game.md``: one row per
    declared part (file, name, accessor, what it gives, required), then the data files."""
    rows = [
        "| File | Declares | Read as | What it gives | Needed |",
        "| --- | --- | --- | --- | --- |",
    ]
    for accessor, part in declared_parts(cls).items():
        needed = "yes" if part.required else ""
        rows.append(
            f"| `{part.module}.py` | `{part.name}` | `game.{accessor}` | {part.what} | {needed} |"
        )
    for data in FILES:
        rows.append(f"| `{data.path}` | | | {data.what} | |")
    return rows
