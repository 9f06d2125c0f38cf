"""Merging a duplicate card into the card it duplicates (an editor's action), and its revert.

Everything that points at the duplicate moves to the surviving card, in one transaction:
- a printing of the duplicate goes to the surviving card's printing with the same set, number
  and variant when there is one (the duplicate's is then deleted with it), else it is kept and
  becomes the surviving card's;
- deck entries, wishes and product lines follow their card and printing; one landing on an
  identical row adds its quantity to it, bounded as the row's own quantity is;
- collection items follow their printing; one landing on an identical item merges with it as
  collection merges do (collection.services: quantities add up, refused above the bound; tags
  are the union; notes, prices and dates already there stay); its reservations go with it;
- the collection's log names the surviving printing: the rows of the duplicate's printing and
  of the one it lands on are told again as one stream (each row's change kept, its before and
  after counted from the stream's start), so the log still replays to every quantity.
The merge is one ``CatalogChange`` (object kind card, ``after`` null) whose ``before`` is the
duplicate's snapshot plus, under ``"merge"``, every touched row before and after
(contributions.merge_rows): ``card_merge_revert`` refuses when one of them changed since, and
otherwise writes them all back.

Locks, in the collection's order (docs/architecture.md, "Locking order"): both cards (FOR NO
KEY UPDATE, which foreign key checks pass), the decks holding the duplicate, each affected
player's collection lock in pk order, then the rows. A collection write for a player who had
no copy of the duplicate when the merge began and adds one while it runs fails on the deleted
printing and is not written.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

from django.db import transaction
from django.db.models import F, Max
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from catalog.cache import catalog_version_bump
from catalog.importers.bundle import ImportProblem
from catalog.models import MAX_PRODUCT_QUANTITY, Card, Printing, ProductItem
from collection.models import MAX_QUANTITY as MAX_COPIES
from collection.models import (
    MAX_WISH_QUANTITY,
    CollectionChange,
    CollectionItem,
    Reservation,
    WishlistItem,
)
from collection.services import _lock_collection
from contributions import errors
from contributions.errors import ProposalError
from contributions.legality import decks_refresh_legality
from contributions.merge_rows import Touched, changed_rows, label_of, restore_rows, row_of
from contributions.models import CatalogChange, ObjectKind
from contributions.payload import card_snapshot
from contributions.services import require_editor
from decklab import safe_input
from decks.models import MAX_QUANTITY, Deck, DeckEntry

log = logging.getLogger(__name__)

SAME_CARD = _("A card cannot be merged into itself.")
OTHER_GAME = _("Both cards must be of the same game.")
PLAYERS_CARD = _("A player's own card cannot be merged.")
REASON_REQUIRED = _("Say why these cards are the same card.")
TOO_MANY_COPIES = _(
    "A collection would hold more than %(max)d copies of one item once merged: "
    "the merge is refused."
)
CARD_GONE = _("One of these cards no longer exists: reload the page.")
NOT_A_MERGE = _("This change is not a merge of cards.")
INTO_GONE = _("The card “%(code)s” the duplicate went into no longer exists.")
CODE_BACK = _("A card with the code “%(code)s” exists again: the duplicate cannot come back.")
ROW_CHANGED = _("changed after the merge")
LOG_GROWN = ngettext_lazy(
    "%(count)d collection change was made after the merge",
    "%(count)d collection changes were made after the merge",
    "count",
)

#: the rows a merge moves, in the order a revert writes them back (each after what it names)
RESTORE_ORDER = tuple(
    label_of(m)
    for m in (
        Printing,
        ProductItem,
        DeckEntry,
        CollectionItem,
        Reservation,
        CollectionChange,
        WishlistItem,
    )
)
ROW_NAMES = {
    label_of(Printing): _("printing"),
    label_of(ProductItem): _("product line"),
    label_of(DeckEntry): _("deck entry"),
    label_of(CollectionItem): _("collection item"),
    label_of(Reservation): _("reservation"),
    label_of(CollectionChange): _("collection change"),
    label_of(WishlistItem): _("wish"),
}
MERGE = "merge"


def _locked_cards(*cards: Card) -> dict[int, Card]:
    """The cards read again under a lock that serialises merges of them but lets the foreign
    key checks of concurrent deck, wishlist and collection writes through (a FOR UPDATE here
    deadlocked a collection add holding its player's lock while the merge waited for it)."""
    pks = sorted(c.pk for c in cards)
    locked = Card.objects.select_for_update(no_key=True).filter(pk__in=pks).order_by("pk")
    found = {c.pk: c for c in locked}
    if len(found) != len(pks):
        raise ProposalError.of(CARD_GONE)
    return found


def _lock_owners(find: Any) -> set[int]:
    """Take the collection lock of every owner ``find()`` names, in pk order, until no new one
    appears (a player who adds a first copy meanwhile is locked after those before)."""
    locked: set[int] = set()
    while new := sorted(set(find()) - locked):
        for owner_id in new:
            _lock_collection(owner_id)
            locked.add(owner_id)
    return locked


def card_merge(*, duplicate: Card, into: Card, editor: Any, reason: str) -> CatalogChange:
    """Move everything from ``duplicate`` to ``into`` and delete ``duplicate``; recorded."""
    require_editor(editor)
    reason = safe_input.check_text(reason).strip()
    if not reason:
        raise ProposalError.of(REASON_REQUIRED, "reason")
    if duplicate.pk == into.pk:
        raise ProposalError.of(SAME_CARD)
    with transaction.atomic():
        cards = _locked_cards(duplicate, into)
        dup, keep = cards[duplicate.pk], cards[into.pk]
        if dup.game_id != keep.game_id:
            raise ProposalError.of(OTHER_GAME)
        if dup.owner_id is not None or keep.owner_id is not None:
            raise ProposalError.of(PLAYERS_CARD)
        work = _Merge(dup, keep)
        work.run()
        change = CatalogChange.objects.create(
            game_id=dup.game_id,
            object_kind=ObjectKind.CARD,
            object_code=dup.code,
            before={**work.snapshot, MERGE: work.record(reason)},
            after=None,
            proposed_by=editor,
            approved_by=editor,
            source=reason,
        )
        transaction.on_commit(catalog_version_bump)
        decks_refresh_legality(game=keep.game, card_codes=[keep.code])
    log.info("card %s merged into %s by user %s", dup.code, keep.code, editor.pk)
    return change


class _Merge:
    def __init__(self, dup: Card, keep: Card) -> None:
        self.dup, self.keep = dup, keep
        self.snapshot = card_snapshot(dup)
        self.card_row = row_of(dup)
        self.touched = Touched()
        self.decks: list[int] = []
        self.owners: set[int] = set()
        self.log_high = 0

    def record(self, reason: str) -> dict[str, Any]:
        return {
            "into": self.keep.code,
            "reason": reason,
            "card": self.card_row,
            "decks": self.decks,
            "owners": sorted(self.owners),
            "log_high": self.log_high,
            "rows": self.touched.record(),
        }

    def run(self) -> None:
        dup, keep = self.dup, self.keep
        # not locked here: their update and delete at the end wait for the collection writes
        # still committing; a lock now would make those wait for the merge while it waits for
        # their players' collection locks
        own = list(Printing.objects.filter(card=dup).order_by("pk"))
        theirs = {
            (p.card_set_id, p.collector_number, p.variant): p.pk
            for p in Printing.objects.filter(card=keep)
        }
        #: the duplicate's printing -> the surviving card's printing it lands on
        self.matched = {
            p.pk: theirs[key]
            for p in own
            if (key := (p.card_set_id, p.collector_number, p.variant)) in theirs
        }
        self.own_ids = [p.pk for p in own]
        self.decks = list(
            Deck.objects.select_for_update()
            .filter(pk__in=DeckEntry.objects.filter(card=dup).values("deck_id"))
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        self.owners = _lock_owners(self._owners)
        self.log_high = CollectionChange.objects.aggregate(high=Max("pk"))["high"] or 0
        self._entries()
        self._collection()
        self._wishes()
        self._product_lines()
        for printing in own:
            if printing.pk in self.matched:
                self.touched.gone(printing)  # deleted with its card below
            else:
                self.touched.note(printing)
        Printing.objects.filter(card=dup).exclude(pk__in=self.matched).update(card=keep)
        Card.objects.filter(pk=dup.pk).delete()
        Deck.objects.filter(pk__in=self.decks).update(version=F("version") + 1)

    def _owners(self) -> set[int]:
        found = set(
            CollectionItem.objects.filter(printing_id__in=self.own_ids).values_list(
                "owner_id", flat=True
            )
        )
        found |= set(
            CollectionChange.objects.filter(printing_id__in=self.matched).values_list(
                "owner_id", flat=True
            )
        )
        found |= set(WishlistItem.objects.filter(card=self.dup).values_list("owner_id", flat=True))
        return found

    def _landing(self, printing_id: int | None) -> int | None:
        return self.matched.get(printing_id, printing_id) if printing_id else None

    # --- decks, wishes, products: rows that add up, bounded -----------------------------------

    def _entries(self) -> None:
        self._fold(
            DeckEntry,
            DeckEntry.objects.filter(card=self.dup).order_by("pk"),
            DeckEntry.objects.filter(card=self.keep, deck_id__in=self.decks),
            lambda entry, printing_id: (entry.deck_id, entry.zone, printing_id),
            MAX_QUANTITY,
        )

    def _wishes(self) -> None:
        self._fold(
            WishlistItem,
            WishlistItem.objects.select_for_update().filter(card=self.dup).order_by("pk"),
            WishlistItem.objects.select_for_update().filter(card=self.keep),
            lambda wish, printing_id: (wish.owner_id, printing_id),
            MAX_WISH_QUANTITY,
        )

    def _fold(
        self,
        model: type[Any],
        rows: Iterable[Any],
        kept: Iterable[Any],
        place: Callable[[Any, int | None], tuple[Any, ...]],
        bound: int,
    ) -> None:
        """Move the duplicate's ``rows`` (deck entries, wishes) to the kept card: a row landing
        where the kept card already has one (same ``place``) adds its quantity to it, within
        ``bound``, and goes; the others change card and printing."""
        twins = {place(twin, twin.printing_id): twin for twin in kept}
        gone, grown, moved = [], [], []
        for row in rows:
            self.touched.note(row)
            printing_id = self._landing(row.printing_id)
            twin = twins.get(place(row, printing_id))
            if twin is None:
                row.card_id, row.printing_id = self.keep.pk, printing_id
                moved.append(row)
                continue
            self.touched.note(twin)
            twin.quantity = min(bound, twin.quantity + row.quantity)
            grown.append(twin)
            self.touched.gone(row)
            gone.append(row.pk)
        model.objects.filter(pk__in=gone).delete()
        model.objects.bulk_update(grown, ["quantity"])
        model.objects.bulk_update(moved, ["card", "printing"])

    def _product_lines(self) -> None:
        """Lines of the printings that go (a kept printing's lines need not move)."""
        lines = list(
            ProductItem.objects.select_for_update()
            .filter(printing_id__in=self.matched)
            .order_by("pk")
        )
        twins = {
            (line.product_id, line.printing_id, line.zone): line
            for line in ProductItem.objects.select_for_update().filter(
                printing_id__in=self.matched.values(),
                product_id__in={line.product_id for line in lines},
            )
        }
        gone, grown, moved = [], [], []
        for line in lines:
            self.touched.note(line)
            printing_id = self.matched[line.printing_id]
            twin = twins.get((line.product_id, printing_id, line.zone))
            if twin is None:
                line.printing_id = printing_id
                moved.append(line)
                continue
            self.touched.note(twin)
            twin.quantity = min(MAX_PRODUCT_QUANTITY, twin.quantity + line.quantity)
            grown.append(twin)
            self.touched.gone(line)
            gone.append(line.pk)
        ProductItem.objects.filter(pk__in=gone).delete()
        ProductItem.objects.bulk_update(grown, ["quantity"])
        ProductItem.objects.bulk_update(moved, ["printing"])

    # --- collections ---------------------------------------------------------------------------

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
        #: a merged item's id -> the item it went into
        self.merged_into: dict[int, CollectionItem] = {}
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


# --- revert ----------------------------------------------------------------------------------


def is_merge(change: CatalogChange) -> bool:
    return (
        change.object_kind == ObjectKind.CARD
        and change.after is None
        and isinstance(change.before, dict)
        and MERGE in change.before
    )


def card_merge_revert(*, change: CatalogChange, editor: Any) -> CatalogChange:
    """Bring the duplicate back and move back exactly the rows the merge moved; refused,
    naming each row, when one of them changed since. Recorded as a change."""
    require_editor(editor)
    with transaction.atomic():
        locked = (
            CatalogChange.objects.select_for_update(of=("self",))
            .select_related("game")
            .get(pk=change.pk)
        )
        if not is_merge(locked):
            raise ProposalError.of(NOT_A_MERGE)
        if locked.reverted_by_id is not None:
            raise ProposalError.of(errors.ALREADY_REVERTED)
        assert locked.before is not None
        merge = locked.before[MERGE]
        keep = (
            Card.objects.select_for_update(no_key=True)
            .filter(game=locked.game, code=merge["into"])
            .first()
        )
        if keep is None:
            raise ProposalError.of(INTO_GONE, code=merge["into"])
        if Card.objects.filter(game=locked.game, code=locked.object_code).exists():
            raise ProposalError.of(CODE_BACK, code=locked.object_code)
        list(Deck.objects.select_for_update().filter(pk__in=merge["decks"]).order_by("pk"))
        for owner_id in merge["owners"]:
            _lock_collection(owner_id)
        _refuse_changed(merge)
        Card.objects.bulk_create([Card(**merge["card"])])
        rows = merge["rows"]
        for label in RESTORE_ORDER:
            restore_rows(label, rows.get(label, []))
        Deck.objects.filter(pk__in=merge["decks"]).update(version=F("version") + 1)
        back = Card.objects.get(pk=merge["card"]["id"])
        revert = CatalogChange.objects.create(
            game=locked.game,
            object_kind=ObjectKind.CARD,
            object_code=locked.object_code,
            before=None,
            after=card_snapshot(back),
            proposed_by=editor,
            approved_by=editor,
            source=locked.source,
            reverts=locked,
        )
        locked.reverted_by = revert
        locked.save(update_fields=["reverted_by"])
        transaction.on_commit(catalog_version_bump)
        decks_refresh_legality(game=locked.game, card_codes=[keep.code, back.code])
    change.refresh_from_db()
    log.info("merge %s reverted by user %s", locked.pk, editor.pk)
    return revert


def _refuse_changed(merge: dict[str, Any]) -> None:
    rows = merge["rows"]
    problems = [
        ImportProblem(f"{ROW_NAMES.get(label, label)} {pk}", str(ROW_CHANGED))
        for label, pk in changed_rows(rows)
    ]
    # a log row written since would no longer follow the restored ones
    printings = {
        r["after"]["printing_id"]
        for r in rows.get(label_of(CollectionChange), [])
        if r["after"] is not None
    }
    printings |= {r["pk"] for r in rows.get(label_of(Printing), []) if r["after"] is not None}
    later = CollectionChange.objects.filter(
        owner_id__in=merge["owners"], printing_id__in=printings, pk__gt=merge["log_high"]
    ).count()
    if later:
        problems.append(
            ImportProblem(str(ROW_NAMES[label_of(CollectionChange)]), LOG_GROWN % {"count": later})
        )
    if problems:
        raise ProposalError(problems)
