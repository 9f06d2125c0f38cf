"""One trigram index for a game's name search (issue 19): ``(game_id, search_key)`` in a GIN
index, the game through btree_gin.

A name word such as ``kestrel`` matches thousands of a 100,000-card game's names, and the
capped count reads the first 1,001 of them. With ``search_key``'s own trigram index the planner
priced the bitmap path with a second bitmap of the game's 100,000 rows ANDed in, found a plain
scan cheaper under the LIMIT, and read 120,000 rows to find the 1,001 (the matches sit
together at the end of the table): 24 ms alone, over a second at 8 clients at once. With the
game inside the trigram index, one bitmap answers both conditions and the planner takes it
(14-28 ms on a loaded machine, 2-3 ms for the index scan). ``card_search_key_trgm`` stays for
the searches that name no game.

PostgreSQL only, as in 0005.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations

CREATE = (
    "CREATE EXTENSION IF NOT EXISTS btree_gin",
    "CREATE INDEX IF NOT EXISTS card_game_search_key_trgm ON catalog_card "
    "USING gin (game_id, search_key gin_trgm_ops)",
)
DROP = ("DROP INDEX IF EXISTS card_game_search_key_trgm",)


def create_index(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        for statement in CREATE:
            schema_editor.execute(statement)


def drop_index(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        for statement in DROP:
            schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [("catalog", "0009_search_sorts_and_statistics")]

    operations = [migrations.RunPython(create_index, drop_index)]
