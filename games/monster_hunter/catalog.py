"""Monster Hunter TCG (2007): card types and attributes from shared/rules/monster-hunter.md
("Card types", lines 14-28)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django import forms
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from catalog.attributes import AttributeSchema, ChoiceListField, StrictBooleanField
from catalog.spec import CardType, Facet, GameSpec
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


def _stat(label: StrOrPromise, *, required: bool = True, max_value: int = 99) -> forms.IntegerField:
    return forms.IntegerField(label=label, min_value=0, max_value=max_value, required=required)


class HunterAttributes(AttributeSchema):
    # monster-hunter.md:15-16
    attack = _stat(_("Attack"))
    movement = _stat(_("Movement"))
    reach = _stat(_("Reach"))
    item_icons = ChoiceListField(label=_("Item icons"), choices=ITEM_ICONS)
    face_keys = ("attack", "movement", "reach", "item_icons")


class MonsterAttributes(AttributeSchema):
    # monster-hunter.md:17-19
    attack = _stat(_("Attack"))
    movement = _stat(_("Movement"))
    reach = _stat(_("Reach"))
    hp = forms.IntegerField(label=_("HP"), min_value=1, max_value=99)
    rank = forms.IntegerField(label=_("Rank (HR points)"), min_value=0, max_value=20)
    material_points = _stat(_("Material points"))
    weak_point = StrictBooleanField(label=_("Weak point"), required=False)
    main_target = StrictBooleanField(label=_("Main target"), required=False)
    one_per_field = StrictBooleanField(label=_("One per whole field"), required=False)
    face_keys = ("hp", "attack", "reach", "rank")


class WeaponAttributes(AttributeSchema):
    # monster-hunter.md:20-24; cost in material points (monster-hunter.md:60)
    weapon_icon = forms.ChoiceField(label=_("Weapon icon"), choices=WEAPON_ICONS)
    attack = _stat(_("Attack"))
    movement = _stat(_("Movement"))
    reach = _stat(_("Reach"))
    item_icons = ChoiceListField(label=_("Item icons"), choices=ITEM_ICONS)
    cost = _stat(_("Cost (material points)"))
    face_keys = ("weapon_icon", "attack", "reach", "cost")


class ArmorAttributes(AttributeSchema):
    # monster-hunter.md:25
    defence = _stat(_("Defence"))
    cost = _stat(_("Cost (material points)"))
    face_keys = ("defence", "cost")


class ItemAttributes(AttributeSchema):
    # monster-hunter.md:26-28: usable when any icon matches the hunter's or weapon's
    item_icons = ChoiceListField(label=_("Item icons"), choices=ITEM_ICONS, min_items=1)
    face_keys = ("item_icons",)


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
    facets=(
        Facet("weapon_icon", _("Weapon icon"), "choice", WEAPON_ICONS),
        Facet("item_icons", _("Item icon"), "list", ITEM_ICONS),
        Facet("rank", _("Rank"), "range"),
        Facet("hp", _("HP"), "range"),
        Facet("reach", _("Reach"), "range"),
    ),
    sort_order=GAME.sort_order,
    # the product page's zone headings, in the words of the deck rules (deck.py)
    extra={"zones": {"hunter": capfirst(_("hunter"))}},
    accent="#b5541c",
)
