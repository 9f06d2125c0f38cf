"""Indexes for the search forms the GIN and trigram indexes of 0005 do not answer (issue 19).

PostgreSQL only, as in 0005 (SQLite reads the table and keeps its migrations plain). Each
index's expression is the one the compiler's condition spells (``catalog/query/compile.py``),
so the planner can match it:

- ``text`` fields (``fighter:`` on printings, ``family:`` on cards) compile to
  ``UPPER((attributes ->> 'key')::text) LIKE UPPER('%word%')``: a trigram GIN index on that
  expression per key;
- number fields whose declared range is too wide to spell as containment tests (hp, reach,
  attack, cost, power and its edge powers, points) compile to
  ``attributes ? 'key' AND (attributes -> 'key') >= '3'``: a btree on
  ``(game_id, attributes -> 'key')``, partial on the key being there, answers the range.

A game that declares a new text or wide number field adds its key here in a new migration
(``tests/catalog/test_query_indexes.py`` checks every documented form's plan).
"""

from __future__ import annotations

from typing import Any

from django.db import migrations

PRINTING_TEXT_KEYS = ("fighter",)
CARD_TEXT_KEYS = ("family",)
CARD_NUMBER_KEYS = ("hp", "reach", "attack", "cost", "power", "left_power", "right_power", "points")


def _statements() -> list[tuple[str, str]]:
    """(name, CREATE INDEX statement) of each index."""
    found = []
    for table, short, keys in (
        ("catalog_printing", "printing", PRINTING_TEXT_KEYS),
        ("catalog_card", "card", CARD_TEXT_KEYS),
    ):
        for key in keys:
            name = f"{short}_{key}_trgm"
            found.append(
                (
                    name,
                    f"CREATE INDEX IF NOT EXISTS {name} ON {table} "
                    f"USING gin (UPPER((attributes ->> '{key}')::text) gin_trgm_ops)",
                )
            )
    for key in CARD_NUMBER_KEYS:
        name = f"card_{key}_number"
        found.append(
            (
                name,
                f"CREATE INDEX IF NOT EXISTS {name} ON catalog_card "
                f"(game_id, (attributes -> '{key}')) WHERE attributes ? '{key}'",
            )
        )
    return found


def create_indexes(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        for _name, statement in _statements():
            schema_editor.execute(statement)


def drop_indexes(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        for name, _statement in reversed(_statements()):
            schema_editor.execute(f"DROP INDEX IF EXISTS {name}")


class Migration(migrations.Migration):
    dependencies = [("catalog", "0005_search_indexes")]

    operations = [migrations.RunPython(create_indexes, drop_indexes)]
