"""Recharge copies: Power Plus is its own printing (a catalog variant), not a finish; the
game was printed in Japanese, with fan English translations of the same cards."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

FINISHES = (("normal", _("Normal")), ("foil", _("Foil")))
LANGUAGES = ("ja", "en")
