"""央華封神 copies: normal, and the parallel (foil-stamped) finish of some cards."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

FINISHES = (("normal", _("Normal")), ("parallel", _("Parallel")))
LANGUAGES = ("ja", "en")
