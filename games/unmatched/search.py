"""Unmatched's search fields (the card list's query language, docs/search.md)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from catalog.query.fields import SearchField

# unmatched.md:10-13: an action card's value; a printing's boost and fighter
FIELDS = (
    SearchField("value", _("Value"), "number", low=0, high=20, example="value>=3"),
    SearchField("boost", _("Boost"), "number", on="printing", low=0, high=9, example="boost:3"),
    SearchField("fighter", _("Fighter"), "text", on="printing", example="fighter:alice"),
    SearchField("hp", _("Hero HP"), "number", low=1, high=99, example="hp>=15"),
    SearchField("move", _("Move"), "number", low=0, high=9, example="move:3"),
)
