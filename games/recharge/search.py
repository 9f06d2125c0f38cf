"""Marvel Recharge's search fields that are not one attribute (the card list's query language,
docs/search.md); ``left:``, ``right:``, ``power:`` and ``special:`` come from the attributes'
own declarations in catalog.py."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from catalog.query.fields import SearchField
from games.recharge.catalog import COLOURS

FIELDS = (
    # recharge.md:10-11: a colour on either side edge
    SearchField(
        "colour",
        _("Edge colour"),
        "list",
        keys=("left", "right"),
        choices=COLOURS,
        example="colour:red",
    ),
    # one named edge and colour at once: edge:left-red
    SearchField(
        "edge",
        _("Edge and colour"),
        "list",
        paired={
            f"{side}-{code}": (side, code) for side in ("left", "right") for code, _l in COLOURS
        },
        example="edge:left-blue",
    ),
)
