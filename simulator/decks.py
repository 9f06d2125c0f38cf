"""From a deck (or its revision) to what the engines play with: a ``SimDeck``.

The Django side of the simulator: it reads decks through the decks app and hands the pure
engine core plain data (catalog <- decks <- simulator).
"""

from __future__ import annotations

from typing import Any

from decks.games import deck_rules
from decks.legality.facts import DeckFacts, EntryFacts
from decks.models import Deck
from decks.selectors import deck_facts
from simulator.engine.cards import SimCard, SimDeck


def _attributes(entry: EntryFacts) -> dict[str, Any]:
    """The card's attributes overlaid with its printing's (pinned, else the first one): an
    Unmatched card's boost and fighter live on the printing."""
    printing = entry.printing or (entry.card.printings[0] if entry.card.printings else None)
    merged = dict(printing.attributes) if printing else {}
    merged.update(entry.card.attributes)
    # where the card was printed (collector numbers; an Unmatched hero deck's id): a card
    # printed in the hero's own deck is that hero's, whatever its fighter is called there
    merged["printed_in"] = sorted({p.number for p in entry.card.printings if p.number})
    return merged


def sim_deck_from_facts(facts: DeckFacts, *, language: str = "en") -> SimDeck:
    rules = deck_rules(facts.game)
    draw_zone = rules.deck_zones[0].code if rules.deck_zones else rules.zones[0].code
    cards: list[SimCard] = []
    index_of: dict[tuple[str, str], int] = {}
    zones: dict[str, list[tuple[int, int]]] = {}
    for entry in facts.entries:
        variant = entry.printing.variant if entry.printing else ""
        key = (entry.card.code, variant)
        if key not in index_of:
            index_of[key] = len(cards)
            cards.append(
                SimCard(
                    index=len(cards),
                    code=entry.card.code,
                    name=entry.card.name(language),
                    card_type=entry.card.card_type,
                    attributes=_attributes(entry),
                    variant=variant,
                )
            )
        zones.setdefault(entry.zone, []).append((index_of[key], entry.quantity))
    return SimDeck(
        game=facts.game,
        cards=tuple(cards),
        zones={zone: tuple(lines) for zone, lines in zones.items()},
        draw_zone=draw_zone,
        extras=dict(facts.extras),
    )


def sim_deck_for(deck: Deck, *, language: str = "en") -> SimDeck:
    return sim_deck_from_facts(deck_facts(deck=deck), language=language)
