"""Writing a collection (or a wishlist) as CSV in any dialect, with loss warnings: a format
that cannot carry a field says so, never drops it silently. Every cell goes through
``safety.protect``: nothing a spreadsheet would run as a formula is written as one."""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from collection.interchange.dialects import FIELD_LABELS, Dialect
from collection.interchange.safety import protect
from collection.models import CollectionItem, WishlistItem
from collection.vocab import NORMAL

LOSS_FIELD = gettext_noop("%(format)s has no column for the %(field)s: %(count)d items lose it.")
LOSS_CONDITION = gettext_noop(
    "%(format)s has no word for “%(condition)s”: %(count)d items are written as “%(written)s”."
)
LOSS_FINISH = gettext_noop(
    "%(format)s knows only foil or not: %(count)d items of other finishes are written as foil."
)


@dataclass
class Export:
    content: str
    warnings: list[str] = field(default_factory=list)
    rows: int = 0


def _values(item: CollectionItem) -> dict[str, Any]:
    printing = item.printing
    card = printing.card
    return {
        "game": card.game.slug,
        "card": card.code,
        "name": card.name_en or card.name_ja,
        "name_ja": card.name_ja,
        "set": printing.card_set.code,
        "set_name": printing.card_set.name_en or printing.card_set.name_ja,
        "number": printing.collector_number,
        "variant": printing.variant,
        "quantity": item.quantity,
        "trade_quantity": item.trade_quantity,
        "condition": item.condition,
        "finish": item.finish,
        "language": item.language,
        "binder": item.binder,
        "tags": "; ".join(item.tags),
        "acquired_on": item.acquired_on.isoformat() if item.acquired_on else "",
        "price": "" if item.price is None else str(item.price),
        "currency": item.currency,
        "note": item.note,
    }


#: columns whose plain numbers (even a negative one) are written as numbers
NUMERIC = frozenset({"quantity", "trade_quantity", "price"})

_EMPTY = {
    "variant": "",
    "trade_quantity": 0,
    "binder": "",
    "tags": "",
    "acquired_on": "",
    "price": "",
    "currency": "",
    "note": "",
}


def export_items(items: Iterable[CollectionItem], dialect: Dialect) -> Export:
    out = io.StringIO()
    if dialect.sep_line:
        out.write("sep=,\r\n")
    writer = csv.writer(out, lineterminator="\r\n")
    header = dialect.header
    writer.writerow(header)
    field_of = {title: name for name, title in dialect.columns.items()}
    field_of.update(dialect.mirrors)
    lost: Counter[str] = Counter()
    conditions: Counter[str] = Counter()
    finishes = 0
    rows = 0
    for item in items:
        values = _values(item)
        for name, empty in _EMPTY.items():
            if values[name] != empty and not dialect.carries(name):
                lost[name] += 1
        if item.condition in dialect.lossy_conditions:
            conditions[item.condition] += 1
        values["condition"] = dialect.conditions_out[item.condition]
        normal_word, foil_word = dialect.finish_out
        if dialect.code != "decklab":
            if item.finish not in (NORMAL, "foil"):
                finishes += 1
            values["finish"] = normal_word if item.finish == NORMAL else foil_word
        values["language"] = dialect.language_out(item.language)
        writer.writerow(
            [
                protect(values[field_of[title]], numeric=field_of[title] in NUMERIC)
                if title in field_of
                else ""
                for title in header
            ]
        )
        rows += 1
    warnings = [
        _(LOSS_FIELD) % {"format": dialect.label, "field": FIELD_LABELS[name], "count": count}
        for name, count in sorted(lost.items())
    ]
    warnings += [
        _(LOSS_CONDITION)
        % {
            "format": dialect.label,
            "condition": condition,
            "count": count,
            "written": dialect.conditions_out[condition],
        }
        for condition, count in sorted(conditions.items())
    ]
    if finishes:
        warnings.append(_(LOSS_FINISH) % {"format": dialect.label, "count": finishes})
    return Export(content=out.getvalue(), warnings=warnings, rows=rows)


WISHLIST_HEADER = ["game", "card", "name_en", "name_ja", "set", "number", "variant", "quantity"]


def export_wishlist(wishes: Iterable[WishlistItem]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(WISHLIST_HEADER)
    for wish in wishes:
        printing = wish.printing
        cells = [
            wish.card.game.slug,
            wish.card.code,
            wish.card.name_en,
            wish.card.name_ja,
            printing.card_set.code if printing else "",
            printing.collector_number if printing else "",
            printing.variant if printing else "",
            wish.quantity,
        ]
        writer.writerow([*(protect(c) for c in cells[:-1]), protect(cells[-1], numeric=True)])
    return out.getvalue()
