"""A small catalog for collection tests: one Mattsan set of three cards, a second set
reprinting the first card, and helpers to make decks and items in one line."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from catalog.models import Card, CardSet, Game, Printing
from collection.services import ItemSpec, collection_add
from decks.game_rules import deck_rules
from decks.models import Deck
from decks.services import deck_create
from decks.specs import EntrySpec
from tests.catalog.factories import CardFactory, CardSetFactory, GameFactory, PrintingFactory


@dataclass
class Shelf:
    game: Game
    base: CardSet
    reprints: CardSet
    cards: list[Card]
    #: card i's printing in the base set
    base_printings: list[Printing]
    #: card 0 reprinted in the second set
    reprint: Printing


@pytest.fixture
def shelf(db: None) -> Shelf:
    game = GameFactory(slug="mattsan")
    base = CardSetFactory(
        game=game, code="MT1", name_en="First Strike", name_ja="先制の一撃", official_size=5
    )
    reprints = CardSetFactory(game=game, code="MT2", name_en="Second Wind", name_ja="再起")
    names = [("Flame Fox", "炎の狐"), ("Stone, Wall", "石の壁"), ("Tide Caller", "潮呼び")]
    cards = [
        CardFactory(game=game, code=f"MTC-{i + 1:03d}", name_en=en, name_ja=ja)
        for i, (en, ja) in enumerate(names)
    ]
    printings = [
        PrintingFactory(card=card, card_set=base, collector_number=f"{i + 1:03d}")
        for i, card in enumerate(cards)
    ]
    reprint = PrintingFactory(card=cards[0], card_set=reprints, collector_number="050")
    return Shelf(game, base, reprints, cards, printings, reprint)


def add(owner: Any, printing: Printing, quantity: int, **fields: Any) -> None:
    fields.setdefault("language", "ja")
    collection_add(
        owner=owner, specs=[ItemSpec(printing_id=printing.pk, quantity=quantity, **fields)]
    )


def make_deck(
    owner: Any,
    game: Game,
    entries: list[tuple[Card, int] | tuple[Card, int, Printing]],
    name: str = "Deck",
) -> Deck:
    """A deck made as a player's is, by ``deck_create``: every entry in the game's own deck
    zone (Mattsan has one, ``main``), checked and recorded as a revision by the service."""
    zone = deck_rules(game.slug).deck_zones[0].code
    specs = [
        EntrySpec(entry[0], zone, entry[1], entry[2] if len(entry) == 3 else None)  # type: ignore[misc]
        for entry in entries
    ]
    return deck_create(owner=owner, game=game, name=name, entries=specs)
