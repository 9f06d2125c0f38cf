"""Identical items merge, everything is logged, the wishlist shrinks as copies arrive."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal
from typing import Any

import pytest

from collection import errors
from collection.models import CollectionChange, CollectionItem, WishlistItem
from collection.services import (
    ItemSpec,
    collection_add,
    collection_item_move,
    collection_item_set_quantity,
    spec_problems,
    wishlist_add,
)
from tests.collection.conftest import Shelf, add


def test_identical_items_merge_into_one(owner: Any, shelf: Shelf) -> None:
    add(owner, shelf.base_printings[0], 2, tags=("a",))
    add(owner, shelf.base_printings[0], 3, tags=("b", "a"))
    item = CollectionItem.objects.get(owner=owner)
    assert (item.quantity, item.tags) == (5, ["a", "b"])


@pytest.mark.parametrize(
    "difference",
    [
        {"condition": "played"},
        {"finish": "foil"},
        {"language": "en"},
        {"binder": "Trade binder"},
    ],
)
def test_a_difference_in_identity_keeps_items_apart(
    owner: Any, shelf: Shelf, difference: dict[str, str]
) -> None:
    add(owner, shelf.base_printings[0], 1)
    add(owner, shelf.base_printings[0], 1, **difference)
    assert CollectionItem.objects.filter(owner=owner).count() == 2


def test_a_merge_keeps_the_first_price_and_fills_what_was_empty(owner: Any, shelf: Shelf) -> None:
    add(owner, shelf.base_printings[0], 1, price=Decimal("100"), currency="JPY")
    add(
        owner,
        shelf.base_printings[0],
        1,
        price=Decimal("300"),
        currency="USD",
        note="gift",
        acquired_on=date(2024, 5, 1),
    )
    item = CollectionItem.objects.get(owner=owner)
    assert (item.price, item.currency, item.note, item.acquired_on) == (
        Decimal("100.00"),
        "JPY",
        "gift",
        date(2024, 5, 1),
    )


def test_duplicates_within_one_add_become_one_item(owner: Any, shelf: Shelf) -> None:
    spec = ItemSpec(printing_id=shelf.base_printings[1].pk, quantity=2, language="ja")
    collection_add(owner=owner, specs=[spec, spec, spec])
    assert CollectionItem.objects.get(owner=owner).quantity == 6
    assert CollectionChange.objects.filter(owner=owner).count() == 1


def test_every_change_is_logged_and_a_removal_keeps_its_record(owner: Any, shelf: Shelf) -> None:
    add(owner, shelf.base_printings[0], 2)
    item = CollectionItem.objects.get(owner=owner)
    collection_item_set_quantity(item=item, quantity=5)
    collection_item_set_quantity(item=item, quantity=0)
    log = list(
        CollectionChange.objects.filter(owner=owner)
        .order_by("id")
        .values_list("action", "quantity_before", "quantity_after")
    )
    assert log == [("add", 0, 2), ("change", 2, 5), ("remove", 5, 0)]
    assert not CollectionItem.objects.filter(owner=owner).exists()


@pytest.mark.parametrize(
    ("field", "value", "bad"),
    [
        ("quantity", 0, True),
        ("quantity", 1, False),
        ("quantity", 9999, False),
        ("quantity", 10000, True),
        ("finish", "foil", False),
        ("finish", "parallel", True),  # 央華封神's finish, not Mattsan's
        ("language", "en", False),
        ("language", "fr", True),
        ("condition", "heavily_played", True),
        ("currency", "JPY", False),
        ("currency", "yen", True),
        ("price", Decimal("0.01"), False),
        ("price", Decimal("0.001"), True),
        ("price", Decimal("-1"), True),
    ],
)
def test_spec_bounds(shelf: Shelf, field: str, value: Any, bad: bool) -> None:
    spec = replace(ItemSpec(printing_id=1, quantity=1, language="ja"), **{field: value})
    fields = [f for f, _m in spec_problems(spec, game_slug="mattsan")]
    assert fields == ([field] if bad else [])


def test_trade_quantity_above_quantity_is_refused(shelf: Shelf) -> None:
    spec = ItemSpec(printing_id=1, quantity=2, trade_quantity=3, language="ja")
    assert spec_problems(spec, game_slug="mattsan") == [
        ("trade_quantity", str(errors.TRADE_ABOVE_QUANTITY))
    ]


def test_moving_copies_to_a_binder_merges_them_there(owner: Any, shelf: Shelf) -> None:
    add(owner, shelf.base_printings[0], 3)
    add(owner, shelf.base_printings[0], 1, binder="Red")
    item = CollectionItem.objects.get(owner=owner, binder="")
    collection_item_move(item=item, quantity=2, binder="Red")
    left = dict(CollectionItem.objects.filter(owner=owner).values_list("binder", "quantity"))
    assert left == {"": 1, "Red": 3}


def test_copies_added_leave_the_wishlist_pinned_wish_first(owner: Any, shelf: Shelf) -> None:
    card = shelf.cards[0]
    wishlist_add(owner=owner, card=card, printing=shelf.base_printings[0], quantity=1)
    wishlist_add(owner=owner, card=card, quantity=2)
    add(owner, shelf.base_printings[0], 2)
    left = list(WishlistItem.objects.filter(owner=owner).values_list("printing_id", "quantity"))
    assert left == [(None, 1)]


def test_wishes_merge_and_are_bounded(owner: Any, shelf: Shelf) -> None:
    wishlist_add(owner=owner, card=shelf.cards[0], quantity=998)
    wishlist_add(owner=owner, card=shelf.cards[0], quantity=1)
    with pytest.raises(errors.CollectionError) as refused:
        wishlist_add(owner=owner, card=shelf.cards[0], quantity=1)
    assert refused.value.field == "quantity"
    assert WishlistItem.objects.get(owner=owner).quantity == 999


def test_the_change_log_is_append_only(owner: Any, shelf: Shelf) -> None:
    add(owner, shelf.base_printings[0], 1)
    change = CollectionChange.objects.get(owner=owner)
    change.quantity_after = 7
    with pytest.raises(ValueError):
        change.save()
    assert CollectionChange.objects.get(owner=owner).quantity_after == 1
