"""The collection side of a card merge: items follow their printing and merge with an identical
item as collection merges do, their reservations go with them, and the log is told again under
the surviving printing (contributions.merge runs it; its docstring says the whole merge).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.utils.translation import gettext_lazy as _

from catalog.models import Card
from collection.models import MAX_QUANTITY as MAX_COPIES
from collection.models import CollectionChange, CollectionItem, Reservation
from contributions.errors import ProposalError
from contributions.merge_rows import Touched

TOO_MANY_COPIES = _(
    "A collection would hold more than %(max)d copies of one item once merged: "
    "the merge is refused."
)


class CollectionMerge:
    """The collection steps of a merge, mixed into it: what they read of the merge's state."""

    keep: Card
    touched: Touched
    owners: set[int]
    own_ids: list[int]
    #: the duplicate's printing -> the surviving card's printing it lands on
    matched: dict[int, int]
    #: a merged item's id -> the item it went into
    merged_into: dict[int, CollectionItem]

    def _collection(self) -> None:
        items = list(
            CollectionItem.objects.select_for_update(of=("self",))
            .filter(
                owner_id__in=self.owners,
                printing_id__in=[*self.own_ids, *self.matched.values()],
            )
            .order_by("pk")
        )
        twins = {_identity(i): i for i in items if i.printing_id not in self.own_ids}
        self.merged_into = {}
        grown: dict[int, CollectionItem] = {}
        moved: list[CollectionItem] = []
        for item in items:
            if item.printing_id not in self.own_ids:
                continue
            self.touched.note(item)
            printing_id = self.matched.get(item.printing_id, item.printing_id)
            twin = twins.get((item.owner_id, printing_id, *_identity(item)[2:]))
            if twin is None:
                item.printing_id, item.card_id = printing_id, self.keep.pk
                moved.append(item)
                continue
            self.touched.note(twin)
            _add_into(twin, item)
            grown[twin.pk] = twin
            self.merged_into[item.pk] = twin
            self.touched.gone(item)
        self._reservations()
        self._log()
        CollectionItem.objects.filter(pk__in=self.merged_into).delete()
        CollectionItem.objects.bulk_update(
            list(grown.values()),
            ["quantity", "trade_quantity", "tags", "acquired_on", "price", "currency", "note"],
        )
        CollectionItem.objects.bulk_update(moved, ["printing", "card"])

    def _reservations(self) -> None:
        """A merged item's reservations go to the item it went into (one per built deck)."""
        if not self.merged_into:
            return
        targets = {twin.pk for twin in self.merged_into.values()}
        rows = list(
            Reservation.objects.filter(item_id__in=[*self.merged_into, *targets]).order_by("pk")
        )
        twins = {(r.build_id, r.item_id): r for r in rows if r.item_id in targets}
        gone, grown, moved = [], [], []
        for row in rows:
            if row.item_id not in self.merged_into:
                continue
            self.touched.note(row)
            target = self.merged_into[row.item_id].pk
            twin = twins.get((row.build_id, target))
            if twin is None:
                row.item_id = target
                moved.append(row)
                continue
            self.touched.note(twin)
            twin.quantity += row.quantity
            grown.append(twin)
            self.touched.gone(row)
            gone.append(row.pk)
        Reservation.objects.filter(pk__in=gone).delete()
        Reservation.objects.bulk_update(grown, ["quantity"])
        Reservation.objects.bulk_update(moved, ["item"])

    def _log(self) -> None:
        """The log of a printing that goes is told again under the printing it lands on,
        merged in order with that printing's own log of the same kind of copy: every row keeps
        its change, its before and after are counted from the merged stream's start."""
        if not self.matched:
            return
        rows = CollectionChange.objects.filter(
            owner_id__in=self.owners,
            printing_id__in=[*self.matched, *self.matched.values()],
        ).order_by("pk")
        streams: dict[tuple[Any, ...], list[CollectionChange]] = defaultdict(list)
        for row in rows:
            printing_id = self.matched.get(row.printing_id, row.printing_id)
            key = (row.owner_id, printing_id, row.condition, row.finish, row.language, row.binder)
            streams[key].append(row)
        changed: list[CollectionChange] = []
        for (_owner, printing_id, *_rest), stream in streams.items():
            if all(row.printing_id == printing_id for row in stream):
                continue  # nothing of the duplicate's in it: left as it is
            count = 0
            for row in stream:
                item = self.merged_into.get(row.item_id or 0)
                before, after = count, count + row.quantity_after - row.quantity_before
                count = after
                item_id = item.pk if item else row.item_id
                told = (printing_id, item_id, before, after)
                if told == (row.printing_id, row.item_id, row.quantity_before, row.quantity_after):
                    continue
                self.touched.note(row)
                row.printing_id, row.item_id = printing_id, item_id
                row.quantity_before, row.quantity_after = before, after
                changed.append(row)
        CollectionChange.objects.bulk_update(
            changed, ["printing", "item", "quantity_before", "quantity_after"]
        )


def _identity(item: CollectionItem) -> tuple[Any, ...]:
    return (
        item.owner_id,
        item.printing_id,
        item.condition,
        item.finish,
        item.language,
        item.binder,
    )


def _add_into(twin: CollectionItem, item: CollectionItem) -> None:
    """``item``'s copies merged into ``twin`` by the collection's merge rules."""
    total = twin.quantity + item.quantity
    if total > MAX_COPIES:
        raise ProposalError.of(TOO_MANY_COPIES, max=MAX_COPIES)
    twin.quantity = total
    twin.trade_quantity = min(total, twin.trade_quantity + item.trade_quantity)
    twin.tags = list(dict.fromkeys([*twin.tags, *item.tags]))
    twin.acquired_on = twin.acquired_on or item.acquired_on
    twin.price = twin.price if twin.price is not None else item.price
    twin.currency = twin.currency or item.currency
    twin.note = twin.note or item.note
