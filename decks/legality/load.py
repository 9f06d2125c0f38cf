"""Build DeckFacts from the database in a fixed number of queries."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from catalog.models import Card, Printing, ProductItem
from decks.legality.facts import CardFacts, DeckFacts, EntryFacts, PrintingFacts


def printing_facts(printing: Printing) -> PrintingFacts:
    return PrintingFacts(
        set_code=printing.card_set.code,
        number=printing.collector_number,
        variant=printing.variant,
        attributes=printing.attributes,
    )


def card_facts_for(cards: Iterable[Card]) -> dict[int, CardFacts]:
    """CardFacts (with every printing) for these cards: one query for all printings."""
    cards = list({c.pk: c for c in cards}.values())
    printings: dict[int, list[PrintingFacts]] = defaultdict(list)
    for printing in (
        Printing.objects.filter(card__in=cards).select_related("card_set").order_by("pk")
    ):
        printings[printing.card_id].append(printing_facts(printing))
    return {
        card.pk: CardFacts(
            code=card.code,
            game=card.game.slug,
            card_type=card.card_type,
            name_en=card.name_en,
            name_ja=card.name_ja,
            attributes=card.attributes,
            copy_limit=card.copy_limit,
            printings=tuple(printings[card.pk]),
            withdrawn=card.withdrawn_at is not None,
            withdrawn_note=card.withdrawn_note,
            withdrawn_note_ja=card.withdrawn_note_ja,
        )
        for card in cards
    }


def product_facts(product_items: Iterable[ProductItem], game: str) -> DeckFacts:
    """A product's contents as a deck (zones of products and decks share codes)."""
    items = list(product_items)
    cards = card_facts_for(item.printing.card for item in items)
    return DeckFacts(
        game=game,
        entries=tuple(
            EntryFacts(
                card=cards[item.printing.card_id],
                zone=item.zone,
                quantity=item.quantity,
                printing=printing_facts(item.printing),
            )
            for item in items
        ),
    )
