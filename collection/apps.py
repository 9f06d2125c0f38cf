from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CollectionConfig(AppConfig):
    """What a player owns, tied to their decks (owned, missing, reserved, wished for)."""

    name = "collection"
    verbose_name = _("Collection")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # the card search's is:owned, is:missing and in:deck come from here (the catalog and
        # the decks app, which this app builds on, never import it)
        from django.db.models.signals import post_save

        from catalog.models import Printing
        from catalog.query.context import register_search_context
        from collection.receivers import printing_saved
        from collection.search import search_context_for

        register_search_context(lambda user, deck: search_context_for(user=user, deck=deck))
        # an item carries its printing's card and set: a printing moved moves them too
        post_save.connect(printing_saved, sender=Printing, dispatch_uid="collection-printing")
