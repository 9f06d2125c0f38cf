"""What a game knows about its official products beyond their list of cards, as data: the
choices a product is built with (Buffy's sidekick, "Giles or Xander") and the notes where the
source's list differs from the box. A game declares ``OFFICIAL`` in its ``official.py``; shared
code (the product page, the deck page, the API, the deck services) asks through here and never
names a game.

Pure Python: the notes carry both languages as data, like the catalog's names.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games import registry


@dataclass(frozen=True)
class DataNote:
    """Where our data differs from the product as published, and who says so."""

    text_en: str
    text_ja: str
    source: str

    def text(self, language: str) -> str:
        return self.text_ja if language.startswith("ja") and self.text_ja else self.text_en

    def in_language(self, language: str) -> str:
        """The note with its source, as a legality message shows it."""
        return f"{self.text(language)} ({self.source})"

    def as_dict(self) -> dict[str, str]:
        return {"en": self.text_en, "ja": self.text_ja, "source": self.source}


@dataclass(frozen=True)
class Option:
    """One way of building the product: ``value`` is what the deck stores (a fighter's name);
    ``label_ja`` its Japanese name."""

    value: str
    label_ja: str = ""

    def label(self, language: str) -> str:
        return self.label_ja if language.startswith("ja") and self.label_ja else self.value


@dataclass(frozen=True)
class Choice:
    """A choice the product's deck is built with; ``key`` names the deck extra holding it."""

    key: str
    options: tuple[Option, ...]

    def option(self, value: Any) -> Option | None:
        return next((o for o in self.options if o.value == value), None)

    @property
    def default(self) -> Option:
        return self.options[0]


@dataclass(frozen=True)
class OfficialProduct:
    code: str
    #: the character (hero) card the product is built around, if any
    hero: str = ""
    choices: tuple[Choice, ...] = ()
    notes: tuple[DataNote, ...] = ()
    #: the number of deck cards the source lists where it differs from the rules' size
    listed: int | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)


def official_product(game: str, code: str) -> OfficialProduct | None:
    """The official data of product ``code`` of ``game``, or None (no data, or no such game)."""
    if not registry.is_game(game):
        return None
    return registry.get(game).official_products.get(code)


def start_deck(game: str, code: str, entries: list[Any]) -> tuple[list[Any], dict[str, Any]]:
    """The entries and extras of a new deck started from product ``code``: the game's
    ``official.start_deck`` applies the product's default choices (Buffy's deck without
    Xander's cards); a game without one keeps the product's list as it is."""
    if not registry.is_game(game):
        return entries, {}
    return registry.get(game).start_deck(code, entries)
