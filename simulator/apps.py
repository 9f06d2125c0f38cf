from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SimulatorConfig(AppConfig):
    """Test hands, exact odds and goldfish runs on Celery (see the simulation issue)."""

    name = "simulator"
    verbose_name = _("Simulator")
    default_auto_field = "django.db.models.BigAutoField"
