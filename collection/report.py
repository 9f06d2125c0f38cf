"""A deck against a player's collection: owned, missing, buildable, who holds the rest.

Any printing of a card counts for an entry that pins none; a pinned printing counts only
itself. Copies reserved by the player's other built decks are not available, and the report
names the deck that holds them. Three queries: the entries, the player's copies of those
cards, and the reservations of those copies.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Exists, OuterRef, QuerySet, Sum
from django.utils.translation import get_language

from catalog.models import Printing
from collection.models import CollectionItem, DeckBuild, Reservation
from decks.models import Deck, DeckEntry


@dataclass(frozen=True)
class HeldBy:
    """A built deck holding copies an entry could have used."""

    deck_name: str
    public_id: str
    quantity: int


@dataclass(frozen=True)
class EntryReport:
    entry_id: int
    card_id: int
    printing_id: int | None
    zone: str
    needed: int
    owned: int
    held_by: tuple[HeldBy, ...] = ()
    card_code: str = ""
    name_en: str = ""
    name_ja: str = ""
    #: the pinned printing as "SET #number", or ""
    pinned: str = ""

    @property
    def name(self) -> str:
        if (get_language() or "en").startswith("ja"):
            return self.name_ja or self.name_en
        return self.name_en or self.name_ja

    @property
    def missing(self) -> int:
        return max(0, self.needed - self.owned)


@dataclass(frozen=True)
class DeckReport:
    entries: dict[int, EntryReport]
    is_built: bool

    @property
    def needed_total(self) -> int:
        return sum(e.needed for e in self.entries.values())

    @property
    def owned_total(self) -> int:
        return sum(e.owned for e in self.entries.values())

    @property
    def missing_total(self) -> int:
        return sum(e.missing for e in self.entries.values())

    @property
    def buildable(self) -> bool:
        return bool(self.entries) and self.missing_total == 0

    @property
    def held_by(self) -> list[HeldBy]:
        """Every built deck holding copies this deck lacks, with how many."""
        totals: dict[tuple[str, str], int] = defaultdict(int)
        for entry in self.entries.values():
            for held in entry.held_by:
                totals[(held.deck_name, held.public_id)] += held.quantity
        return [HeldBy(n, p, q) for (n, p), q in sorted(totals.items())]


@dataclass
class Allocation:
    report: DeckReport
    #: copies of each item this deck takes (what marking it built reserves)
    taken: dict[int, int] = field(default_factory=dict)


@dataclass
class _Item:
    pk: int
    printing_id: int
    card_id: int
    free: int
    held: list[tuple[str, str, int]]


def deck_allocation(*, deck: Deck, viewer: Any, per_item: bool = True) -> Allocation:
    """Which copies the deck would use. ``per_item``: item by item (what marking it built
    reserves); otherwise copies are summed by printing in SQL, which gives the same owned and
    missing figures from far fewer rows (the report)."""
    rows = list(
        DeckEntry.objects.filter(deck=deck)
        .annotate(built=Exists(DeckBuild.objects.filter(deck_id=OuterRef("deck_id"))))
        .order_by("zone", "id")
        .values_list(
            "id",
            "card_id",
            "printing_id",
            "zone",
            "quantity",
            "built",
            "card__code",
            "card__name_en",
            "card__name_ja",
            "printing__card_set__code",
            "printing__collector_number",
        )
    )
    if not rows:
        built = DeckBuild.objects.filter(deck=deck).exists()
        return Allocation(report=DeckReport(entries={}, is_built=built))
    card_ids = {r[1] for r in rows}
    items: dict[int, _Item] = {}
    by_card: dict[int, list[_Item]] = defaultdict(list)
    if viewer is not None and viewer.is_authenticated:
        # by printing ids (a subquery): the (owner, printing) index finds the rows
        copies = CollectionItem.objects.filter(
            owner=viewer,
            printing_id__in=Printing.objects.filter(card_id__in=card_ids).values("pk"),
        )
        held_rows: QuerySet[Any, Any] = Reservation.objects.filter(
            item__owner=viewer, item__printing__card_id__in=card_ids
        ).exclude(build__deck=deck)  # this deck's own copies count for it
        if per_item:
            found = copies.order_by("id").values_list(
                "id", "printing_id", "printing__card_id", "quantity"
            )
        else:
            found = (
                copies.order_by("printing_id")
                .values("printing_id")
                .annotate(total=Sum("quantity"))
                .values_list("printing_id", "printing_id", "printing__card_id", "total")
            )
            held_rows = held_rows.values("item__printing_id", "build__deck_id").annotate(
                total=Sum("quantity")
            )
        for pk, printing_id, card_id, quantity in found:
            item = _Item(pk, printing_id, card_id, quantity, [])
            items[pk] = item
            by_card[card_id].append(item)
        held_key = "item_id" if per_item else "item__printing_id"
        for pool, quantity, name, public_id in held_rows.values_list(
            held_key,
            "quantity" if per_item else "total",
            "build__deck__name",
            "build__deck__public_id",
        ):
            if pool not in items:
                continue
            items[pool].free -= quantity
            items[pool].held.append((name, public_id, quantity))
    taken: dict[int, int] = defaultdict(int)
    reports: dict[int, EntryReport] = {}
    # pinned entries first: they can use only their printing; the rest take any copies left
    for row in sorted(rows, key=lambda r: r[2] is None):
        entry_id, card_id, printing_id, zone, needed = row[:5]
        usable = [
            i
            for i in by_card.get(card_id, [])
            if printing_id is None or i.printing_id == printing_id
        ]
        owned = 0
        for item in usable:
            take = min(needed - owned, item.free - taken[item.pk])
            if take > 0:
                taken[item.pk] += take
                owned += take
        held: tuple[HeldBy, ...] = ()
        if owned < needed:
            totals: dict[tuple[str, str], int] = defaultdict(int)
            for item in usable:
                for name, public_id, quantity in item.held:
                    totals[(name, public_id)] += quantity
            held = tuple(HeldBy(n, p, q) for (n, p), q in sorted(totals.items()))
        reports[entry_id] = EntryReport(
            entry_id=entry_id,
            card_id=card_id,
            printing_id=printing_id,
            zone=zone,
            needed=needed,
            owned=owned,
            held_by=held,
            card_code=row[6],
            name_en=row[7],
            name_ja=row[8],
            pinned=f"{row[9]} #{row[10]}" if printing_id else "",
        )
    ordered = {r[0]: reports[r[0]] for r in rows}
    return Allocation(report=DeckReport(entries=ordered, is_built=rows[0][5]), taken=dict(taken))


def deck_collection_report(*, deck: Deck, viewer: Any) -> DeckReport:
    """The viewer's collection against the deck (in three queries)."""
    return deck_allocation(deck=deck, viewer=viewer, per_item=False).report
