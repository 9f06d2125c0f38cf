"""The revert of a card merge: the duplicate comes back and exactly the rows the merge moved are
written back, unless one of them changed since (contributions.merge says what a merge records).
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from catalog.cache import catalog_version_bump
from catalog.importers.bundle import ImportProblem
from catalog.models import Card, Printing, ProductItem
from collection.models import CollectionChange, CollectionItem, Reservation, WishlistItem
from collection.services import _lock_collection
from contributions import errors
from contributions.errors import ProposalError
from contributions.legality import decks_refresh_legality
from contributions.merge_rows import changed_rows, label_of, restore_rows
from contributions.models import CatalogChange, ObjectKind
from contributions.payload import card_snapshot
from contributions.services import require_editor
from decks.models import Deck, DeckEntry

log = logging.getLogger(__name__)

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


def public_before(before: Any) -> Any:
    """A change's ``before`` as anyone may read it (a card's history, page and API): a merge's
    record of the rows it moved names other players' decks and collections (their notes and
    prices too), so it is left out; the revert reads it from the database."""
    if isinstance(before, dict) and MERGE in before:
        return {key: value for key, value in before.items() if key != MERGE}
    return before


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
