"""央華封神's search fields (the card list's query language, docs/search.md)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from catalog.query.fields import SearchField
from games.ouka_fushin.catalog import SCHOOLS, STORY_KINDS

FIELDS = (
    SearchField("school", _("School"), "choice", choices=SCHOOLS, example="school:goton"),
    SearchField("destiny", _("Destiny level"), "number", low=1, high=3, example="destiny>=2"),
    # a story's keywords and a climax's keyword conditions are free words (仙人, 宝貝…)
    SearchField(
        "keyword", _("Keyword"), "list", keys=("keywords", "conditions"), example="keyword:仙人"
    ),
    SearchField(
        "story",
        _("Story kind"),
        "choice",
        keys=("story_kind",),
        choices=STORY_KINDS,
        example="story:event",
    ),
    SearchField("points", _("Points"), "number", low=0, high=200, example="points>=20"),
)
