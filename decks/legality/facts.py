"""What the checker knows of a deck: plain frozen data, built from the database or from an
unsaved list, so legality runs without queries (and in microseconds)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class PrintingFacts:
    set_code: str
    number: str = ""
    variant: str = ""
    attributes: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class CardFacts:
    code: str
    game: str
    card_type: str
    name_en: str = ""
    name_ja: str = ""
    attributes: Mapping[str, Any] = field(default_factory=dict)
    copy_limit: int | None = None
    #: every printing of the card (a game may ask whom or what the card was printed for)
    printings: tuple[PrintingFacts, ...] = ()
    #: taken out of the catalog (a reverted proposal), and why: the deck keeps the card
    withdrawn: bool = False
    withdrawn_note: str = ""
    withdrawn_note_ja: str = ""

    def name(self, language: str) -> str:
        if language.startswith("ja"):
            return self.name_ja or self.name_en or self.code
        return self.name_en or self.name_ja or self.code


@dataclass(frozen=True)
class EntryFacts:
    card: CardFacts
    zone: str
    quantity: int
    printing: PrintingFacts | None = None


@dataclass(frozen=True)
class DeckFacts:
    game: str
    entries: tuple[EntryFacts, ...]
    variant: str = ""
    extras: Mapping[str, Any] = field(default_factory=dict)

    def in_zone(self, zone: str) -> list[EntryFacts]:
        return [e for e in self.entries if e.zone == zone]

    def count(self, zone: str) -> int:
        return sum(e.quantity for e in self.entries if e.zone == zone)
