"""Marvel Recharge's search fields (the card list's query language, docs/search.md)."""

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
    # a hero's or teamwork card's power, or either edge's power of a power card
    SearchField(
        "power",
        _("Power"),
        "number",
        keys=("power", "left_power", "right_power"),
        low=0,
        high=200,
        example="power>=50",
    ),
    SearchField("special", _("Special card"), "bool", example="special:yes"),
)
