"""Marvel Recharge (2001): card types and attributes from shared/rules/recharge.md
("Cards", lines 9-26)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django import forms
from django.utils.translation import gettext_lazy as _

from catalog.attributes import AttributeSchema, ChoiceListField, StrictBooleanField
from catalog.spec import CardType, Facet, GameSpec
from games.recharge import GAME

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

# recharge.md:10-11 -- four colours, 1-2 per side edge
COLOURS = (
    ("red", _("Red (good)")),
    ("green", _("Green (evil)")),
    ("yellow", _("Yellow (female)")),
    ("blue", _("Blue (mutant)")),
)
POWER_PLUS = "power-plus"


def _edge(label: StrOrPromise) -> ChoiceListField:
    return ChoiceListField(label=label, choices=COLOURS, min_items=1, max_items=2)


def _power(label: StrOrPromise) -> forms.IntegerField:
    return forms.IntegerField(label=label, min_value=0, max_value=200)


class HeroAttributes(AttributeSchema):
    # recharge.md:12-13
    power = _power(_("Power"))
    left = _edge(_("Left edge colours"))
    right = _edge(_("Right edge colours"))
    special = StrictBooleanField(label=_("Special card"), required=False)
    face_keys = ("power", "left", "right")


class TeamworkAttributes(AttributeSchema):
    # recharge.md:14-16
    power = _power(_("Power"))
    left = _edge(_("Left edge colours"))
    right = _edge(_("Right edge colours"))
    special = StrictBooleanField(label=_("Special card"), required=False)
    face_keys = ("power", "left", "right")


class PowerAttributes(AttributeSchema):
    # recharge.md:17-20: a power value per edge; only the attached side's value counts
    left = _edge(_("Left edge colours"))
    left_power = _power(_("Left edge power"))
    right = _edge(_("Right edge colours"))
    right_power = _power(_("Right edge power"))
    special = StrictBooleanField(label=_("Special card"), required=False)
    face_keys = ("left", "left_power", "right", "right_power")


SPEC = GameSpec(
    slug=GAME.slug,
    name_en="Marvel Recharge",
    name_ja="マーベル リチャージ",
    publisher="Marvel",
    years="2001",
    rules_digest=GAME.digest,
    card_types=(
        CardType("hero", _("Hero"), HeroAttributes),
        CardType("teamwork", _("Teamwork"), TeamworkAttributes),
        CardType("power", _("Power"), PowerAttributes),
    ),
    facets=(
        Facet("left", _("Left edge colour"), "list", COLOURS),
        Facet("right", _("Right edge colour"), "list", COLOURS),
        Facet("power", _("Power"), "range"),
        Facet("special", _("Special card"), "bool"),
    ),
    # recharge.md:23-25
    variants=((POWER_PLUS, _("Power Plus")),),
    sort_order=GAME.sort_order,
    accent="#c62828",
)
