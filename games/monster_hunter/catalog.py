"""Monster Hunter TCG (2007): card types and attributes from shared/rules/monster-hunter.md
("Card types", lines 14-28)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django import forms
from django.utils.translation import gettext_lazy as _

from catalog.attributes import (
    AttributeSchema,
    ChoiceListField,
    Searchable,
    StrictBooleanField,
    attribute,
)
from catalog.spec import CardType, GameSpec
from games.monster_hunter import GAME

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

# monster-hunter.md:23-24 -- the nine weapon icons (seed 000: 大剣・太刀・片手剣・双剣・ハンマー・
# ランス・ライトボウガン・ヘビィボウガン・弓)
WEAPON_ICONS = (
    ("great-sword", _("Great sword")),
    ("long-sword", _("Long sword")),
    ("sword-and-shield", _("Sword & shield")),
    ("dual-blades", _("Dual blades")),
    ("hammer", _("Hammer")),
    ("lance", _("Lance")),
    ("light-bowgun", _("Light bowgun")),
    ("heavy-bowgun", _("Heavy bowgun")),
    ("bow", _("Bow")),
)
# monster-hunter.md:27-28 -- the seven item icons (seed 000: 肉・タル爆弾・玉・弾薬・ビン・
# モンスター素材・薬)
ITEM_ICONS = (
    ("meat", _("Meat")),
    ("barrel-bomb", _("Barrel bomb")),
    ("ball", _("Ball")),
    ("ammo", _("Ammo")),
    ("bottle", _("Bottle")),
    ("monster-material", _("Monster material")),
    ("medicine", _("Medicine")),
)


# How each attribute on several card types is searched, declared once and given to each of
# its fields (the search language's field; facet=True: a filter of the set pages and the API)
ATTACK = Searchable(example="attack>=3")
REACH = Searchable(facet=True, example="reach:2")
COST = Searchable(label=_("Cost"), example="cost<2")
ITEM = Searchable(name="item", facet=True, label=_("Item icon"), example="item:meat")


def _stat(label: StrOrPromise, *, required: bool = True, max_value: int = 99) -> forms.IntegerField:
    return forms.IntegerField(label=label, min_value=0, max_value=max_value, required=required)


def _items(*, min_items: int = 0) -> ChoiceListField:
    return ChoiceListField(label=_("Item icons"), choices=ITEM_ICONS, min_items=min_items)


class HunterAttributes(AttributeSchema):
    # monster-hunter.md:15-16
    attack = attribute(_stat(_("Attack")), ATTACK, face=True)
    movement = attribute(_stat(_("Movement")), face=True)
    reach = attribute(_stat(_("Reach")), REACH, face=True)
    item_icons = attribute(_items(), ITEM, face=True)


class MonsterAttributes(AttributeSchema):
    # monster-hunter.md:17-19
    hp = attribute(
        forms.IntegerField(label=_("HP"), min_value=1, max_value=99),
        Searchable(facet=True, example="hp>=10"),
        face=True,
    )
    attack = attribute(_stat(_("Attack")), ATTACK, face=True)
    movement = _stat(_("Movement"))
    reach = attribute(_stat(_("Reach")), REACH, face=True)
    rank = attribute(
        forms.IntegerField(label=_("Rank (HR points)"), min_value=0, max_value=20),
        Searchable(facet=True, label=_("Rank"), example="rank<=2"),
        face=True,
    )
    material_points = _stat(_("Material points"))
    weak_point = StrictBooleanField(label=_("Weak point"), required=False)
    main_target = StrictBooleanField(label=_("Main target"), required=False)
    one_per_field = StrictBooleanField(label=_("One per whole field"), required=False)


class WeaponAttributes(AttributeSchema):
    # monster-hunter.md:20-24; cost in material points (monster-hunter.md:60)
    weapon_icon = attribute(
        forms.ChoiceField(label=_("Weapon icon"), choices=WEAPON_ICONS),
        Searchable(name="weapon", facet=True, example="weapon:great-sword"),
        face=True,
    )
    attack = attribute(_stat(_("Attack")), ATTACK, face=True)
    movement = _stat(_("Movement"))
    reach = attribute(_stat(_("Reach")), REACH, face=True)
    item_icons = attribute(_items(), ITEM)
    cost = attribute(_stat(_("Cost (material points)")), COST, face=True)


class ArmorAttributes(AttributeSchema):
    # monster-hunter.md:25
    defence = attribute(_stat(_("Defence")), face=True)
    cost = attribute(_stat(_("Cost (material points)")), COST, face=True)


class ItemAttributes(AttributeSchema):
    # monster-hunter.md:26-28: usable when any icon matches the hunter's or weapon's
    item_icons = attribute(_items(min_items=1), ITEM, face=True)


SPEC = GameSpec(
    slug=GAME.slug,
    name_en="Monster Hunter TCG",
    name_ja="モンスターハンター トレーディングカードゲーム",
    publisher="Capcom",
    years="2007–2008",
    rules_digest=GAME.digest,
    card_types=(
        CardType("hunter", _("Hunter"), HunterAttributes),
        CardType("monster", _("Monster"), MonsterAttributes),
        CardType("weapon", _("Weapon"), WeaponAttributes),
        CardType("armor", _("Armor"), ArmorAttributes),
        CardType("item", _("Item"), ItemAttributes),
    ),
    sort_order=GAME.sort_order,
    accent="#b5541c",
)
