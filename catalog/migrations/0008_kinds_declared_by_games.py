# Set and product kinds are data each game declares (catalog.kinds), no longer closed choices.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0007_card_name_parts_index"),
    ]

    operations = [
        migrations.AlterField(
            model_name="cardset",
            name="kind",
            field=models.CharField(default="expansion", max_length=20, verbose_name="kind"),
        ),
        migrations.AlterField(
            model_name="product",
            name="kind",
            field=models.CharField(max_length=20, verbose_name="kind"),
        ),
    ]
