"""The catalog import at scale (issue 19): its work follows the file, not the catalog.

Cards and printings are written set-based on PostgreSQL (``catalog.importers.write_pg``), so
the statements an import runs do not grow with its cards; a changed file updates its rows in
place and an unchanged one writes nothing. The ORM path (SQLite) writes the same rows.
The cards are invented for the tests (marked demo); only the games' schemas are real.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from django.db import connection

from catalog.importers import write
from catalog.importers.service import catalog_import_text
from catalog.importers.write import ImportReport, game_sync
from catalog.maintenance import analyze_catalog
from catalog.models import Card, CardSet, Printing
from catalog.search import search_key

HEADER = ["game", "code", "type", "name_en", "name_ja", "set", "number", "value",
          "printing.fighter", "printing.boost", "demo"]  # fmt: skip


@pytest.fixture
def sets() -> None:
    game = game_sync("unmatched")
    for code in ("scale-a", "scale-b"):
        CardSet.objects.create(game=game, code=code, name_en=f"Scale {code}", is_demo=True)


def sheet(start: int, stop: int, *, revision: int = 0) -> str:
    """Cards start..stop-1: every third one has a second printing; ``revision`` changes the
    value of every other card and the boost of every fourth printing."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(HEADER)
    for n in range(start, stop):
        value = n % 5 + (revision if n % 2 == 0 else 0)
        boost = n % 4 + (revision if n % 4 == 0 else 0)
        code, name = f"scale-{n:05d}", f"Scale Strike {n}"
        writer.writerow(["unmatched", code, "attack", name, f"スケール{n}", "scale-a",
                         str(n), value, "Alice", boost, "true"])  # fmt: skip
        if n % 3 == 0:
            writer.writerow(["unmatched", code, "", "", "", "scale-b", f"{n}-P", "",
                             "any", 1, ""])  # fmt: skip
    return out.getvalue()


def statements(call: Callable[[], Any]) -> tuple[Any, int]:
    """What ``call()`` returns and how many statements it ran (COPY, psycopg's own, is not
    seen by Django: the set-based path runs one per table whatever the file's size)."""
    seen: list[str] = []

    def record(execute: Any, sql: str, *args: Any) -> Any:
        seen.append(sql)
        return execute(sql, *args)

    with connection.execute_wrapper(record):
        result = call()
    return result, len(seen)


def rows() -> list[tuple[Any, ...]]:
    """Every card and printing of the tests' game by natural key, without ids."""
    cards = sorted(
        Card.objects.filter(game__slug="unmatched").values_list(
            "code", "name_en", "name_ja", "card_type", "attributes", "copy_limit", "source",
            "is_demo", "search_key",
        )
    )  # fmt: skip
    printings = sorted(
        Printing.objects.filter(card__game__slug="unmatched").values_list(
            "card__code", "card_set__code", "collector_number", "variant", "attributes"
        )
    )
    return [*cards, *printings]


def counts(report: ImportReport) -> dict[str, tuple[int, int, int]]:
    return {
        kind: (report.created[kind], report.updated[kind], report.unchanged[kind])
        for kind in ("cards", "printings")
    }


@pytest.mark.django_db
def test_an_import_runs_as_many_statements_for_1000_cards_as_for_100(sets: None) -> None:
    for label, revision in (("new", 0), ("changed", 1), ("unchanged", 1)):
        small_sheet, large_sheet = (
            sheet(0, 100, revision=revision),
            sheet(1000, 2000, revision=revision),
        )
        _report, small = statements(partial(catalog_import_text, small_sheet, name="s.csv"))
        _report, large = statements(partial(catalog_import_text, large_sheet, name="l.csv"))
        assert small == large, f"{label}: {small} statements for 100 cards, {large} for 1,000"
        assert large <= 25, f"{label}: {large} statements"
    assert Card.objects.filter(game__slug="unmatched").count() == 1100


@pytest.mark.django_db
def test_re_importing_a_changed_sheet_updates_its_cards_in_place(sets: None) -> None:
    first = catalog_import_text(sheet(0, 300), name="cards.csv")
    assert counts(first) == {"cards": (300, 0, 0), "printings": (400, 0, 0)}
    ids = dict(Card.objects.values_list("code", "pk"))
    printing_ids = set(Printing.objects.values_list("pk", flat=True))

    changed = catalog_import_text(sheet(0, 300, revision=2), name="cards.csv")
    # 150 cards change their value; 75 first printings (n % 4 == 0) change their boost
    assert counts(changed) == {"cards": (0, 150, 150), "printings": (0, 75, 325)}
    assert dict(Card.objects.values_list("code", "pk")) == ids
    assert set(Printing.objects.values_list("pk", flat=True)) == printing_ids
    card = Card.objects.get(code="scale-00004")
    assert card.attributes == {"value": 6}
    assert card.search_key == search_key("Scale Strike 4", "スケール4")
    assert Printing.objects.get(card=card, card_set__code="scale-a").attributes == {
        "fighter": "Alice",
        "boost": 2,
    }
    assert Card.objects.get(code="scale-00001").attributes == {"value": 1}

    again = catalog_import_text(sheet(0, 300, revision=2), name="cards.csv")
    assert not again.created and not again.updated
    assert counts(again) == {"cards": (0, 0, 300), "printings": (0, 0, 400)}

    # a sheet of old and new cards: the old ones are matched by code, the new ones added
    mixed = catalog_import_text(sheet(200, 400, revision=2), name="more.csv")
    assert counts(mixed) == {"cards": (100, 0, 100), "printings": (134, 0, 133)}


@pytest.mark.django_db
def test_the_orm_path_writes_the_same_rows_and_counts_as_the_set_based_one(
    sets: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite writes through the ORM: on PostgreSQL both paths must leave the same catalog."""
    assert write.set_based()
    answers = {}
    for path in ("set-based", "orm"):
        if path == "orm":
            monkeypatch.setattr(write, "set_based", lambda: False)
        Card.objects.filter(game__slug="unmatched").delete()
        reports = [
            counts(catalog_import_text(sheet(0, 120, revision=r), name="c.csv")) for r in (0, 3, 3)
        ]
        answers[path] = (reports, rows())
    assert answers["orm"] == answers["set-based"]
    assert len(answers["orm"][1]) == 120 + 160


def reltuples(table: str) -> float:
    with connection.cursor() as cursor:
        cursor.execute("SELECT reltuples FROM pg_class WHERE relname = %s", [table])
        return float(cursor.fetchone()[0])


@pytest.mark.django_db
def test_an_import_analyses_only_the_tables_it_changed_by_more_than_a_tenth() -> None:
    game = game_sync("unmatched")

    def add(start: int, stop: int) -> None:
        Card.objects.bulk_create(
            Card(game=game, code=f"an-{n}", name_en=f"An {n}", card_type="scheme")
            for n in range(start, stop)
        )

    add(0, 1000)
    analyze_catalog()  # every table, as the search tests' seeds do
    assert reltuples("catalog_card") == 1000
    add(1000, 1050)
    analyze_catalog(written={"catalog_card": 50})
    assert reltuples("catalog_card") == 1000, "50 rows of 1,000 leave the statistics alone"
    add(1050, 1200)
    analyze_catalog(written={"catalog_card": 150, "catalog_printing": 0})
    assert reltuples("catalog_card") == 1200
