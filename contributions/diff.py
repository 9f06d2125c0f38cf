"""A proposal seen against the current catalog: each row it names, field by field (before →
after), new rows marked and unchanged fields left out; and the catalog's cards whose names are
close to a new card's (near duplicates an editor should look at before approving).

The "after" side is the payload as the importer reads it, written as the history's snapshots
(contributions.payload), so the diff compares the same shapes the history records.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field
from typing import Any

from catalog.importers.bundle import CatalogBundle
from catalog.models import Card, Game
from catalog.search import name_key
from contributions.payload import (
    Snapshot,
    bundle_keys,
    bundle_to_data,
    printing_code,
    printing_snapshot,
    snapshots,
)

#: how alike two name keys must be (difflib's ratio) to call the cards near duplicates
NEAR_RATIO = 0.85
#: fields that name the row rather than describe it (shown as the row's code, never diffed)
KEY_FIELDS = {"code", "card", "set", "number", "variant"}
KINDS = ("set", "card", "printing", "product")


def shown(value: Any) -> str:
    """A value as an editor reads it: text as is, anything else as JSON (a list of icons, a
    number, true/false), so the page shows the payload's format rather than Python's."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


@dataclass(frozen=True)
class FieldChange:
    name: str
    before: Any
    after: Any

    @property
    def before_text(self) -> str:
        return shown(self.before)

    @property
    def after_text(self) -> str:
        return shown(self.after)


@dataclass(frozen=True)
class RowDiff:
    kind: str
    code: str
    is_new: bool
    changes: list[FieldChange] = field(default_factory=list)

    @property
    def is_unchanged(self) -> bool:
        return not self.is_new and not self.changes


@dataclass(frozen=True)
class NearDuplicate:
    proposed_code: str
    proposed_name: str
    code: str
    name: str
    ratio: float


def _flat(snapshot: Snapshot) -> dict[str, Any]:
    """A snapshot's fields, its attributes one by one ("attributes.attack"), so a change of one
    attribute reads as that attribute, not as the whole dict."""
    flat: dict[str, Any] = {}
    for name, value in snapshot.items():
        if name in KEY_FIELDS:
            continue
        if name == "attributes" and isinstance(value, dict):
            for key, inner in value.items():
                flat[f"attributes.{key}"] = inner
        else:
            flat[name] = value
    return flat


def _empty(value: Any) -> bool:
    """No value to show: a new row's "demo: no" or blank name is noise, not a fact."""
    return value is None or value is False or value == "" or value == [] or value == {}


def row_diff(kind: str, code: str, before: Snapshot | None, after: Snapshot) -> RowDiff:
    """One row's fields that differ, in the after snapshot's order (then fields only the
    before had); a new row lists its fields that hold something."""
    new = _flat(after)
    if before is None:
        changes = [FieldChange(n, None, v) for n, v in new.items() if not _empty(v)]
        return RowDiff(kind, code, True, changes)
    old = _flat(before)
    names = list(new) + [n for n in old if n not in new]
    changes = [
        FieldChange(n, old.get(n), new.get(n))
        for n in names
        if old.get(n) != new.get(n) and not (_empty(old.get(n)) and _empty(new.get(n)))
    ]
    return RowDiff(kind, code, False, changes)


def proposed_snapshots(bundle: CatalogBundle) -> dict[tuple[str, str], Snapshot]:
    """The bundle's rows as snapshots by (object kind, object code), in the bundle's order."""
    data = bundle_to_data(bundle)
    found: dict[tuple[str, str], Snapshot] = {}
    for entry in data["sets"]:
        found["set", entry["code"]] = entry
    for entry in data["cards"]:
        found["card", entry["code"]] = {k: v for k, v in entry.items() if k != "printings"}
    for row in bundle.cards:
        for p in row.printings:
            key = (row.code, p.set_code, p.collector_number, p.variant)
            found["printing", printing_code(key)] = printing_snapshot(key, p.attributes)
    for entry in data["products"]:
        found["product", entry["code"]] = entry
    return found


def proposal_diff(
    game: Game, bundle: CatalogBundle, *, keep_unchanged: bool = False
) -> list[RowDiff]:
    """Each row the bundle names against the catalog now, sets first, then cards, printings
    and products; rows that would not change are left out unless ``keep_unchanged``. One query
    per kind of row, whatever the number of rows."""
    current = snapshots(game, bundle_keys(bundle))
    proposed = proposed_snapshots(bundle)
    diffs = []
    for kind in KINDS:
        for (row_kind, code), after in proposed.items():
            if row_kind != kind:
                continue
            diff = row_diff(kind, code, current.get((kind, code)), after)
            if keep_unchanged or not diff.is_unchanged:
                diffs.append(diff)
    return diffs


def _ratio(a: str, b: str) -> float:
    return 1.0 if a == b else difflib.SequenceMatcher(None, a, b).ratio()


def near_duplicates(game: Game, bundle: CatalogBundle) -> list[NearDuplicate]:
    """The catalog's cards in the sets a new card is printed in whose English or Japanese name
    is the same as the new card's, or close (name_key, then difflib's ratio ≥ NEAR_RATIO).
    Two queries, whatever the number of cards."""
    codes = [row.code for row in bundle.cards]
    existing = set(Card.objects.filter(game=game, code__in=codes).values_list("code", flat=True))
    new_cards = [row for row in bundle.cards if row.code not in existing]
    set_codes = {p.set_code for row in new_cards for p in row.printings}
    if not set_codes:
        return []
    neighbours = list(
        Card.objects.filter(game=game, owner__isnull=True, printings__card_set__code__in=set_codes)
        .distinct()
        .order_by("code")
        .values_list("code", "name_en", "name_ja")
    )
    found = []
    for row in new_cards:
        mine = [name_key(n) for n in (row.name_en, row.name_ja) if n]
        for code, name_en, name_ja in neighbours:
            if code == row.code:
                continue
            theirs = [name_key(n) for n in (name_en, name_ja) if n]
            best = max((_ratio(a, b) for a in mine for b in theirs), default=0.0)
            if best >= NEAR_RATIO:
                found.append(
                    NearDuplicate(
                        row.code, row.name_en or row.name_ja, code, name_en or name_ja, best
                    )
                )
    return found


@dataclass(frozen=True)
class HistoryEntry:
    """A change of the catalog's history with its fields that changed (before → after)."""

    change: Any  # contributions.models.CatalogChange
    fields: list[FieldChange]


def history_entries(changes: list[Any]) -> list[HistoryEntry]:
    """Each change with what it changed; a removal lists the removed row's fields."""
    entries = []
    for change in changes:
        if change.after is None:
            removed = row_diff(change.object_kind, change.object_code, None, change.before or {})
            fields = [FieldChange(f.name, f.after, None) for f in removed.changes]
        else:
            fields = row_diff(
                change.object_kind, change.object_code, change.before, change.after
            ).changes
        entries.append(HistoryEntry(change, fields))
    return entries
