"""A duplicate card and everything players hang on it, for the merge tests.

``Potion`` (I-001) is the surviving card, printed t1/001; its duplicate ``Potion!`` (I-901) is
printed t1/001 too (the printing it lands on) and t1/050 (a printing the survivor lacks, kept
and moved to it)."""

from __future__ import annotations

import copy
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from catalog.importers.decklab_json import bundle_from_decklab
from catalog.importers.service import import_bundles
from catalog.models import Card, Printing, Product, ProductItem
from collection.models import (
    CollectionChange,
    CollectionItem,
    DeckBuild,
    Reservation,
    WishlistItem,
)
from collection.services import ItemSpec, collection_add
from decks.models import Deck, DeckEntry
from decks.services import deck_create
from decks.specs import EntrySpec
from tests.contributions.conftest import BASE


def _item(code: str, name: str, numbers: list[str]) -> dict[str, Any]:
    return {
        "code": code,
        "type": "item",
        "name_en": name,
        "attributes": {"item_icons": ["meat"]},
        "printings": [{"set": "t1", "number": n} for n in numbers],
    }


@dataclass
class Pair:
    keep: Card
    dup: Card
    keep_001: Printing  # where the duplicate's t1/001 lands
    dup_001: Printing
    dup_050: Printing  # the survivor has no t1/050: this one is kept


def make_pair() -> Pair:
    data = copy.deepcopy(BASE)
    data["cards"] += [_item("I-001", "Potion", ["001"]), _item("I-901", "Potion!", ["001", "050"])]
    import_bundles([bundle_from_decklab(data, "pair")])
    keep, dup = Card.objects.get(code="I-001"), Card.objects.get(code="I-901")
    return Pair(
        keep=keep,
        dup=dup,
        keep_001=Printing.objects.get(card=keep, collector_number="001"),
        dup_001=Printing.objects.get(card=dup, collector_number="001"),
        dup_050=Printing.objects.get(card=dup, collector_number="050"),
    )


def deck(owner: Any, name: str, entries: list[EntrySpec]) -> Deck:
    game = entries[0].card.game
    return deck_create(owner=owner, game=game, name=name, entries=entries, default_printings=False)


def add(owner: Any, printing: Printing, quantity: int, **how: Any) -> CollectionItem:
    spec = ItemSpec(printing_id=printing.pk, quantity=quantity, language="ja", **how)
    [outcome] = collection_add(owner=owner, specs=[spec])
    return CollectionItem.objects.get(pk=outcome.item_id)


def reserve(deck_: Deck, item: CollectionItem, quantity: int) -> Reservation:
    build, _made = DeckBuild.objects.get_or_create(deck=deck_, owner=deck_.owner)
    return Reservation.objects.create(build=build, item=item, quantity=quantity)


def product_with(printing: Printing, quantity: int) -> Product:
    product = Product.objects.create(
        game=printing.card.game, code=f"box-{printing.pk}", kind="starter", name_en="Box"
    )
    ProductItem.objects.create(product=product, printing=printing, quantity=quantity)
    return product


MODELS = (Card, Printing, ProductItem, DeckEntry, CollectionItem, CollectionChange)
MODELS += (Reservation, WishlistItem)


def state() -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the tables a merge touches, as plain values, in id order."""
    return {
        model.__name__: [tuple(row) for row in model.objects.order_by("pk").values_list(flat=False)]
        for model in MODELS
    }


def assert_replays(owner: Any) -> None:
    """The collection's log replays to every quantity (tests/collection/test_concurrency.py)."""
    last: dict[tuple[Any, ...], int] = defaultdict(int)
    for change in CollectionChange.objects.filter(owner=owner).order_by("pk"):
        identity = (
            change.printing_id,
            change.condition,
            change.finish,
            change.language,
            change.binder,
        )
        assert change.quantity_before == last[identity], change
        last[identity] = change.quantity_after
    held = {
        (i.printing_id, i.condition, i.finish, i.language, i.binder): i.quantity
        for i in CollectionItem.objects.filter(owner=owner)
    }
    assert {k: v for k, v in last.items() if v} == held
