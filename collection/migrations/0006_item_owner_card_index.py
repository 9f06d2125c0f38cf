"""A player's copies of one card by index: the search's ``is:owned`` and ``is:free`` probe them
per card (issue 19; collection/search.py)."""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0009_search_sorts_and_statistics"),
        ("collection", "0005_item_card_and_set"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddIndex(
            model_name="collectionitem",
            index=models.Index(fields=["owner", "card"], name="collection_owner_card"),
        ),
    ]
