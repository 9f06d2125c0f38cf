"""Monster Hunter card game copies: normal and foil (promotional) finishes."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

FINISHES = (("normal", _("Normal")), ("foil", _("Foil")))
LANGUAGES = ("ja", "en")
