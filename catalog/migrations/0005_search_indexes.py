"""The card search language's indexes (PostgreSQL), and search keys without punctuation.

PostgreSQL only: pg_trgm and GIN indexes do not exist in SQLite, which keeps searching by
reading the table (docs/search.md). They are created here rather than in the models' Meta so
the same migrations run on both databases:

- ``card_search_key_trgm``: trigram GIN on ``search_key`` -- name words (``LIKE '%word%'``)
  and the near-name suggestions (``<%``);
- ``card_attributes_gin`` / ``printing_attributes_gin``: GIN (jsonb_path_ops) on the
  attributes -- every field test compiles to containment (``@>``) on PostgreSQL.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations

from catalog.search import search_key

CREATE = (
    "CREATE EXTENSION IF NOT EXISTS pg_trgm",
    "CREATE INDEX IF NOT EXISTS card_search_key_trgm ON catalog_card "
    "USING gin (search_key gin_trgm_ops)",
    "CREATE INDEX IF NOT EXISTS card_attributes_gin ON catalog_card "
    "USING gin (attributes jsonb_path_ops)",
    "CREATE INDEX IF NOT EXISTS printing_attributes_gin ON catalog_printing "
    "USING gin (attributes jsonb_path_ops)",
)
DROP = (
    "DROP INDEX IF EXISTS printing_attributes_gin",
    "DROP INDEX IF EXISTS card_attributes_gin",
    "DROP INDEX IF EXISTS card_search_key_trgm",
)


def create_indexes(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        for statement in CREATE:
            schema_editor.execute(statement)


def drop_indexes(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        for statement in DROP:
            schema_editor.execute(statement)


def refold_search_keys(apps: Any, schema_editor: Any) -> None:
    # search keys now drop punctuation (catalog.search.fold): recompute the stored ones
    card_model = apps.get_model("catalog", "Card")
    changed = []
    for card in card_model.objects.only("pk", "name_en", "name_ja", "search_key").iterator():
        key = search_key(card.name_en, card.name_ja)
        if key != card.search_key:
            card.search_key = key
            changed.append(card)
    card_model.objects.bulk_update(changed, ["search_key"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [("catalog", "0004_import_job_language")]

    operations = [
        migrations.RunPython(refold_search_keys, migrations.RunPython.noop),
        migrations.RunPython(create_indexes, drop_indexes),
    ]
