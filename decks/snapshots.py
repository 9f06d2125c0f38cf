"""Deck snapshots (what a revision stores) and the diff between two of them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

SNAPSHOT_VERSION = 1
EntryKey = tuple[str, str, str]  # (zone, card code, printing label or "")


def printing_label(set_code: str, number: str, variant: str) -> str:
    return "/".join(part for part in (set_code, number, variant) if part)


def entry_key(entry: dict[str, Any]) -> EntryKey:
    return (entry["zone"], entry["card"], entry.get("printing") or "")


@dataclass(frozen=True)
class EntryChange:
    zone: str
    card: str
    name_en: str
    name_ja: str
    printing: str
    before: int
    after: int

    @property
    def delta(self) -> int:
        return self.after - self.before

    def as_dict(self) -> dict[str, Any]:
        return {
            "zone": self.zone,
            "card": self.card,
            "name_en": self.name_en,
            "name_ja": self.name_ja,
            "printing": self.printing,
            "before": self.before,
            "after": self.after,
            "delta": self.delta,
        }


@dataclass(frozen=True)
class SnapshotDiff:
    entries: list[EntryChange]
    fields: dict[str, tuple[Any, Any]]

    @property
    def is_empty(self) -> bool:
        return not self.entries and not self.fields

    def as_dict(self) -> dict[str, Any]:
        return {
            "entries": [c.as_dict() for c in self.entries],
            "fields": {k: {"before": a, "after": b} for k, (a, b) in self.fields.items()},
        }

    def summary(self) -> str:
        """A short line for the history list: '+2 Feint, −1 Dash, name'."""
        parts = [
            f"{'+' if c.delta > 0 else '−'}{abs(c.delta)} {c.name_en or c.name_ja or c.card}"
            for c in self.entries
        ]
        parts.extend(self.fields)
        text = ", ".join(parts)
        return text if len(text) <= 300 else text[:297] + "…"


META_FIELDS = ("name", "description", "visibility", "variant", "extras")


def diff_snapshots(before: dict[str, Any] | None, after: dict[str, Any]) -> SnapshotDiff:
    old = {entry_key(e): e for e in (before or {}).get("entries", [])}
    new = {entry_key(e): e for e in after.get("entries", [])}
    changes = []
    for key in sorted(old.keys() | new.keys()):
        a = old.get(key, {}).get("quantity", 0)
        b = new.get(key, {}).get("quantity", 0)
        if a != b:
            source = new.get(key) or old[key]
            changes.append(
                EntryChange(
                    zone=key[0],
                    card=key[1],
                    printing=key[2],
                    name_en=source.get("name_en", ""),
                    name_ja=source.get("name_ja", ""),
                    before=a,
                    after=b,
                )
            )
    fields = {
        name: ((before or {}).get(name), after.get(name))
        for name in META_FIELDS
        if before is not None and before.get(name) != after.get(name)
    }
    return SnapshotDiff(changes, fields)
