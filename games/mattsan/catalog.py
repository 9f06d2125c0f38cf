"""マッツァンカードゲーム (2019-): card types and attributes from shared/rules/mattsan.md
("Facts from the publisher's pages", lines 7-16)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from catalog.attributes import AttributeSchema, Searchable, StrictBooleanField, attribute
from catalog.spec import CardType, GameSpec
from games.mattsan import GAME

# Each attribute is declared once, by its field: the search language's field (``Searchable``),
# a facet of the set pages and the API (``facet=True``), the card face (``face=True``).


class UnitAttributes(AttributeSchema):
    # mattsan.md:12 (units), 30-31 (HP, soul decides the soul draw)
    hp = attribute(
        forms.IntegerField(label=_("HP"), min_value=1, max_value=99),
        Searchable(facet=True, example="hp>=5"),
        face=True,
    )
    soul = attribute(
        forms.IntegerField(label=_("Soul"), min_value=0, max_value=9),
        Searchable(facet=True, example="soul:2"),
        face=True,
    )
    family = attribute(
        forms.CharField(label=_("Family"), max_length=30, required=False),
        Searchable(example="family:商店街"),
        face=True,
    )


class TrumpAttributes(AttributeSchema):
    # mattsan.md:15-16: trump cards are paid for with soul charge
    cost = attribute(
        forms.IntegerField(label=_("Soul charge cost"), min_value=0, max_value=9),
        Searchable(facet=True, example="cost<=1"),
        face=True,
    )


class TrapAttributes(AttributeSchema):
    # mattsan.md:42-43: traps answer the opponent's interference
    pass


class TerrainAttributes(AttributeSchema):
    # mattsan.md:44-48: "turn sideways to use" terrain
    sideways = attribute(
        StrictBooleanField(label=_("Turned sideways to use"), required=False), face=True
    )


class PrintingAttributes(AttributeSchema):
    # mattsan.md:11: rarities up to ★5
    rarity = attribute(
        forms.IntegerField(label=_("Rarity (★)"), min_value=1, max_value=5, required=False),
        Searchable(example="rarity:5"),
        face=True,
    )


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
    sort_order=GAME.sort_order,
    accent="#2e7d32",
)
