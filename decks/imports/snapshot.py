"""Turn a revision snapshot back into entries (for restoring an earlier revision)."""

from __future__ import annotations

from typing import Any

from catalog.models import Card, Game, Printing
from decks.snapshots import printing_label
from decks.specs import EntrySpec


def specs_from_snapshot(game: Game, snapshot: dict[str, Any]) -> list[EntrySpec]:
    """Entries of a snapshot whose cards still exist (a card removed from the catalog since
    is dropped rather than failing the restore)."""
    codes = {e["card"] for e in snapshot.get("entries", [])}
    cards = {c.code: c for c in Card.objects.filter(game=game, code__in=codes)}
    printings = {
        (p.card.code, printing_label(p.card_set.code, p.collector_number, p.variant)): p
        for p in Printing.objects.filter(card__in=cards.values()).select_related("card", "card_set")
    }
    specs = []
    for entry in snapshot.get("entries", []):
        card = cards.get(entry["card"])
        if card is None:
            continue
        printing = printings.get((card.code, entry.get("printing") or ""))
        specs.append(EntrySpec(card, entry["zone"], int(entry["quantity"]), printing))
    return specs
