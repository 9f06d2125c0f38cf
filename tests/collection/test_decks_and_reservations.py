"""A deck against the collection: shortfall arithmetic, built decks reserving copies."""

from __future__ import annotations

from typing import Any

import pytest

from collection import errors
from collection.models import CollectionItem, Reservation, WishlistItem
from collection.report import deck_collection_report
from collection.services import (
    collection_item_set_quantity,
    deck_mark_built,
    deck_unmark_built,
    wishlist_add_missing,
)
from tests.collection.conftest import Shelf, add, make_deck


def _figures(deck: Any, viewer: Any) -> list[tuple[int, int, int]]:
    report = deck_collection_report(deck=deck, viewer=viewer)
    return [(e.needed, e.owned, e.missing) for e in report.entries.values()]


@pytest.mark.parametrize(
    ("owned_base", "owned_reprint", "pinned", "expected"),
    [
        (0, 0, False, (3, 0, 3)),
        (1, 1, False, (3, 2, 1)),  # any printing counts
        (2, 2, False, (3, 3, 0)),  # never more than needed
        (1, 5, True, (3, 1, 2)),  # a pinned printing counts only itself
        (3, 0, True, (3, 3, 0)),
    ],
)
def test_shortfall_with_pinned_and_unpinned_entries(
    owner: Any,
    shelf: Shelf,
    owned_base: int,
    owned_reprint: int,
    pinned: bool,
    expected: tuple[int, int, int],
) -> None:
    if owned_base:
        add(owner, shelf.base_printings[0], owned_base)
    if owned_reprint:
        add(owner, shelf.reprint, owned_reprint)
    entry = (shelf.cards[0], 3, shelf.base_printings[0]) if pinned else (shelf.cards[0], 3)
    deck = make_deck(owner, shelf.game, [entry])
    assert _figures(deck, owner) == [expected]


def test_pinned_entries_take_their_printing_before_unpinned_ones(owner: Any, shelf: Shelf) -> None:
    # 1 base + 2 reprints; the deck wants 1 pinned base and 2 of any: all three fit
    add(owner, shelf.base_printings[0], 1)
    add(owner, shelf.reprint, 2)
    deck = make_deck(
        owner, shelf.game, [(shelf.cards[0], 2), (shelf.cards[0], 1, shelf.base_printings[0])]
    )
    assert _figures(deck, owner) == [(2, 2, 0), (1, 1, 0)]
    assert deck_collection_report(deck=deck, viewer=owner).buildable


def test_the_report_reads_someone_elses_collection_never(
    owner: Any, stranger: Any, shelf: Shelf
) -> None:
    add(owner, shelf.base_printings[0], 3)
    deck = make_deck(owner, shelf.game, [(shelf.cards[0], 3)])
    assert _figures(deck, stranger) == [(3, 0, 3)]


def test_two_built_decks_never_count_the_same_copies(owner: Any, shelf: Shelf) -> None:
    add(owner, shelf.base_printings[0], 3)
    first = make_deck(owner, shelf.game, [(shelf.cards[0], 2)], name="First")
    second = make_deck(owner, shelf.game, [(shelf.cards[0], 2)], name="Second")
    deck_mark_built(deck=first, user=owner)
    report = deck_collection_report(deck=second, viewer=owner)
    assert [(e.owned, e.missing) for e in report.entries.values()] == [(1, 1)]
    assert [(h.deck_name, h.quantity) for h in report.held_by] == [("First", 2)]
    with pytest.raises(errors.CollectionError) as refused:
        deck_mark_built(deck=second, user=owner)
    assert str(refused.value) == errors.NOT_BUILDABLE % {"count": 1}
    # the built deck still counts its own copies
    assert _figures(first, owner) == [(2, 2, 0)]


def test_three_built_decks_share_the_copies_and_unbuilding_frees_them(
    owner: Any, shelf: Shelf
) -> None:
    add(owner, shelf.base_printings[0], 2)
    add(owner, shelf.reprint, 2)
    decks = [make_deck(owner, shelf.game, [(shelf.cards[0], 2)], name=n) for n in ("A", "B", "C")]
    deck_mark_built(deck=decks[0], user=owner)
    deck_mark_built(deck=decks[1], user=owner)
    assert Reservation.objects.filter(build__deck__in=decks).count() == 2
    report = deck_collection_report(deck=decks[2], viewer=owner)
    assert report.missing_total == 2
    assert [(h.deck_name, h.quantity) for h in report.held_by] == [("A", 2), ("B", 2)]
    deck_unmark_built(deck=decks[0], user=owner)
    assert deck_collection_report(deck=decks[2], viewer=owner).buildable


def test_reserved_copies_cannot_be_removed(owner: Any, shelf: Shelf) -> None:
    add(owner, shelf.base_printings[0], 3)
    deck = make_deck(owner, shelf.game, [(shelf.cards[0], 2)], name="Built")
    deck_mark_built(deck=deck, user=owner)
    item = CollectionItem.objects.get(owner=owner)
    collection_item_set_quantity(item=item, quantity=2)  # the spare copy may go
    with pytest.raises(errors.CollectionError) as refused:
        collection_item_set_quantity(item=item, quantity=1)
    assert str(refused.value) == errors.RESERVED_COPIES % {"count": 2, "deck": "Built"}
    assert CollectionItem.objects.get(owner=owner).quantity == 2


def test_only_the_owner_marks_a_deck_built(owner: Any, stranger: Any, shelf: Shelf) -> None:
    deck = make_deck(owner, shelf.game, [(shelf.cards[0], 1)])
    with pytest.raises(errors.CollectionError):
        deck_mark_built(deck=deck, user=stranger)


def test_missing_cards_go_to_the_wishlist_as_the_shortfall(owner: Any, shelf: Shelf) -> None:
    add(owner, shelf.base_printings[0], 1)
    deck = make_deck(
        owner,
        shelf.game,
        [(shelf.cards[0], 3), (shelf.cards[1], 2, shelf.base_printings[1]), (shelf.cards[2], 1)],
    )
    add(owner, shelf.base_printings[2], 4)
    assert wishlist_add_missing(owner=owner, deck=deck) == 4
    wishes = set(
        WishlistItem.objects.filter(owner=owner).values_list("card_id", "printing_id", "quantity")
    )
    assert wishes == {
        (shelf.cards[0].pk, None, 2),
        (shelf.cards[1].pk, shelf.base_printings[1].pk, 2),
    }


def test_the_report_costs_three_queries_with_ten_built_decks(
    owner: Any, shelf: Shelf, django_assert_max_num_queries: Any
) -> None:
    add(owner, shelf.base_printings[0], 20)
    add(owner, shelf.base_printings[1], 20)
    for n in range(10):
        deck = make_deck(
            owner, shelf.game, [(shelf.cards[0], 1), (shelf.cards[1], 1)], name=f"D{n}"
        )
        deck_mark_built(deck=deck, user=owner)
    target = make_deck(owner, shelf.game, [(shelf.cards[0], 15), (shelf.cards[1], 2)])
    with django_assert_max_num_queries(3):
        report = deck_collection_report(deck=target, viewer=owner)
        figures = [(e.owned, e.missing, len(e.held_by)) for e in report.entries.values()]
    assert figures == [(10, 5, 10), (2, 0, 0)]
