"""The catalog's changes that the collection follows.

A collection item carries its printing's card and set (``CollectionItem.card``/``card_set``,
for the collection page's counts). The catalog importers never move a printing (its card and
set are part of its identity, and they write in bulk, without signals); the admin may. A
printing saved with another card or set moves its items' copies along in one UPDATE, so
the counts stay exact."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from catalog.models import Printing
from collection.models import CollectionItem


def printing_saved(sender: Any, instance: Printing, created: bool, **kwargs: Any) -> None:
    update_fields = kwargs.get("update_fields")
    if created or (update_fields is not None and not {"card", "card_set"} & set(update_fields)):
        return
    CollectionItem.objects.filter(printing_id=instance.pk).filter(
        ~Q(card_id=instance.card_id) | ~Q(card_set_id=instance.card_set_id)
    ).update(card_id=instance.card_id, card_set_id=instance.card_set_id)
