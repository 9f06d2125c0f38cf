"""マッツァンカードゲーム (2019-): card types and attributes from shared/rules/mattsan.md
("Facts from the publisher's pages", lines 7-16)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from catalog.attributes import AttributeSchema, StrictBooleanField
from catalog.spec import CardType, Facet, GameSpec
from games.mattsan import GAME


class UnitAttributes(AttributeSchema):
    # mattsan.md:12 (units), 30-31 (HP, soul decides the soul draw)
    hp = forms.IntegerField(label=_("HP"), min_value=1, max_value=99)
    soul = forms.IntegerField(label=_("Soul"), min_value=0, max_value=9)
    family = forms.CharField(label=_("Family"), max_length=30, required=False)
    face_keys = ("hp", "soul", "family")


class TrumpAttributes(AttributeSchema):
    # mattsan.md:15-16: trump cards are paid for with soul charge
    cost = forms.IntegerField(label=_("Soul charge cost"), min_value=0, max_value=9)
    face_keys = ("cost",)


class TrapAttributes(AttributeSchema):
    # mattsan.md:42-43: traps answer the opponent's interference
    face_keys = ()


class TerrainAttributes(AttributeSchema):
    # mattsan.md:44-48: "turn sideways to use" terrain
    sideways = StrictBooleanField(label=_("Turned sideways to use"), required=False)
    face_keys = ("sideways",)


class PrintingAttributes(AttributeSchema):
    # mattsan.md:11: rarities up to ★5
    rarity = forms.IntegerField(label=_("Rarity (★)"), min_value=1, max_value=5, required=False)
    face_keys = ("rarity",)


SPEC = GameSpec(
    slug=GAME.slug,
    name_en="Mattsan Card Game",
    name_ja="マッツァンカードゲーム",
    publisher="いい大人達",
    years="2019–",
    rules_digest=GAME.digest,
    card_types=(
        CardType("unit", _("Unit"), UnitAttributes),
        CardType("trump", _("Trump"), TrumpAttributes),
        CardType("trap", _("Trap"), TrapAttributes),
        CardType("terrain", _("Terrain"), TerrainAttributes),
    ),
    printing_schema=PrintingAttributes,
    facets=(
        Facet("hp", _("HP"), "range"),
        Facet("soul", _("Soul"), "range"),
        Facet("cost", _("Soul charge cost"), "range"),
    ),
    sort_order=GAME.sort_order,
    accent="#2e7d32",
)
