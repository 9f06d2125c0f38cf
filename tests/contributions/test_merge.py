"""Merging a duplicate card: decks and collections of several players move to the surviving
card, quantities add up within their bounds, the collection's log still replays, the merge is
recorded, and its revert puts back exactly what moved."""

from __future__ import annotations

from typing import Any

import pytest

from catalog.cache import catalog_version
from catalog.models import Card, Printing, ProductItem
from collection.models import MAX_QUANTITY as MAX_COPIES
from collection.models import CollectionItem, Reservation, WishlistItem
from collection.services import collection_item_set_quantity, wishlist_add
from contributions import errors
from contributions.errors import NotAllowed, ProposalError
from contributions.merge import SAME_CARD, card_merge
from contributions.merge_collection import TOO_MANY_COPIES
from contributions.merge_revert import INTO_GONE, ROW_CHANGED, card_merge_revert
from contributions.models import CatalogChange
from contributions.services import change_revert
from decks.models import MAX_QUANTITY, Deck, DeckEntry
from decks.specs import EntrySpec
from tests.contributions.merge_helpers import (
    Pair,
    add,
    assert_replays,
    deck,
    make_pair,
    product_with,
    reserve,
    state,
)

pytestmark = pytest.mark.django_db

REASON = "Same card: I-901 was typed twice."


@pytest.fixture
def pair(game: Any) -> Pair:
    return make_pair()


def _merge(pair: Pair, editor: Any) -> CatalogChange:
    return card_merge(duplicate=pair.dup, into=pair.keep, editor=editor, reason=REASON)


def _entries(d: Deck) -> set[tuple[str, int | None, str, int]]:
    return {
        (e.card.code, e.printing_id, e.zone, e.quantity)
        for e in DeckEntry.objects.filter(deck=d).select_related("card")
    }


def test_every_deck_entry_moves_to_the_surviving_card_pinned_or_not(
    pair: Pair, owner: Any, stranger: Any, editor: Any
) -> None:
    mine = deck(
        owner,
        "Mine",
        [
            EntrySpec(pair.dup, "main", 2),
            EntrySpec(pair.keep, "main", 3),
            EntrySpec(pair.dup, "main", 1, pair.dup_001),
            EntrySpec(pair.dup, "main", 2, pair.dup_050),
        ],
    )
    theirs = deck(stranger, "Theirs", [EntrySpec(pair.dup, "main", 4, pair.dup_001)])
    versions = {d.pk: d.version for d in (mine, theirs)}
    _merge(pair, editor)
    assert _entries(mine) == {
        ("I-001", None, "main", 5),  # landed on the unpinned entry: added up
        ("I-001", pair.keep_001.pk, "main", 1),  # its printing's twin on the survivor
        ("I-001", pair.dup_050.pk, "main", 2),  # the printing itself, now the survivor's
    }
    assert _entries(theirs) == {("I-001", pair.keep_001.pk, "main", 4)}
    assert not Card.objects.filter(code="I-901").exists()
    # an editor open on a deck before the merge reloads instead of writing stale entries
    for d in (mine, theirs):
        d.refresh_from_db()
        assert d.version == versions[d.pk] + 1


def test_entries_landing_on_an_identical_one_add_up_to_the_bound_only(
    pair: Pair, owner: Any, editor: Any
) -> None:
    full = deck(owner, "Full", [EntrySpec(pair.dup, "main", 60), EntrySpec(pair.keep, "main", 60)])
    change = _merge(pair, editor)
    assert _entries(full) == {("I-001", None, "main", MAX_QUANTITY)}
    card_merge_revert(change=change, editor=editor)
    assert _entries(full) == {("I-901", None, "main", 60), ("I-001", None, "main", 60)}


def test_collection_items_follow_their_printing_and_merge_as_collections_do(
    pair: Pair, owner: Any, stranger: Any, editor: Any
) -> None:
    # the log of the two printings interleaves: it must still replay once told as one
    add(owner, pair.dup_001, 3, tags=("dup",), note="from a booster")
    add(owner, pair.keep_001, 2, tags=("keep",))
    add(owner, pair.dup_001, 1, trade_quantity=1)
    add(owner, pair.dup_001, 4, binder="Box")
    add(owner, pair.dup_050, 1)
    add(stranger, pair.dup_001, 2)
    _merge(pair, editor)
    items = {
        (i.owner.username, i.printing_id, i.binder): i
        for i in CollectionItem.objects.select_related("owner")
    }
    merged = items["owner", pair.keep_001.pk, ""]
    assert (merged.quantity, merged.trade_quantity) == (6, 1)
    assert merged.tags == ["keep", "dup"]
    assert merged.note == "from a booster"  # empty on the survivor: filled in
    assert items["owner", pair.keep_001.pk, "Box"].quantity == 4
    assert items["owner", pair.dup_050.pk, ""].card_id == pair.keep.pk
    assert items["stranger", pair.keep_001.pk, ""].quantity == 2
    assert len(items) == 4
    assert all(i.card_id == pair.keep.pk for i in items.values())
    assert_replays(owner)
    assert_replays(stranger)


def test_reserved_copies_stay_reserved_by_the_same_built_deck(
    pair: Pair, owner: Any, editor: Any
) -> None:
    built = deck(owner, "Built", [EntrySpec(pair.dup, "main", 2)])
    dup_item = add(owner, pair.dup_001, 3)
    keep_item = add(owner, pair.keep_001, 1)
    reserve(built, dup_item, 2)
    reserve(built, keep_item, 1)
    _merge(pair, editor)
    [reservation] = Reservation.objects.all()
    assert (reservation.item_id, reservation.quantity) == (keep_item.pk, 3)
    assert CollectionItem.objects.get(pk=keep_item.pk).quantity == 4


def test_a_sum_above_the_collection_bound_refuses_the_merge_and_writes_nothing(
    pair: Pair, owner: Any, editor: Any
) -> None:
    add(owner, pair.keep_001, MAX_COPIES)
    add(owner, pair.dup_001, 1)
    before = state()
    with pytest.raises(ProposalError) as refused:
        _merge(pair, editor)
    assert str(TOO_MANY_COPIES % {"max": MAX_COPIES}) in str(refused.value)
    assert state() == before
    assert not CatalogChange.objects.exists()


def test_wishes_and_product_lines_follow_their_card_and_printing(
    pair: Pair, owner: Any, stranger: Any, editor: Any
) -> None:
    wishlist_add(owner=owner, card=pair.dup, quantity=2)
    wishlist_add(owner=owner, card=pair.keep, quantity=998)
    wishlist_add(owner=stranger, card=pair.dup, printing=pair.dup_001, quantity=1)
    box = product_with(pair.dup_001, 3)
    _merge(pair, editor)
    wishes = {
        (w.owner.username, w.card_id, w.printing_id, w.quantity) for w in WishlistItem.objects.all()
    }
    assert wishes == {
        ("owner", pair.keep.pk, None, 999),  # added up to the wishlist's bound
        ("stranger", pair.keep.pk, pair.keep_001.pk, 1),
    }
    assert list(ProductItem.objects.filter(product=box).values_list("printing_id", "quantity")) == [
        (pair.keep_001.pk, 3)
    ]


def test_the_merge_is_one_recorded_change_and_moves_the_catalog_version(
    pair: Pair, editor: Any, django_capture_on_commit_callbacks: Any
) -> None:
    version = catalog_version()
    with django_capture_on_commit_callbacks(execute=True):
        change = _merge(pair, editor)
    assert catalog_version() > version
    assert (change.object_kind, change.object_code, change.after) == ("card", "I-901", None)
    assert change.before["name_en"] == "Potion!"
    assert change.before["merge"]["into"] == "I-001"
    assert (change.approved_by, change.source) == (editor, REASON)
    # the printing that went and the one that was kept are both in the record
    printings = change.before["merge"]["rows"]["catalog.printing"]
    assert {(r["pk"], r["after"] is None) for r in printings} == {
        (pair.dup_001.pk, True),
        (pair.dup_050.pk, False),
    }


def test_the_revert_restores_the_exact_state_of_every_row(
    pair: Pair, owner: Any, stranger: Any, editor: Any
) -> None:
    built = deck(owner, "Mine", [EntrySpec(pair.dup, "main", 2), EntrySpec(pair.keep, "main", 3)])
    deck(stranger, "Theirs", [EntrySpec(pair.dup, "main", 1, pair.dup_001)])
    dup_item = add(owner, pair.dup_001, 3, tags=("dup",))
    add(owner, pair.keep_001, 2)
    add(owner, pair.dup_001, 1)
    add(owner, pair.dup_050, 1)
    add(stranger, pair.dup_001, 2)
    reserve(built, dup_item, 2)
    wishlist_add(owner=owner, card=pair.dup, quantity=2)
    wishlist_add(owner=owner, card=pair.keep, quantity=1)
    product_with(pair.dup_001, 3)
    before = state()
    change = _merge(pair, editor)
    assert state() != before
    revert = card_merge_revert(change=change, editor=editor)
    assert state() == before
    assert_replays(owner)
    change.refresh_from_db()
    assert change.reverted_by == revert
    assert (revert.before, revert.after["code"], revert.reverts) == (None, "I-901", change)
    with pytest.raises(ProposalError, match=str(errors.ALREADY_REVERTED)):
        card_merge_revert(change=change, editor=editor)


def test_the_revert_is_refused_naming_each_row_changed_since(
    pair: Pair, owner: Any, editor: Any
) -> None:
    add(owner, pair.dup_001, 3)
    survivor = add(owner, pair.keep_001, 2)
    mine = deck(owner, "Mine", [EntrySpec(pair.dup, "main", 2)])
    change = _merge(pair, editor)
    collection_item_set_quantity(item=survivor, quantity=7)
    DeckEntry.objects.filter(deck=mine).update(quantity=3)
    before = state()
    with pytest.raises(ProposalError) as refused:
        card_merge_revert(change=change, editor=editor)
    places = {p.where: p.message for p in refused.value.problems}
    entry = DeckEntry.objects.get(deck=mine)
    assert places[f"collection item {survivor.pk}"] == str(ROW_CHANGED)
    assert places[f"deck entry {entry.pk}"] == str(ROW_CHANGED)
    assert "collection change" in places  # the log grew since: it would no longer replay
    assert state() == before


def test_reverting_the_merge_as_a_change_puts_the_rows_back_too(
    pair: Pair, owner: Any, editor: Any
) -> None:
    mine = deck(owner, "Mine", [EntrySpec(pair.dup, "main", 2)])
    change = _merge(pair, editor)
    change_revert(change=change, editor=editor)
    assert _entries(mine) == {("I-901", None, "main", 2)}


def test_the_revert_is_refused_when_the_surviving_card_is_gone(pair: Pair, editor: Any) -> None:
    change = _merge(pair, editor)
    Printing.objects.filter(card=pair.keep).delete()
    Card.objects.filter(pk=pair.keep.pk).delete()
    with pytest.raises(ProposalError) as refused:
        card_merge_revert(change=change, editor=editor)
    assert str(INTO_GONE % {"code": "I-001"}) in str(refused.value)
    assert not Card.objects.filter(code="I-901").exists()


def test_only_an_editor_merges_and_never_a_card_into_itself(
    pair: Pair, owner: Any, editor: Any
) -> None:
    with pytest.raises(NotAllowed):
        card_merge(duplicate=pair.dup, into=pair.keep, editor=owner, reason=REASON)
    with pytest.raises(ProposalError, match=str(SAME_CARD)):
        card_merge(duplicate=pair.keep, into=pair.keep, editor=editor, reason=REASON)
    with pytest.raises(ProposalError):
        card_merge(duplicate=pair.dup, into=pair.keep, editor=editor, reason="  ")
    assert Card.objects.filter(code="I-901").exists()


def test_a_deck_using_the_duplicate_gets_its_verdict_from_the_surviving_card(
    pair: Pair, owner: Any, editor: Any
) -> None:
    # a stored verdict the refresh must correct (the deck, far from 40 cards, is not legal)
    d = deck(owner, "Five", [EntrySpec(pair.dup, "main", 3), EntrySpec(pair.keep, "main", 2)])
    Deck.objects.filter(pk=d.pk).update(is_legal=True)
    _merge(pair, editor)
    d.refresh_from_db()
    assert not d.is_legal
