"""A card withdrawn from the catalog (issue 21): the revert of its creation while decks or
collections hold it keeps the row for them and takes it out of every list a player browses
(``Card.objects.listed()``). Nullable and blank: no existing row changes.

Every search now asks ``withdrawn_at IS NULL``. A column added to a table has no statistics
until the next ANALYZE, and nothing wakes autovacuum when no row changes: the planner guessed
the condition kept half of the cards and misplanned the wide forms at 211,000 printings
(``boost:2 or boost:3`` 18 -> 153 ms, ``unique:prints`` 17 -> 172 ms) until an ANALYZE. So
the migration ends with one (PostgreSQL; SQLite plans without).
"""

from typing import Any

from django.db import migrations, models


def analyze_cards(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ANALYZE catalog_card")


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0010_card_game_search_key_index"),
    ]

    operations = [
        migrations.AddField(
            model_name="card",
            name="withdrawn_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="withdrawn at"),
        ),
        migrations.AddField(
            model_name="card",
            name="withdrawn_note",
            field=models.CharField(
                blank=True, db_default="", max_length=300, verbose_name="why it was withdrawn"
            ),
        ),
        migrations.AddField(
            model_name="card",
            name="withdrawn_note_ja",
            field=models.CharField(
                blank=True,
                db_default="",
                max_length=300,
                verbose_name="why it was withdrawn (Japanese)",
            ),
        ),
        migrations.RunPython(analyze_cards, migrations.RunPython.noop),
    ]
