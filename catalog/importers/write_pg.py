"""PostgreSQL's set-based write of a bundle's cards and printings.

The rows go into a temporary table with one COPY, then three statements per table do the
work whatever the file's size: an UPDATE of the rows whose natural key exists and whose values
differ, an INSERT of the keys that do not exist, and (for cards) a SELECT of the ids the
printings need. Nothing is read as model instances, and only the file's own rows are read.
The temporary tables are dropped at commit; callers hold the transaction (``write_bundle``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection

#: the values a card row carries (besides game and code) and their column types
CARD_VALUES = (
    ("name_en", "text"),
    ("name_ja", "text"),
    ("card_type", "text"),
    ("attributes", "jsonb"),
    ("copy_limit", "smallint"),
    ("source", "text"),
    ("is_demo", "boolean"),
    ("search_key", "text"),
)
PRINTING_KEY = (
    ("card_id", "bigint"),
    ("card_set_id", "bigint"),
    ("collector_number", "text"),
    ("variant", "text"),
)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _stage(
    cursor: Any,
    table: str,
    columns: Sequence[tuple[str, str]],
    rows: Iterable[tuple[Any, ...]],
    *,
    key: Sequence[str],
) -> None:
    """A temporary table of ``columns`` filled with ``rows`` by COPY, with the statistics of
    its ``key`` columns (so the joins below are planned for its real size)."""
    cursor.execute(f"DROP TABLE IF EXISTS pg_temp.{table}")
    spec = ", ".join(f"{name} {kind}" for name, kind in columns)
    cursor.execute(f"CREATE TEMPORARY TABLE {table} ({spec}) ON COMMIT DROP")
    names = ", ".join(name for name, _kind in columns)
    # COPY is psycopg's own (Django's cursor wrapper does not know it): one statement
    with cursor.cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)
    cursor.execute(f"ANALYZE {table} ({', '.join(key)})")


def _differs(values: Sequence[tuple[str, str]], left: str, right: str) -> str:
    own = ", ".join(f"{left}.{name}" for name, _kind in values)
    staged = ", ".join(f"{right}.{name}" for name, _kind in values)
    return f"({own}) IS DISTINCT FROM ({staged})"


def upsert_cards(
    *, game_id: int, rows: Sequence[dict[str, Any]]
) -> tuple[dict[str, int], int, int]:
    """Insert or update the cards ``rows`` (dicts of ``code`` and ``CARD_VALUES``) of a game:
    (code -> id of every row, how many were created, how many updated)."""
    columns = (("code", "text"), *CARD_VALUES)
    staged = (
        tuple(_json(r[name]) if kind == "jsonb" else r[name] for name, kind in columns)
        for r in rows
    )
    assigned = ", ".join(f"{name} = t.{name}" for name, _kind in CARD_VALUES)
    names = ", ".join(name for name, _kind in columns)
    with connection.cursor() as cursor:
        _stage(cursor, "catalog_import_card", columns, staged, key=("code",))
        # the file's cards that exist, and whether each differs from the file
        cursor.execute(
            f"SELECT t.code, c.id, {_differs(CARD_VALUES, 'c', 't')} "
            "FROM catalog_import_card t JOIN catalog_card c ON c.game_id = %s AND c.code = t.code",
            [game_id],
        )
        existing = cursor.fetchall()
        ids = {code: pk for code, pk, _differ in existing}
        updated = created = 0
        if any(differ for _code, _pk, differ in existing):
            cursor.execute(
                f"UPDATE catalog_card c SET {assigned} FROM catalog_import_card t "
                f"WHERE c.game_id = %s AND c.code = t.code AND {_differs(CARD_VALUES, 'c', 't')}",
                [game_id],
            )
            updated = cursor.rowcount
        if len(ids) < len(rows):
            cursor.execute(
                f"INSERT INTO catalog_card (game_id, {names}) SELECT %s, {names} "
                "FROM catalog_import_card t WHERE NOT EXISTS "
                "(SELECT 1 FROM catalog_card c WHERE c.game_id = %s AND c.code = t.code) "
                "RETURNING code, id",
                [game_id, game_id],
            )
            inserted = cursor.fetchall()
            ids.update(inserted)
            created = len(inserted)
    return ids, created, updated


def upsert_printings(*, rows: Sequence[tuple[int, int, str, str, Any]]) -> tuple[int, int]:
    """Insert or update printings given as (card id, set id, number, variant, attributes):
    how many were created and how many updated."""
    columns = (*PRINTING_KEY, ("attributes", "jsonb"))
    staged = ((*row[:4], _json(row[4])) for row in rows)
    key = " AND ".join(f"p.{name} = t.{name}" for name, _kind in PRINTING_KEY)
    names = ", ".join(name for name, _kind in columns)
    with connection.cursor() as cursor:
        _stage(
            cursor,
            "catalog_import_printing",
            columns,
            staged,
            key=[name for name, _kind in PRINTING_KEY],
        )
        cursor.execute(
            "SELECT count(*), count(*) FILTER (WHERE p.attributes IS DISTINCT FROM t.attributes) "
            f"FROM catalog_import_printing t JOIN catalog_printing p ON {key}"
        )
        existing, differ = cursor.fetchone()
        updated = created = 0
        if differ:
            cursor.execute(
                "UPDATE catalog_printing p SET attributes = t.attributes "
                f"FROM catalog_import_printing t WHERE {key} "
                "AND p.attributes IS DISTINCT FROM t.attributes"
            )
            updated = cursor.rowcount
        if existing < len(rows):
            cursor.execute(
                f"INSERT INTO catalog_printing ({names}) SELECT {names} "
                "FROM catalog_import_printing t WHERE NOT EXISTS "
                f"(SELECT 1 FROM catalog_printing p WHERE {key})"
            )
            created = cursor.rowcount
    return created, updated
