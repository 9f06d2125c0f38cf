from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ContributionsConfig(AppConfig):
    """Players propose catalog rows, editors review them, every applied change is recorded."""

    name = "contributions"
    verbose_name = _("Contributions")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # the catalog's card page shows our panels without importing this app
        from contributions import card_panels

        card_panels.register()
