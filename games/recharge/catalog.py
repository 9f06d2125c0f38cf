"""Marvel Recharge (2001): card types and attributes from shared/rules/recharge.md
("Cards", lines 9-26)."""

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


# How the attributes every card type has are searched, declared once (facet=True: also a
# filter of the set pages and the API). The edges together, and an edge named with its colour
# (colour:, edge:), are search.py's: they read two attributes at once.
LEFT = Searchable(facet=True, label=_("Left edge colour"), example="left:red")
RIGHT = Searchable(facet=True, label=_("Right edge colour"), example="right:blue")
SPECIAL = Searchable(facet=True, example="special:yes")
# power:/order:power read a power card's edge powers too; the facet (power_min/power_max) reads
# a hero's and a teamwork card's power only
POWER = Searchable(facet=True, also=("left_power", "right_power"), example="power>=50")


def _edge(label: StrOrPromise) -> ChoiceListField:
    return ChoiceListField(label=label, choices=COLOURS, min_items=1, max_items=2)


def _power(label: StrOrPromise) -> forms.IntegerField:
    return forms.IntegerField(label=label, min_value=0, max_value=200)


def _special() -> StrictBooleanField:
    return attribute(StrictBooleanField(label=_("Special card"), required=False), SPECIAL)


class HeroAttributes(AttributeSchema):
    # recharge.md:12-13
    power = attribute(_power(_("Power")), POWER, face=True)
    left = attribute(_edge(_("Left edge colours")), LEFT, face=True)
    right = attribute(_edge(_("Right edge colours")), RIGHT, face=True)
    special = _special()


class TeamworkAttributes(AttributeSchema):
    # recharge.md:14-16
    power = attribute(_power(_("Power")), POWER, face=True)
    left = attribute(_edge(_("Left edge colours")), LEFT, face=True)
    right = attribute(_edge(_("Right edge colours")), RIGHT, face=True)
    special = _special()


class PowerAttributes(AttributeSchema):
    # recharge.md:17-20: a power value per edge; only the attached side's value counts
    left = attribute(_edge(_("Left edge colours")), LEFT, face=True)
    left_power = attribute(_power(_("Left edge power")), face=True)
    right = attribute(_edge(_("Right edge colours")), RIGHT, face=True)
    right_power = attribute(_power(_("Right edge power")), face=True)
    special = _special()


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
    # recharge.md:23-25
    variants=((POWER_PLUS, _("Power Plus")),),
    sort_order=GAME.sort_order,
    accent="#c62828",
)
