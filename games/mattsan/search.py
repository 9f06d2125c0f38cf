"""Mattsan's search fields (the card list's query language, docs/search.md)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from catalog.query.fields import SearchField

FIELDS = (
    SearchField("hp", _("HP"), "number", low=1, high=99, example="hp>=5"),
    SearchField("soul", _("Soul"), "number", low=0, high=9, example="soul:2"),
    SearchField("cost", _("Soul charge cost"), "number", low=0, high=9, example="cost<=1"),
    SearchField("family", _("Family"), "text", example="family:商店街"),
    SearchField(
        "rarity", _("Rarity (★)"), "number", on="printing", low=1, high=5, example="rarity:5"
    ),
)
