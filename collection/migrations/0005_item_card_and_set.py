"""Each collection item carries its printing's card and set (issue 19: the collection page's
totals and set completion count items without joining them to their printings).

Added empty, filled from the printings in one set-based UPDATE (never item by item), then
made required, then indexed for the page's counts."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def fill_from_printings(apps, schema_editor):
    item_model = apps.get_model("collection", "CollectionItem")
    printing_model = apps.get_model("catalog", "Printing")
    db = schema_editor.connection.alias
    if schema_editor.connection.vendor == "postgresql":
        items = schema_editor.quote_name(item_model._meta.db_table)
        printings = schema_editor.quote_name(printing_model._meta.db_table)
        schema_editor.execute(
            f"UPDATE {items} AS i SET card_id = p.card_id, card_set_id = p.card_set_id "
            f"FROM {printings} AS p WHERE p.id = i.printing_id"
        )
        return
    printing = printing_model.objects.using(db).filter(pk=OuterRef("printing_id"))
    item_model.objects.using(db).update(
        card_id=Subquery(printing.values("card_id")[:1]),
        card_set_id=Subquery(printing.values("card_set_id")[:1]),
    )


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0007_card_name_parts_index"),
        ("collection", "0004_column_mappings"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="collectionitem",
            name="card",
            field=models.ForeignKey(
                db_constraint=False,
                db_index=False,
                editable=False,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="catalog.card",
            ),
        ),
        migrations.AddField(
            model_name="collectionitem",
            name="card_set",
            field=models.ForeignKey(
                db_constraint=False,
                db_index=False,
                editable=False,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="catalog.cardset",
            ),
        ),
        migrations.RunPython(fill_from_printings, migrations.RunPython.noop, elidable=True),
        migrations.AlterField(
            model_name="collectionitem",
            name="card",
            field=models.ForeignKey(
                db_constraint=False,
                db_index=False,
                editable=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="catalog.card",
            ),
        ),
        migrations.AlterField(
            model_name="collectionitem",
            name="card_set",
            field=models.ForeignKey(
                db_constraint=False,
                db_index=False,
                editable=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="catalog.cardset",
            ),
        ),
        migrations.AddIndex(
            model_name="collectionitem",
            index=models.Index(
                fields=["owner", "card_set", "card"],
                include=("quantity", "trade_quantity"),
                name="collection_owner_set_card",
            ),
        ),
    ]
