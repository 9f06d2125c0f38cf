"""The rows a card merge touches, kept as JSON so its revert puts back exactly what moved.

Each touched row is recorded twice: as it was before the merge and as the merge left it (None:
the merge deleted it). A revert refuses a row that is no longer as the merge left it, then
writes every row's ``before`` back (re-inserting the deleted ones with their own ids), so the
other rows pointing at them (the log's items, reservations) find them again.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.apps import apps
from django.db import models

Row = dict[str, Any]


class _Encoder(json.JSONEncoder):
    """Dates and times to the microsecond (Django's encoder drops microseconds), decimals as
    text: what a field reads back unchanged."""

    def default(self, o: Any) -> Any:
        if isinstance(o, dt.date | dt.datetime | dt.time):
            return o.isoformat()
        if isinstance(o, Decimal):
            return str(o)
        return super().default(o)


def row_of(obj: models.Model) -> Row:
    """Every concrete column of ``obj`` by its attribute name, as JSON reads it back."""
    data = {f.attname: f.value_from_object(obj) for f in obj._meta.concrete_fields}
    return json.loads(json.dumps(data, cls=_Encoder))


def label_of(model: type[models.Model]) -> str:
    return model._meta.label_lower


class Touched:
    """The rows a merge changed or deleted, by model, in the order first touched."""

    def __init__(self) -> None:
        self.before: dict[str, dict[int, Row]] = {}
        self.deleted: dict[str, set[int]] = {}

    def note(self, obj: models.Model) -> None:
        """Keep ``obj`` as it is now, before the merge changes it (first call wins)."""
        self.before.setdefault(label_of(type(obj)), {}).setdefault(obj.pk, row_of(obj))

    def gone(self, obj: models.Model) -> None:
        self.note(obj)
        self.deleted.setdefault(label_of(type(obj)), set()).add(obj.pk)

    def record(self) -> dict[str, list[dict[str, Any]]]:
        """Each touched row before and after, the after read back from the database."""
        out: dict[str, list[dict[str, Any]]] = {}
        for label, rows in self.before.items():
            model = apps.get_model(label)
            now = {obj.pk: row_of(obj) for obj in model._default_manager.filter(pk__in=rows)}
            out[label] = [
                {"pk": pk, "before": row, "after": now.get(pk)} for pk, row in rows.items()
            ]
        return out


def changed_rows(record: dict[str, list[dict[str, Any]]]) -> list[tuple[str, int]]:
    """The rows no longer as the merge left them, as (model label, id)."""
    changed: list[tuple[str, int]] = []
    for label, rows in record.items():
        model = apps.get_model(label)
        pks = [r["pk"] for r in rows]
        now = {obj.pk: row_of(obj) for obj in model._default_manager.filter(pk__in=pks)}
        changed += [(label, r["pk"]) for r in rows if now.get(r["pk"]) != r["after"]]
    return changed


def restore_rows(label: str, rows: Iterable[dict[str, Any]]) -> None:
    """Write each row's ``before`` back: re-insert those the merge deleted (with their ids),
    then set every column, timestamps included (an insert would stamp them anew)."""
    model = apps.get_model(label)
    rows = list(rows)
    missing = [model(**r["before"]) for r in rows if r["after"] is None]
    if missing:
        model._default_manager.bulk_create(missing)
    for r in rows:
        columns = {k: v for k, v in r["before"].items() if k != model._meta.pk.attname}
        model._default_manager.filter(pk=r["pk"]).update(**columns)
