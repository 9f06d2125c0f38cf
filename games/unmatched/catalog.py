"""Unmatched (2019-): card types and attributes from shared/rules/unmatched.md
("Components per hero" and "Cards", lines 5-14)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from catalog.attributes import AttributeSchema, Searchable, StrictBooleanField, attribute
from catalog.kinds import PRODUCT_KINDS
from catalog.spec import CardType, EmptySchema, GameSpec
from games.unmatched import GAME
from games.unmatched.rules import ANY_FIGHTER


class CharacterAttributes(AttributeSchema):
    # unmatched.md:6-7: hero HP, movement, melee or ranged; sidekicks with HP (default 1)
    hp = attribute(
        forms.IntegerField(label=_("Hero HP"), min_value=1, max_value=99),
        Searchable(example="hp>=15"),
        face=True,
    )
    move = attribute(
        forms.IntegerField(label=_("Move"), min_value=0, max_value=9),
        Searchable(example="move:3"),
        face=True,
    )
    ranged = attribute(StrictBooleanField(label=_("Ranged"), required=True), face=True)
    hero_count = forms.IntegerField(label=_("Hero figures"), min_value=1, max_value=9)
    sidekick = attribute(
        forms.CharField(label=_("Sidekick"), max_length=80, required=False), face=True
    )
    sidekick_hp = forms.IntegerField(
        label=_("Sidekick HP"), min_value=1, max_value=99, required=False
    )
    sidekick_move = forms.IntegerField(
        label=_("Sidekick move"), min_value=0, max_value=9, required=False
    )
    sidekick_ranged = StrictBooleanField(label=_("Sidekick ranged"), required=False)
    sidekick_count = forms.IntegerField(
        label=_("Sidekick tokens"), min_value=1, max_value=9, required=False
    )

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if not data.get("sidekick"):
            for key in ("sidekick_hp", "sidekick_move", "sidekick_ranged", "sidekick_count"):
                if data.get(key) is not None:
                    self.add_error(key, _("Sidekick stats need a sidekick name."))
        return data


class ActionAttributes(AttributeSchema):
    # unmatched.md:10-11: attack/defense/versatile cards carry a value
    value = attribute(
        forms.IntegerField(label=_("Value"), min_value=0, max_value=20),
        Searchable(facet=True, example="value>=3"),
        face=True,
    )


class SchemeAttributes(AttributeSchema):
    # unmatched.md:10: a scheme has no value
    pass


class PrintingAttributes(AttributeSchema):
    # unmatched.md:12-13: the fighter who may play it ("any") and the boost value
    fighter = attribute(
        forms.CharField(label=_("Fighter"), max_length=80),
        Searchable(example="fighter:alice"),
        face=True,
    )
    boost = attribute(
        forms.IntegerField(label=_("Boost"), min_value=0, max_value=9),
        Searchable(facet=True, example="boost:3"),
        face=True,
    )


#: each hero is sold as its own deck (unmatched.md:5-7): the game's own kind of product
HERO_DECK = "hero-deck"

SPEC = GameSpec(
    slug=GAME.slug,
    name_en="Unmatched",
    name_ja="アンマッチ",
    publisher="Restoration Games",
    years="2019–",
    rules_digest=GAME.digest,
    card_types=(
        CardType("character", _("Character card"), CharacterAttributes),
        CardType("attack", pgettext_lazy("Unmatched card type", "Attack"), ActionAttributes),
        CardType("defense", _("Defense"), ActionAttributes),
        CardType("versatile", _("Versatile"), ActionAttributes),
        CardType("scheme", _("Scheme"), SchemeAttributes),
    ),
    printing_schema=PrintingAttributes,
    # a character card is not played by a fighter and has no boost
    printing_schemas={"character": EmptySchema},
    product_kinds=(*PRODUCT_KINDS, (HERO_DECK, _("Hero deck"))),
    # unmatched.md:12: a card any fighter may play names no fighter
    value_labels={"fighter": {ANY_FIGHTER: _("Any fighter")}},
    sort_order=GAME.sort_order,
    accent="#1f6f8b",
)
