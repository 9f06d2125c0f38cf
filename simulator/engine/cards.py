"""What an engine plays with: a deck as plain frozen data (cards indexed by small integers)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class SimPrinting:
    """One printing of a card as plain facts: where it was printed (its set's code and its
    collector number) and its own attributes. An engine that cares where a card was printed
    reads these in its own preparation; the loader does not know what they mean to a game."""

    set_code: str
    number: str = ""
    variant: str = ""
    attributes: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SimCard:
    """One distinct card of the deck. ``index`` is its position in ``SimDeck.cards``, so hot
    loops handle integers and look facts up in tables the engine builds once."""

    index: int
    code: str
    name: str
    card_type: str
    #: the card's attributes overlaid with its (pinned or first) printing's
    attributes: Mapping[str, Any] = field(default_factory=dict)
    variant: str = ""
    #: every printing of the card in the catalog, in catalog order (empty for hand-made decks)
    printings: tuple[SimPrinting, ...] = ()


@dataclass(frozen=True)
class SimDeck:
    game: str
    cards: tuple[SimCard, ...]
    #: zone -> ((card index, quantity), ...)
    zones: Mapping[str, tuple[tuple[int, int], ...]]
    #: the zone that is shuffled and drawn from
    draw_zone: str
    extras: Mapping[str, Any] = field(default_factory=dict)
    #: the draw zone's unshuffled pile, when it is not the zone's lines in order: tuning puts
    #: a swapped-in card at the very place of the copy it replaces, so the deal (which deals
    #: positions of this pile) gives both decks the same shuffles (docs/tuning.md)
    draw_order: tuple[int, ...] | None = None

    def pile(self, zone: str | None = None) -> list[int]:
        """The zone's cards as a list of card indexes, one per copy, in a fixed order."""
        zone = zone or self.draw_zone
        if zone == self.draw_zone and self.draw_order is not None:
            return list(self.draw_order)
        return [i for i, n in self.zones.get(zone, ()) for _ in range(n)]

    def in_zone(self, zone: str) -> list[SimCard]:
        return [self.cards[i] for i, _n in self.zones.get(zone, ())]

    def copies(self, zone: str) -> int:
        """How many cards the zone holds, copies counted."""
        return sum(n for _i, n in self.zones.get(zone, ()))

    @property
    def size(self) -> int:
        return self.copies(self.draw_zone)
