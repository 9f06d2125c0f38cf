"""From a deck (or its revision) to what the engines play with: a ``SimDeck``.

The Django side of the simulator: it reads decks through the decks app and hands the pure
engine core plain data (catalog <- decks <- simulator).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from catalog.models import Printing
from decks.game_rules import deck_rules
from decks.legality.facts import CardFacts, DeckFacts, EntryFacts, PrintingFacts
from decks.models import Deck, DeckEntry
from simulator.engine.cards import SimCard, SimDeck, SimPrinting


def _attributes(entry: EntryFacts) -> dict[str, Any]:
    """The card's attributes overlaid with its printing's (pinned, else the first one): a
    game may keep a card's numbers on its printings, which differ from box to box."""
    printing = entry.printing or (entry.card.printings[0] if entry.card.printings else None)
    merged = dict(printing.attributes) if printing else {}
    merged.update(entry.card.attributes)
    return merged


def _printings(entry: EntryFacts) -> tuple[SimPrinting, ...]:
    """Every printing of the card as plain facts; what they mean is the engine's business."""
    return tuple(
        SimPrinting(p.set_code, p.number, p.variant, dict(p.attributes))
        for p in entry.card.printings
    )


def sim_card_for(entry: EntryFacts, index: int, *, language: str = "en") -> SimCard:
    """The card of ``entry`` as an engine plays it (its pinned printing's numbers, else its
    first printing's), at position ``index`` of the deck's cards."""
    return SimCard(
        index=index,
        code=entry.card.code,
        name=entry.card.name(language),
        card_type=entry.card.card_type,
        attributes=_attributes(entry),
        variant=entry.printing.variant if entry.printing else "",
        printings=_printings(entry),
    )


def sim_card_of(card: CardFacts) -> SimCard:
    """A card the deck does not hold, as an engine would play it (its first printing's
    numbers): what a tuning's move may add."""
    return sim_card_for(EntryFacts(card=card, zone="", quantity=1), 0)


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
            cards.append(sim_card_for(entry, len(cards), language=language))
        zones.setdefault(entry.zone, []).append((index_of[key], entry.quantity))
    return SimDeck(
        game=facts.game,
        cards=tuple(cards),
        zones={zone: tuple(lines) for zone, lines in zones.items()},
        draw_zone=draw_zone,
        extras=dict(facts.extras),
    )


def deck_facts_light(deck: Deck) -> DeckFacts:
    """The deck as test hands, odds and runs read it, in two light queries (values, no model
    objects: an odds answer has 20 ms, and the selector's model objects cost three times as
    much). It gives what ``decks.selectors.deck_facts`` gives (a test holds the two equal):
    entries in ``deck_entries``' order and every printing of each card (an unpinned card reads
    its first; an engine may read where a card was printed)."""
    rows = list(
        DeckEntry.objects.filter(deck=deck)
        .order_by("zone", "card__card_type", "card__name_en", "id")
        .values_list(
            "zone",
            "quantity",
            "card_id",
            "card__code",
            "card__card_type",
            "card__name_en",
            "card__name_ja",
            "card__attributes",
            "card__copy_limit",
            "printing__card_set__code",
            "printing__collector_number",
            "printing__variant",
            "printing__attributes",
        )
    )
    printings_of: dict[int, list[PrintingFacts]] = defaultdict(list)
    printings = (
        Printing.objects.filter(card_id__in={row[2] for row in rows})
        .order_by("pk")
        .values_list("card_id", "card_set__code", "collector_number", "variant", "attributes")
    )
    for card_id, set_code, number, variant, attributes in printings:
        printings_of[card_id].append(PrintingFacts(set_code, number, variant, attributes or {}))
    entries = []
    for zone, quantity, card_id, code, card_type, name_en, name_ja, attributes, limit, *pin in rows:
        card = CardFacts(
            code=code,
            game=deck.game.slug,
            card_type=card_type,
            name_en=name_en,
            name_ja=name_ja,
            attributes=attributes or {},
            copy_limit=limit,
            printings=tuple(printings_of[card_id]),
        )
        pinned = PrintingFacts(pin[0], pin[1], pin[2], pin[3] or {}) if pin[0] is not None else None
        entries.append(EntryFacts(card=card, zone=zone, quantity=quantity, printing=pinned))
    return DeckFacts(
        game=deck.game.slug, entries=tuple(entries), variant=deck.variant, extras=deck.extras
    )


def sim_deck_for(deck: Deck, *, language: str = "en") -> SimDeck:
    """The one loader of a saved deck for the simulator: test hands, odds and runs."""
    return sim_deck_from_facts(deck_facts_light(deck), language=language)
