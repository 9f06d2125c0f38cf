"""What a copy of an Unmatched card can be in a collection: no foils; English and Japanese
editions."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

FINISHES = (("normal", _("Normal")),)
LANGUAGES = ("en", "ja")
