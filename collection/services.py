"""Writes to a collection. Every change of a quantity appends a ``CollectionChange``.

Merge rules (identical items are one item: same printing, condition, finish, language and
binder): quantities and trade quantities add up; tags are the union, in first-seen order; the
note, price, currency and acquisition date already on the item stay, and fill in when empty.
Copies added to the collection leave the wishlist: a pinned wish for that printing first,
then the card's "any printing" wish.

Concurrency: every write that changes quantities or reservations takes the player's collection
lock, then its items in pk order, before it reads what it changes (``_lock_collection``;
docs/architecture.md, "Locking order").
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from decimal import Decimal
from typing import Any

from django.db import connection, transaction
from django.db.models import Sum
from django.utils import timezone

from catalog.models import Card, CardSet, Printing, Product, listed
from collection import errors
from collection.models import (
    MAX_QUANTITY,
    MAX_TAG_LENGTH,
    MAX_TAGS,
    MAX_WISH_QUANTITY,
    CollectionChange,
    CollectionItem,
    CollectionSettings,
    DeckBuild,
    ImportBatch,
    Reservation,
    WishlistItem,
)
from collection.vocab import NORMAL, Condition, default_language, finish_codes, languages_for
from decks.models import Deck

Action = CollectionChange.Action
Identity = tuple[int, str, str, str, str]


@dataclass(frozen=True)
class ItemSpec:
    """One kind of copy to add: the printing and how the copies are, and how many."""

    printing_id: int
    quantity: int
    condition: str = Condition.NEAR_MINT
    finish: str = NORMAL
    language: str = ""
    binder: str = ""
    trade_quantity: int = 0
    tags: tuple[str, ...] = ()
    acquired_on: date | None = None
    price: Decimal | None = None
    currency: str = ""
    note: str = ""

    @property
    def identity(self) -> Identity:
        return (self.printing_id, self.condition, self.finish, self.language, self.binder)


@dataclass
class AddOutcome:
    """What an add did to one item (the preview shows the same, computed without writing)."""

    spec: ItemSpec
    before: int
    after: int
    item_id: int | None = None
    merged: bool = field(default=False)


def _union(first: Iterable[str], second: Iterable[str]) -> list[str]:
    seen: dict[str, None] = {}
    for tag in (*first, *second):
        seen.setdefault(tag, None)
    return list(seen)


def spec_problems(spec: ItemSpec, *, game_slug: str) -> list[tuple[str, str]]:
    """Every problem of a spec as (field, message): bounds and the game's vocabularies."""
    problems: list[tuple[str, str]] = []
    if not 1 <= spec.quantity <= MAX_QUANTITY:
        problems.append(("quantity", errors.QUANTITY_BOUNDS % {"low": 1, "high": MAX_QUANTITY}))
    if not 0 <= spec.trade_quantity <= max(spec.quantity, 0):
        problems.append(("trade_quantity", str(errors.TRADE_ABOVE_QUANTITY)))
    if spec.condition not in Condition.values:
        problems.append(
            (
                "condition",
                errors.UNKNOWN_CONDITION
                % {"condition": spec.condition, "known": ", ".join(Condition.values)},
            )
        )
    finishes = finish_codes(game_slug)
    if spec.finish not in finishes:
        problems.append(
            (
                "finish",
                errors.UNKNOWN_FINISH
                % {"game": game_slug, "finish": spec.finish, "known": ", ".join(finishes)},
            )
        )
    languages = languages_for(game_slug)
    if spec.language not in languages:
        problems.append(
            (
                "language",
                errors.UNKNOWN_LANGUAGE
                % {"game": game_slug, "language": spec.language, "known": ", ".join(languages)},
            )
        )
    if len(spec.tags) > MAX_TAGS or any(len(t) > MAX_TAG_LENGTH for t in spec.tags):
        problems.append(
            ("tags", errors.TOO_MANY_TAGS % {"max": MAX_TAGS, "length": MAX_TAG_LENGTH})
        )
    if spec.currency and not (
        len(spec.currency) == 3
        and spec.currency.isascii()
        and spec.currency.isalpha()
        and spec.currency.isupper()
    ):
        problems.append(("currency", str(errors.CURRENCY_FORMAT)))
    if spec.price is not None and not (
        Decimal(0) <= spec.price < Decimal(100_000_000)
        and spec.price == spec.price.quantize(Decimal("0.01"))
    ):
        problems.append(("price", str(errors.PRICE_BOUNDS)))
    return problems


def merge_specs(specs: Iterable[ItemSpec]) -> list[ItemSpec]:
    """Identical specs as one, in first-seen order (duplicated rows of a file, say)."""
    merged: dict[Identity, ItemSpec] = {}
    for spec in specs:
        found = merged.get(spec.identity)
        merged[spec.identity] = spec if found is None else _merged(found, spec)
    return list(merged.values())


def _merged(base: ItemSpec, extra: ItemSpec) -> ItemSpec:
    return replace(
        base,
        quantity=base.quantity + extra.quantity,
        trade_quantity=base.trade_quantity + extra.trade_quantity,
        tags=tuple(_union(base.tags, extra.tags)),
        acquired_on=base.acquired_on or extra.acquired_on,
        price=base.price if base.price is not None else extra.price,
        currency=base.currency or extra.currency,
        note=base.note or extra.note,
    )


def _existing(
    owner: Any, specs: Sequence[ItemSpec], *, lock: bool = False
) -> dict[Identity, CollectionItem]:
    printing_ids = {s.printing_id for s in specs}
    items = CollectionItem.objects.filter(owner=owner, printing_id__in=printing_ids)
    if lock:
        items = items.select_for_update().order_by("pk")
    return {(i.printing_id, i.condition, i.finish, i.language, i.binder): i for i in items}


def _lock_collection(owner_id: int) -> None:
    """Take the player's collection lock (their ``CollectionSettings`` row, made on first use).

    Every write that changes quantities or reservations takes it first, then the items it
    changes (``select_for_update`` ordered by pk), then writes: one player's writes run one
    after another, so a read-then-write never loses a concurrent change, two adds of the same
    new item never both insert it, and a build never reserves copies a concurrent change
    takes away. An import batch's row, when there is one, is locked before this one."""
    settings = CollectionSettings.objects.select_for_update().filter(owner_id=owner_id)
    if settings.values_list("pk", flat=True).first() is None:
        # ON CONFLICT DO NOTHING: a concurrent first write may be making the same row
        CollectionSettings.objects.bulk_create(
            [CollectionSettings(owner_id=owner_id)], ignore_conflicts=True
        )
        settings.values_list("pk", flat=True).get()


def _locked_item(item: CollectionItem) -> CollectionItem:
    """The item read again under the collection lock; refused with 409 when it is gone."""
    _lock_collection(item.owner_id)
    found = (
        CollectionItem.objects.select_for_update(of=("self",))
        .select_related("printing__card__game", "owner")
        .filter(pk=item.pk)
        .first()
    )
    if found is None:
        raise errors.CollectionConflict("item", errors.ITEM_GONE)
    return found


def collection_plan(*, owner: Any, specs: Sequence[ItemSpec]) -> list[AddOutcome]:
    """What adding these specs would do, item by item, without writing (the preview)."""
    specs = merge_specs(specs)
    existing = _existing(owner, specs)
    outcomes = []
    for spec in specs:
        item = existing.get(spec.identity)
        before = item.quantity if item else 0
        outcomes.append(
            AddOutcome(
                spec=spec,
                before=before,
                after=before + spec.quantity,
                item_id=item.pk if item else None,
                merged=item is not None,
            )
        )
    return outcomes


def _log(
    owner_id: int,
    item: CollectionItem | None,
    identity: Identity,
    action: str,
    before: int,
    after: int,
    batch: ImportBatch | None = None,
) -> CollectionChange:
    printing_id, condition, finish, language, binder = identity
    return CollectionChange(
        owner_id=owner_id,
        item=item,
        printing_id=printing_id,
        condition=condition,
        finish=finish,
        language=language,
        binder=binder,
        action=action,
        quantity_before=before,
        quantity_after=after,
        batch=batch,
    )


def _identity(item: CollectionItem) -> Identity:
    return (item.printing_id, item.condition, item.finish, item.language, item.binder)


@transaction.atomic
def collection_add(
    *,
    owner: Any,
    specs: Sequence[ItemSpec],
    batch: ImportBatch | None = None,
    action: str = Action.ADD,
) -> list[AddOutcome]:
    """Add copies, merging into identical items; log each change; shrink the wishlist.

    The caller has checked the specs (``spec_problems``); a sum above the bound is refused
    here, as it depends on what the collection already holds."""
    specs = merge_specs(specs)
    _lock_collection(owner.pk)
    existing = _existing(owner, specs, lock=True)
    # each printing's card and set: new items carry them, the wishlist is shrunk by card
    placed = {
        pk: (card_id, set_id)
        for pk, card_id, set_id in Printing.objects.filter(
            pk__in={s.printing_id for s in specs}
        ).values_list("pk", "card_id", "card_set_id")
    }
    created: list[CollectionItem] = []
    updated: list[CollectionItem] = []
    outcomes: list[AddOutcome] = []
    for spec in specs:
        item = existing.get(spec.identity)
        if item is None:
            card_id, card_set_id = placed[spec.printing_id]
            item = CollectionItem(
                owner=owner,
                printing_id=spec.printing_id,
                card_id=card_id,
                card_set_id=card_set_id,
                quantity=spec.quantity,
                trade_quantity=spec.trade_quantity,
                condition=spec.condition,
                finish=spec.finish,
                language=spec.language,
                binder=spec.binder,
                tags=list(spec.tags),
                acquired_on=spec.acquired_on,
                price=spec.price,
                currency=spec.currency,
                note=spec.note,
            )
            created.append(item)
            outcomes.append(AddOutcome(spec=spec, before=0, after=spec.quantity))
            continue
        before = item.quantity
        if before + spec.quantity > MAX_QUANTITY:
            raise errors.CollectionError(
                "quantity", errors.QUANTITY_BOUNDS % {"low": 1, "high": MAX_QUANTITY}
            )
        item.quantity = before + spec.quantity
        item.trade_quantity = min(item.quantity, item.trade_quantity + spec.trade_quantity)
        item.tags = _union(item.tags, spec.tags)
        item.acquired_on = item.acquired_on or spec.acquired_on
        item.price = item.price if item.price is not None else spec.price
        item.currency = item.currency or spec.currency
        item.note = item.note or spec.note
        updated.append(item)
        outcomes.append(
            AddOutcome(spec=spec, before=before, after=item.quantity, item_id=item.pk, merged=True)
        )
    CollectionItem.objects.bulk_create(created, batch_size=2000)
    now = timezone.now()
    for item in updated:
        item.updated_at = now
    _save_merged(updated, now)
    by_identity = {_identity(i): i for i in (*created, *updated)}
    changes = []
    for outcome in outcomes:
        item = by_identity[outcome.spec.identity]
        outcome.item_id = item.pk
        changes.append(
            _log(
                owner.pk, item, outcome.spec.identity, action, outcome.before, outcome.after, batch
            )
        )
    CollectionChange.objects.bulk_create(changes, batch_size=2000)
    _wishlist_fulfil(owner, specs, {pk: card_id for pk, (card_id, _s) in placed.items()})
    return outcomes


MERGED_FIELDS = ["quantity", "trade_quantity", "tags", "acquired_on", "price", "currency", "note"]
MERGE_BATCH = 5000


def _save_merged(items: list[CollectionItem], now: Any) -> None:
    """Write the merged items. On PostgreSQL, one UPDATE … FROM unnest(…) per batch: Django's
    ``bulk_update`` builds a CASE per field and row, which took 72 s for 6,000 items."""
    if connection.vendor != "postgresql":
        CollectionItem.objects.bulk_update(items, [*MERGED_FIELDS, "updated_at"], batch_size=2000)
        return
    table = connection.ops.quote_name(CollectionItem._meta.db_table)
    sql = (
        f"UPDATE {table} AS i SET quantity = v.quantity, trade_quantity = v.trade_quantity, "
        "tags = v.tags::jsonb, acquired_on = v.acquired_on, price = v.price, "
        "currency = v.currency, note = v.note, updated_at = %s "
        "FROM unnest(%s::bigint[], %s::integer[], %s::integer[], %s::text[], %s::date[], "
        "%s::numeric[], %s::text[], %s::text[]) "
        "AS v(id, quantity, trade_quantity, tags, acquired_on, price, currency, note) "
        "WHERE i.id = v.id"
    )
    with connection.cursor() as cursor:
        for start in range(0, len(items), MERGE_BATCH):
            batch = items[start : start + MERGE_BATCH]
            cursor.execute(
                sql,
                [
                    now,
                    [i.pk for i in batch],
                    [i.quantity for i in batch],
                    [i.trade_quantity for i in batch],
                    [json.dumps(i.tags) for i in batch],
                    [i.acquired_on for i in batch],
                    [i.price for i in batch],
                    [i.currency for i in batch],
                    [i.note for i in batch],
                ],
            )


def _wishlist_fulfil(owner: Any, specs: Sequence[ItemSpec], card_of: dict[int, int]) -> None:
    added: dict[int, int] = defaultdict(int)
    for spec in specs:
        added[spec.printing_id] += spec.quantity
    wishes = list(WishlistItem.objects.filter(owner=owner, card_id__in=set(card_of.values())))
    if not wishes:
        return
    pinned = {w.printing_id: w for w in wishes if w.printing_id is not None}
    unpinned = {w.card_id: w for w in wishes if w.printing_id is None}
    for printing_id, count in added.items():
        for wish in (pinned.get(printing_id), unpinned.get(card_of[printing_id])):
            if wish is None or count == 0:
                continue
            taken = min(wish.quantity, count)
            wish.quantity -= taken
            count -= taken
    done = [w.pk for w in wishes if w.quantity == 0]
    WishlistItem.objects.filter(pk__in=done).delete()
    WishlistItem.objects.bulk_update([w for w in wishes if w.quantity > 0], ["quantity"])


def _reserved(item: CollectionItem) -> tuple[int, str]:
    """How many of the item's copies built decks hold, and the name of one of them."""
    rows = list(Reservation.objects.filter(item=item).values_list("quantity", "build__deck__name"))
    return sum(q for q, _n in rows), (rows[0][1] if rows else "")


@transaction.atomic
def collection_item_set_quantity(*, item: CollectionItem, quantity: int) -> CollectionItem | None:
    """Set how many copies the item has; 0 removes it. Reserved copies are never taken."""
    if not 0 <= quantity <= MAX_QUANTITY:
        raise errors.CollectionError(
            "quantity", errors.QUANTITY_BOUNDS % {"low": 0, "high": MAX_QUANTITY}
        )
    item = _locked_item(item)
    reserved, deck = _reserved(item)
    if quantity < reserved:
        raise errors.CollectionError(
            "quantity", errors.RESERVED_COPIES % {"count": reserved, "deck": deck}
        )
    before = item.quantity
    if quantity == before:
        return item
    identity = _identity(item)
    if quantity == 0:
        CollectionChange.objects.create(
            **_log_fields(item, identity, Action.REMOVE, before, 0, keep_item=False)
        )
        item.delete()
        return None
    item.quantity = quantity
    item.trade_quantity = min(item.trade_quantity, quantity)
    item.save(update_fields=["quantity", "trade_quantity", "updated_at"])
    CollectionChange.objects.create(**_log_fields(item, identity, Action.CHANGE, before, quantity))
    return item


def _log_fields(
    item: CollectionItem,
    identity: Identity,
    action: str,
    before: int,
    after: int,
    *,
    keep_item: bool = True,
    batch: ImportBatch | None = None,
) -> dict[str, Any]:
    change = _log(
        item.owner_id, item if keep_item else None, identity, action, before, after, batch
    )
    return {
        f.attname: getattr(change, f.attname)
        for f in CollectionChange._meta.concrete_fields
        if f.name not in ("id", "created_at")
    }


@transaction.atomic
def collection_item_update(*, item: CollectionItem, **fields: Any) -> CollectionItem:
    """Change what does not make the item another one: trade quantity, tags, price, note…"""
    allowed = {"trade_quantity", "tags", "acquired_on", "price", "currency", "note"}
    unknown = set(fields) - allowed
    if unknown:
        raise ValueError(f"not an item field that can change in place: {sorted(unknown)}")
    # the quantity read under the lock: a concurrent change may have lowered it
    item = _locked_item(item)
    if fields.get("trade_quantity", 0) > item.quantity:
        raise errors.CollectionError("trade_quantity", errors.TRADE_ABOVE_QUANTITY)
    for name, value in fields.items():
        setattr(item, name, list(value) if name == "tags" else value)
    item.save(update_fields=[*fields, "updated_at"])
    return item


@transaction.atomic
def collection_item_move(
    *,
    item: CollectionItem,
    quantity: int,
    binder: str | None = None,
    condition: str | None = None,
    finish: str | None = None,
    language: str | None = None,
) -> CollectionItem:
    """Move some copies to another place (binder) or re-grade them: they leave this item and
    merge into the item they now match. Reserved copies stay where they are."""
    item = _locked_item(item)
    reserved, deck = _reserved(item)
    if not 1 <= quantity <= item.quantity - reserved:
        if quantity <= item.quantity and reserved:
            raise errors.CollectionError(
                "quantity", errors.RESERVED_COPIES % {"count": reserved, "deck": deck}
            )
        raise errors.CollectionError(
            "quantity", errors.QUANTITY_BOUNDS % {"low": 1, "high": item.quantity - reserved}
        )
    target = ItemSpec(
        printing_id=item.printing_id,
        quantity=quantity,
        condition=condition if condition is not None else item.condition,
        finish=finish if finish is not None else item.finish,
        language=language if language is not None else item.language,
        binder=(binder if binder is not None else item.binder).strip(),
        tags=tuple(item.tags),
        acquired_on=item.acquired_on,
        price=item.price,
        currency=item.currency,
        note=item.note,
    )
    problems = spec_problems(target, game_slug=item.printing.card.game.slug)
    if problems:
        raise errors.CollectionError(*problems[0])
    if target.identity == _identity(item):
        return item
    before = item.quantity
    identity = _identity(item)
    if before == quantity:
        CollectionChange.objects.create(
            **_log_fields(item, identity, Action.MOVE_OUT, before, 0, keep_item=False)
        )
        item.delete()
    else:
        item.quantity = before - quantity
        item.trade_quantity = min(item.trade_quantity, item.quantity)
        item.save(update_fields=["quantity", "trade_quantity", "updated_at"])
        CollectionChange.objects.create(
            **_log_fields(item, identity, Action.MOVE_OUT, before, item.quantity)
        )
    outcome = collection_add(owner=item.owner, specs=[target], action=Action.MOVE_IN)[0]
    return CollectionItem.objects.get(pk=outcome.item_id or 0)


IN_PLACE_FIELDS = ("trade_quantity", "tags", "acquired_on", "price", "currency", "note")
MOVE_FIELDS = ("condition", "finish", "language", "binder")


@transaction.atomic
def collection_item_change(
    *, item: CollectionItem, changes: dict[str, Any]
) -> CollectionItem | None:
    """One change of an item (the API's PATCH): its quantity (0 removes it), fields that change
    in place, and a move of all its copies to another condition, finish, language or binder.

    Everything is checked against the item as it is under the lock before anything is written,
    and written in one transaction: a refused change changes nothing. None when removed."""
    locked = _locked_item(item)
    quantity = changes.get("quantity", locked.quantity)
    if not 0 <= quantity <= MAX_QUANTITY:
        raise errors.CollectionError(
            "quantity", errors.QUANTITY_BOUNDS % {"low": 0, "high": MAX_QUANTITY}
        )
    in_place = {k: changes[k] for k in IN_PLACE_FIELDS if k in changes}
    moves = {k: changes[k] for k in MOVE_FIELDS if k in changes}
    if quantity and in_place.get("trade_quantity", 0) > quantity:
        raise errors.CollectionError("trade_quantity", errors.TRADE_ABOVE_QUANTITY)
    if quantity and moves:
        target = ItemSpec(
            printing_id=locked.printing_id,
            quantity=quantity,
            condition=moves.get("condition", locked.condition),
            finish=moves.get("finish", locked.finish),
            language=moves.get("language", locked.language),
            binder=moves.get("binder", locked.binder).strip(),
        )
        problems = spec_problems(target, game_slug=locked.printing.card.game.slug)
        if problems:
            raise errors.CollectionError(*problems[0])
    found: CollectionItem | None = locked
    if "quantity" in changes:
        found = collection_item_set_quantity(item=locked, quantity=quantity)
    if found is None:
        return None
    if in_place:
        found = collection_item_update(item=found, **in_place)
    if moves:
        found = collection_item_move(item=found, quantity=found.quantity, **moves)
    return found


# --- imports ---------------------------------------------------------------------------------


@transaction.atomic
def collection_import_commit(*, batch: ImportBatch, specs: Sequence[ItemSpec]) -> ImportBatch:
    """Write a checked import as one batch (the caller parsed ``batch.content`` cleanly)."""
    locked = ImportBatch.objects.select_for_update().get(pk=batch.pk)
    if locked.status != ImportBatch.Status.PREVIEWED:
        raise errors.CollectionError("batch", errors.COMMIT_NOT_PREVIEWED)
    collection_add(owner=batch.owner, specs=specs, batch=batch, action=Action.IMPORT)
    batch.status = ImportBatch.Status.COMMITTED
    batch.committed_at = timezone.now()
    batch.row_count = len(merge_specs(specs))
    batch.copy_count = sum(s.quantity for s in specs)
    batch.save(update_fields=["status", "committed_at", "row_count", "copy_count"])
    return batch


@transaction.atomic
def collection_import_undo(*, batch: ImportBatch) -> ImportBatch:
    """Take away exactly what the import added, in one action, logging each change. Refused
    (nothing changed) when an item now has fewer copies than the import added to it."""
    locked = ImportBatch.objects.select_for_update().get(pk=batch.pk)
    if locked.status != ImportBatch.Status.COMMITTED:
        raise errors.CollectionError("batch", errors.UNDO_NOT_COMMITTED)
    _lock_collection(batch.owner_id)
    added: dict[int, int] = defaultdict(int)
    for item_id, before, after in batch.changes.values_list(
        "item_id", "quantity_before", "quantity_after"
    ):
        if item_id is not None:
            added[item_id] += after - before
    items = CollectionItem.objects.select_for_update(of=("self",)).filter(pk__in=added)
    items = items.select_related("printing__card").order_by("pk")
    by_id = {i.pk: i for i in items}
    reserved = dict(
        Reservation.objects.filter(item_id__in=added)
        .values("item_id")
        .annotate(total=Sum("quantity"))
        .values_list("item_id", "total")
    )
    for item_id, count in added.items():
        item = by_id.get(item_id)
        have = item.quantity - reserved.get(item_id, 0) if item else 0
        if have < count:
            name = str(item.printing) if item else "?"
            raise errors.CollectionError(
                "batch", errors.UNDO_CHANGED_SINCE % {"name": name, "have": have, "added": count}
            )
    changes: list[CollectionChange] = []
    gone: list[int] = []
    kept: list[CollectionItem] = []
    for item_id, count in added.items():
        item = by_id[item_id]
        before = item.quantity
        after = before - count
        changes.append(
            _log(
                batch.owner_id,
                item if after else None,
                _identity(item),
                Action.UNDO,
                before,
                after,
                batch,
            )
        )
        if after == 0:
            gone.append(item.pk)
        else:
            item.quantity = after
            item.trade_quantity = min(item.trade_quantity, after)
            kept.append(item)
    CollectionItem.objects.bulk_update(kept, ["quantity", "trade_quantity"], batch_size=2000)
    CollectionChange.objects.filter(item_id__in=gone).update(item=None)
    CollectionItem.objects.filter(pk__in=gone).delete()
    CollectionChange.objects.bulk_create(changes, batch_size=2000)
    batch.status = ImportBatch.Status.UNDONE
    batch.undone_at = timezone.now()
    batch.save(update_fields=["status", "undone_at"])
    return batch


# --- adding from the catalog pages -----------------------------------------------------------


def product_specs(*, product: Product, language: str = "") -> list[ItemSpec]:
    """A product's contents as specs (one action adds them all)."""
    language = language or default_language(product.game.slug)
    rows = product.items.values_list("printing_id", "quantity")
    specs = [ItemSpec(printing_id=p, quantity=q, language=language) for p, q in rows]
    if not specs:
        raise errors.CollectionError("product", errors.PRODUCT_EMPTY)
    return specs


def set_specs(*, card_set: CardSet, language: str = "") -> list[ItemSpec]:
    """One copy of each plain printing of a set."""
    language = language or default_language(card_set.game.slug)
    ids = card_set.printings.filter(listed("card__"), variant="").values_list("pk", flat=True)
    return [ItemSpec(printing_id=p, quantity=1, language=language) for p in ids]


# --- wishlist --------------------------------------------------------------------------------


@transaction.atomic
def wishlist_add(
    *, owner: Any, card: Card, printing: Printing | None = None, quantity: int = 1
) -> WishlistItem:
    """Wish for copies of a card (any printing) or of one printing; identical wishes merge."""
    if printing is not None and printing.card_id != card.pk:
        raise errors.CollectionError("printing", errors.PRINTING_OF_OTHER_CARD)
    wish, created = WishlistItem.objects.select_for_update().get_or_create(
        owner=owner, card=card, printing=printing, defaults={"quantity": quantity}
    )
    total = quantity if created else wish.quantity + quantity
    if not 1 <= total <= MAX_WISH_QUANTITY:
        raise errors.CollectionError("quantity", errors.WISH_BOUNDS % {"max": MAX_WISH_QUANTITY})
    if not created:
        wish.quantity = total
        wish.save(update_fields=["quantity"])
    return wish


def wishlist_set_quantity(*, wish: WishlistItem, quantity: int) -> WishlistItem | None:
    if not 0 <= quantity <= MAX_WISH_QUANTITY:
        raise errors.CollectionError("quantity", errors.WISH_BOUNDS % {"max": MAX_WISH_QUANTITY})
    if quantity == 0:
        wish.delete()
        return None
    wish.quantity = quantity
    wish.save(update_fields=["quantity"])
    return wish


@transaction.atomic
def wishlist_add_missing(*, owner: Any, deck: Deck) -> int:
    """Wish for what the deck lacks, ``max(0, needed − owned)`` per entry; the copies added."""
    from collection.report import deck_collection_report

    report = deck_collection_report(deck=deck, viewer=owner)
    added = 0
    for entry in report.entries.values():
        if entry.missing > 0:
            card = Card(pk=entry.card_id)
            printing = (
                Printing(pk=entry.printing_id, card_id=entry.card_id) if entry.printing_id else None
            )
            wishlist_add(owner=owner, card=card, printing=printing, quantity=entry.missing)
            added += entry.missing
    return added


# --- built decks -----------------------------------------------------------------------------


@transaction.atomic
def deck_mark_built(*, deck: Deck, user: Any) -> DeckBuild:
    """Reserve the deck's copies so no other built deck counts them; refused when the deck
    is not buildable from the copies not already reserved."""
    from collection.report import deck_allocation

    if deck.owner_id != user.pk:
        raise errors.CollectionError("deck", errors.NOT_YOUR_DECK)
    # one build at a time per player, so two builds never reserve the same copies, and no
    # quantity change or removal runs between reading the copies and reserving them
    _lock_collection(user.pk)
    if DeckBuild.objects.filter(deck=deck).exists():
        raise errors.CollectionError("deck", errors.ALREADY_BUILT)
    allocation = deck_allocation(deck=deck, viewer=user)
    if allocation.report.missing_total:
        raise errors.CollectionError(
            "deck", errors.NOT_BUILDABLE % {"count": allocation.report.missing_total}
        )
    build = DeckBuild.objects.create(deck=deck, owner=user)
    Reservation.objects.bulk_create(
        Reservation(build=build, item_id=item_id, quantity=count)
        for item_id, count in allocation.taken.items()
        if count
    )
    return build


@transaction.atomic
def deck_unmark_built(*, deck: Deck, user: Any) -> None:
    if deck.owner_id != user.pk:
        raise errors.CollectionError("deck", errors.NOT_YOUR_DECK)
    _lock_collection(user.pk)
    deleted, _rows = DeckBuild.objects.filter(deck=deck).delete()
    if not deleted:
        raise errors.CollectionError("deck", errors.NOT_BUILT)


def collection_settings_update(
    *, owner: Any, is_public: bool | None = None, shows_all_cards: bool | None = None
) -> CollectionSettings:
    """Who sees the collection: private, public with the trade list, or public with every
    card too (what is left out stays as it was)."""
    changes = {"is_public": is_public, "shows_all_cards": shows_all_cards}
    found, _created = CollectionSettings.objects.update_or_create(
        owner=owner, defaults={k: v for k, v in changes.items() if v is not None}
    )
    return found
