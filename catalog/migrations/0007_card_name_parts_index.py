"""Indexes for the collection imports' bulk look-ups (issue 19), so they follow the file,
not the catalog (``collection/interchange/read.py``, ``_Catalog.load``):

- a file names cards: the reader asks once per chunk of rows for the cards whose
  ``search_key`` holds one of the file's folded names (``string_to_array(search_key, ' | ')
  && array[...]``), then compares with ``catalog.search.name_key`` in Python: a GIN index on
  that array answers the overlap;
- a file gives card codes in any case: ``(game_id, lower(code))`` answers the codes the
  unique ``(game, code)`` index does not.

PostgreSQL only, as in 0005.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations

CREATE = (
    "CREATE INDEX IF NOT EXISTS card_name_parts_gin ON catalog_card "
    "USING gin ((string_to_array(search_key, ' | ')))",
    "CREATE INDEX IF NOT EXISTS card_code_lower ON catalog_card (game_id, lower(code))",
)
DROP = ("DROP INDEX IF EXISTS card_code_lower", "DROP INDEX IF EXISTS card_name_parts_gin")


def create_index(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        for statement in CREATE:
            schema_editor.execute(statement)


def drop_index(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        for statement in DROP:
            schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [("catalog", "0006_scale_search_indexes")]

    operations = [migrations.RunPython(create_index, drop_index)]
