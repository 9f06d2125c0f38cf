"""A deck against a player's collection: owned, missing, buildable, who holds the rest.

Any printing of a card counts for an entry that pins none; a pinned printing counts only
itself. Copies reserved by the player's other built decks are not available, and the report
names the deck that holds them. Two queries: the entries, then the player's copies of those
cards and the reservations other decks hold of them, together (a UNION ALL).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import CharField, Exists, F, OuterRef, QuerySet, Sum, Value
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
    #: the pinned printing's set, number and variant, or ""
    set_code: str = ""
    collector_number: str = ""
    variant: str = ""

    @property
    def name(self) -> str:
        if (get_language() or "en").startswith("ja"):
            return self.name_ja or self.name_en
        return self.name_en or self.name_ja

    @property
    def missing(self) -> int:
        return max(0, self.needed - self.owned)

    @property
    def printing_label(self) -> str:
        """The pinned printing as ``str(Printing)`` spells it ("Name (SET) number [variant]"),
        from the report's own row: reading the printing would cost a query per entry."""
        if not self.printing_id:
            return ""
        parts = [self.name, f"({self.set_code})"]
        parts += [self.collector_number] if self.collector_number else []
        parts += [f"[{self.variant}]"] if self.variant else []
        return " ".join(parts)


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
            "printing__variant",
        )
    )
    # whether a deck is built says what its owner's collection holds: only the owner learns it
    owns_deck = viewer is not None and viewer.is_authenticated and viewer.pk == deck.owner_id
    if not rows:
        built = owns_deck and DeckBuild.objects.filter(deck=deck).exists()
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
        held_rows = Reservation.objects.filter(
            item__owner=viewer, item__printing__card_id__in=card_ids
        ).exclude(build__deck=deck)  # this deck's own copies count for it
        # one statement for both: the copies (kind 0) and the copies other built decks hold
        # (kind 1), as a UNION ALL of the same seven columns
        blank = Value("", output_field=CharField())
        columns = ("kind", "pool", "of_printing", "of_card", "total", "holder_name", "holder_id")
        found: QuerySet[Any, Any]
        held_copies: QuerySet[Any, Any]
        if per_item:
            found = copies.order_by().annotate(
                kind=Value(0), pool=F("id"), of_card=F("printing__card_id"), total=F("quantity")
            )
            held_copies = held_rows.order_by().annotate(
                kind=Value(1), pool=F("item_id"), total=F("quantity")
            )
        else:
            found = (
                copies.order_by()
                .values("printing_id")
                .annotate(kind=Value(0), pool=F("printing_id"), total=Sum("quantity"))
                .annotate(of_card=F("printing__card_id"))
            )
            held_copies = (
                held_rows.order_by()
                .values("item__printing_id", "build__deck_id")
                .annotate(kind=Value(1), pool=F("item__printing_id"), total=Sum("quantity"))
            )
        found = found.annotate(holder_name=blank, holder_id=blank, of_printing=F("printing_id"))
        held_copies = held_copies.annotate(
            of_printing=F("item__printing_id"),
            of_card=F("item__printing__card_id"),
            holder_name=F("build__deck__name"),
            holder_id=F("build__deck__public_id"),
        )
        both = list(found.values_list(*columns).union(held_copies.values_list(*columns), all=True))
        # items in id order (per item: the order copies are taken in), then what is held
        for _kind, pk, printing_id, card_id, quantity, _name, _holder in sorted(
            (r for r in both if r[0] == 0), key=lambda r: r[1]
        ):
            item = _Item(pk, printing_id, card_id, quantity, [])
            items[pk] = item
            by_card[card_id].append(item)
        for _kind, pool, _printing, _card, quantity, name, public_id in (
            r for r in both if r[0] == 1
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
            set_code=row[9] or "",
            collector_number=row[10] or "",
            variant=row[11] or "",
        )
    ordered = {r[0]: reports[r[0]] for r in rows}
    report = DeckReport(entries=ordered, is_built=owns_deck and rows[0][5])
    return Allocation(report=report, taken=dict(taken))


def deck_collection_report(*, deck: Deck, viewer: Any) -> DeckReport:
    """The viewer's collection against the deck (in two queries)."""
    return deck_allocation(deck=deck, viewer=viewer, per_item=False).report
