"""An entry to write: what services take from forms, imports and the API."""

from __future__ import annotations

from dataclasses import dataclass

from catalog.models import Card, Printing


@dataclass(frozen=True)
class EntrySpec:
    card: Card
    zone: str
    quantity: int
    printing: Printing | None = None
