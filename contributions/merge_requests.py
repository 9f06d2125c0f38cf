"""A merge as the editor asks for it, by the two cards' codes in one game, and the game's merges
with what each moved, counted: what the merge page and the merge API share.

The counts never say whose decks or collections moved (as a refused revert only counts them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _

from catalog.models import Card, Game, Printing, ProductItem
from collection.models import CollectionItem, WishlistItem
from contributions.errors import ProposalError
from contributions.merge import card_merge
from contributions.merge_revert import MERGE
from contributions.merge_rows import label_of
from contributions.models import CatalogChange, ObjectKind
from contributions.services import require_editor
from decks.models import DeckEntry

NO_SUCH_CARD = _("This game's catalog has no card with the code “%(code)s”.")

#: the merges a game's merge page lists, newest first
RECENT_MERGES = 50


def _catalog_card(game: Game, code: str, where: str) -> Card:
    card = Card.objects.filter(game=game, owner__isnull=True, code=code.strip()).first()
    if card is None:
        raise ProposalError.of(NO_SUCH_CARD, where, code=code.strip())
    return card


def card_merge_by_codes(
    *, game: Game, duplicate: str, into: str, editor: Any, reason: str
) -> CatalogChange:
    """Merge the card ``duplicate`` into the card ``into`` (codes of ``game``'s catalog); a
    code that names no card is refused at its field. Only an editor learns whether it does."""
    require_editor(editor)
    problems = []
    found: dict[str, Card] = {}
    for where, code in (("duplicate", duplicate), ("into", into)):
        try:
            found[where] = _catalog_card(game, code, where)
        except ProposalError as exc:
            problems += exc.problems
    if problems:
        raise ProposalError(problems)
    return card_merge(
        duplicate=found["duplicate"], into=found["into"], editor=editor, reason=reason
    )


@dataclass(frozen=True)
class MergeSummary:
    """One merge as the editors see it: the two cards, why, who, when, and what moved."""

    change: CatalogChange
    duplicate: str
    duplicate_name: str
    into: str
    reason: str
    decks: int
    collections: int
    deck_entries: int
    collection_items: int
    wishes: int
    product_lines: int
    printings: int

    @property
    def reverted(self) -> bool:
        return self.change.reverted_by_id is not None


def merge_summary(change: CatalogChange) -> MergeSummary:
    before = change.before or {}
    merge = before[MERGE]
    rows = merge["rows"]
    dup_id = merge["card"]["id"]
    # the rows are recorded with the kept card's rows they landed on: count the duplicate's
    printings = {
        r["pk"] for r in rows.get(label_of(Printing), []) if r["before"]["card_id"] == dup_id
    }

    def moved(model: type[Any], key: str = "card_id", of: Any = None) -> int:
        wanted = of if of is not None else {dup_id}
        return sum(1 for r in rows.get(label_of(model), []) if r["before"].get(key) in wanted)

    return MergeSummary(
        change=change,
        duplicate=change.object_code,
        duplicate_name=before.get("name_en") or before.get("name_ja") or "",
        into=merge["into"],
        reason=merge["reason"],
        decks=len(merge["decks"]),
        collections=len(merge["owners"]),
        deck_entries=moved(DeckEntry),
        collection_items=moved(CollectionItem),
        wishes=moved(WishlistItem),
        product_lines=moved(ProductItem, "printing_id", printings),
        printings=len(printings),
    )


def merges_of(*, game: Game, editor: Any, limit: int = RECENT_MERGES) -> list[MergeSummary]:
    """The game's latest merges, newest first (one query; editors only)."""
    require_editor(editor)
    changes = (
        CatalogChange.objects.filter(game=game, object_kind=ObjectKind.CARD, before__has_key=MERGE)
        .select_related("approved_by")
        .order_by("-at", "-id")[:limit]
    )
    return [merge_summary(change) for change in changes]
