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
(contributions.merge_rows): ``card_merge_revert`` (contributions.merge_revert) refuses when
one of them changed since, and otherwise writes them all back.

Locks, in the collection's order (docs/architecture.md, "Locking order"): both cards (FOR NO
KEY UPDATE, which foreign key checks pass), the decks holding the duplicate, each affected
player's collection lock in pk order, then the rows. A collection write for a player who had
no copy of the duplicate when the merge began and adds one while it runs fails on the deleted
printing and is not written.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any

from django.db import transaction
from django.db.models import F, Max
from django.utils.translation import gettext_lazy as _

from catalog.cache import catalog_version_bump
from catalog.models import MAX_PRODUCT_QUANTITY, Card, Printing, ProductItem
from collection.models import MAX_WISH_QUANTITY, CollectionChange, CollectionItem, WishlistItem
from collection.services import _lock_collection
from contributions.errors import ProposalError
from contributions.legality import decks_refresh_legality
from contributions.merge_collection import CollectionMerge
from contributions.merge_revert import MERGE
from contributions.merge_rows import Touched, row_of
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
CARD_GONE = _("One of these cards no longer exists: reload the page.")


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


class _Merge(CollectionMerge):
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
