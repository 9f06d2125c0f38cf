"""Monster Hunter's search fields (the card list's query language, docs/search.md)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from catalog.query.fields import SearchField
from games.monster_hunter.catalog import ITEM_ICONS, WEAPON_ICONS

FIELDS = (
    SearchField(
        "weapon",
        _("Weapon icon"),
        "choice",
        keys=("weapon_icon",),
        choices=WEAPON_ICONS,
        example="weapon:great-sword",
    ),
    SearchField(
        "item",
        _("Item icon"),
        "list",
        keys=("item_icons",),
        choices=ITEM_ICONS,
        example="item:meat",
    ),
    SearchField("hp", _("HP"), "number", low=1, high=99, example="hp>=10"),
    SearchField("rank", _("Rank"), "number", low=0, high=20, example="rank<=2"),
    SearchField("reach", _("Reach"), "number", low=0, high=99, example="reach:2"),
    SearchField("attack", _("Attack"), "number", low=0, high=99, example="attack>=3"),
    SearchField("cost", _("Cost"), "number", low=0, high=99, example="cost<2"),
)
