"""A merge against 20 collection adds released at once by a barrier, on PostgreSQL: the adds
and the merge take the player's collection lock one after another, so whichever runs first,
no copy is lost and the log replays to every quantity."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connections

from collection.models import CollectionItem
from contributions.merge import card_merge
from tests.contributions.merge_helpers import Pair, add, assert_replays, make_pair

pytestmark = pytest.mark.django_db(transaction=True)

ADDS = 20


def race(calls: list[Callable[[], Any]]) -> list[BaseException | None]:
    """Run the calls in threads released together; what each one raised."""
    start = threading.Barrier(len(calls))
    raised: list[BaseException | None] = [None] * len(calls)

    def run(index: int) -> None:
        try:
            start.wait()
            calls[index]()
        except BaseException as exc:  # reported by the test, not lost in the thread
            raised[index] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return raised


def test_a_merge_against_twenty_adds_at_once_loses_no_copy(
    game: Any, owner: Any, editor: Any
) -> None:
    pair: Pair = make_pair()
    add(owner, pair.dup_001, 3)
    add(owner, pair.keep_001, 2)
    add(owner, pair.dup_050, 1)
    # half onto the printing the duplicate's lands on, half onto the printing that is kept
    targets = [pair.keep_001, pair.dup_050] * (ADDS // 2)
    calls: list[Callable[[], Any]] = [lambda p=p: add(owner, p, 1) for p in targets]
    calls.append(
        lambda: card_merge(duplicate=pair.dup, into=pair.keep, editor=editor, reason="twice")
    )
    assert race(calls) == [None] * (ADDS + 1)
    held = {i.printing_id: i for i in CollectionItem.objects.filter(owner=owner)}
    assert set(held) == {pair.keep_001.pk, pair.dup_050.pk}
    assert held[pair.keep_001.pk].quantity == 3 + 2 + ADDS // 2
    assert held[pair.dup_050.pk].quantity == 1 + ADDS // 2
    assert {i.card_id for i in held.values()} == {pair.keep.pk}
    assert_replays(owner)
