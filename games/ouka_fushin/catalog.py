"""央華封神 TCG (1998): card types and attributes from shared/rules/ouka-fushin.md
("Card types", lines 14-32)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django import forms
from django.utils.translation import gettext_lazy as _

from catalog.attributes import AttributeSchema, Searchable, StringListField, attribute
from catalog.spec import CardType, GameSpec
from games.ouka_fushin import GAME

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

# ouka-fushin.md:32 -- the eight schools (洞統)
SCHOOLS = (
    ("goton", _("五遁 (Five Escapes)")),
    ("henge-genjutsu", _("変化・幻術 (Transformation & Illusion)")),
    ("shoki", _("召鬼 (Summoning)")),
    ("chosho", _("長嘯 (Long Whistle)")),
    ("fusui-bokusen", _("風水・卜占 (Geomancy & Divination)")),
    ("kinju", _("禁呪 (Forbidden Curses)")),
    ("fuko", _("巫蠱 (Witchcraft)")),
    ("enmi-ensho", _("厭魅・厭勝 (Hexes & Wards)")),
)
# ouka-fushin.md:26-27 -- story kinds
STORY_KINDS = (
    ("normal", _("Normal")),
    ("event", _("Event")),
    ("effect", _("Effect")),
    ("accident", _("Accident")),
)
# ouka-fushin.md:16-17 -- the three abilities a check may use; "any" on stories (line 29)
ABILITIES = (
    ("combat", _("Combat")),
    ("exploration", _("Exploration")),
    ("negotiation", _("Negotiation")),
    ("any", _("Any ability")),
)
TIMINGS = (("before", _("Before the check")), ("after", _("After the check")))


# a protagonist's and a character's school, declared once (a search field and a facet)
SCHOOL = Searchable(facet=True, example="school:goton")


def _ability(label: StrOrPromise) -> forms.IntegerField:
    return forms.IntegerField(label=label, min_value=0, max_value=9)


def _school() -> forms.ChoiceField:
    return forms.ChoiceField(label=_("School"), choices=SCHOOLS)


def _bonus() -> forms.IntegerField:
    return forms.IntegerField(label=_("Bonus points"), min_value=0, max_value=200)


class ProtagonistAttributes(AttributeSchema):
    # ouka-fushin.md:15-18: a school and three abilities at each destiny level 1-3
    character = forms.CharField(label=_("Character"), max_length=60)
    school = attribute(_school(), SCHOOL, face=True)
    combat_1 = attribute(_ability(_("Combat (destiny 1)")), face=True)
    exploration_1 = attribute(_ability(_("Exploration (destiny 1)")), face=True)
    negotiation_1 = attribute(_ability(_("Negotiation (destiny 1)")), face=True)
    combat_2 = _ability(_("Combat (destiny 2)"))
    exploration_2 = _ability(_("Exploration (destiny 2)"))
    negotiation_2 = _ability(_("Negotiation (destiny 2)"))
    combat_3 = _ability(_("Combat (destiny 3)"))
    exploration_3 = _ability(_("Exploration (destiny 3)"))
    negotiation_3 = _ability(_("Negotiation (destiny 3)"))


class MissionAttributes(AttributeSchema):
    # ouka-fushin.md:19-20: a condition (mostly on climax types) and bonus points
    climax_types = attribute(
        StringListField(label=_("Climax types in the condition"), max_items=5), face=True
    )
    bonus = attribute(_bonus(), face=True)


class CharacterAttributes(AttributeSchema):
    # ouka-fushin.md:21-25
    character = forms.CharField(label=_("Character"), max_length=60)
    school = attribute(_school(), SCHOOL, face=True)
    destiny = attribute(
        forms.IntegerField(label=_("Destiny level"), min_value=1, max_value=3),
        Searchable(facet=True, example="destiny>=2"),
        face=True,
    )
    timing = attribute(
        forms.ChoiceField(label=_("Ability timing"), choices=TIMINGS, required=False), face=True
    )


class StoryAttributes(AttributeSchema):
    # ouka-fushin.md:26-29
    story_kind = attribute(
        forms.ChoiceField(label=_("Story kind"), choices=STORY_KINDS),
        Searchable(name="story", facet=True, example="story:event"),
        face=True,
    )
    # a story's keywords and a climax's keyword conditions are free words (仙人, 宝貝…),
    # searched as one field
    keywords = attribute(
        StringListField(label=_("Keywords"), max_items=6),
        Searchable(
            name="keyword", label=_("Keyword"), also=("conditions",), example="keyword:仙人"
        ),
        face=True,
    )
    prerequisites = StringListField(label=_("Prerequisite keywords"), max_items=6)
    target = attribute(
        forms.IntegerField(label=_("Target value"), min_value=1, max_value=30, required=False),
        face=True,
    )
    ability = attribute(
        forms.ChoiceField(label=_("Check ability"), choices=ABILITIES, required=False),
        face=True,
    )
    points = attribute(
        forms.IntegerField(label=_("Points"), min_value=0, max_value=200),
        Searchable(facet=True, example="points>=20"),
        face=True,
    )

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        # A target value needs the ability it is checked with, and the reverse (line 28-29).
        if (data.get("target") is None) != (not data.get("ability")):
            self.add_error("ability", _("A target value and its check ability go together."))
        return data


class ClimaxAttributes(AttributeSchema):
    # ouka-fushin.md:30-31
    climax_type = attribute(forms.CharField(label=_("Climax type"), max_length=30), face=True)
    conditions = attribute(StringListField(label=_("Keyword conditions"), max_items=6), face=True)
    bonus = attribute(_bonus(), face=True)
    extra_bonus = forms.IntegerField(
        label=_("Extra bonus points"), min_value=0, max_value=200, required=False
    )


SPEC = GameSpec(
    slug=GAME.slug,
    name_en="Ouka Fushin TCG",
    name_ja="央華封神 TCG",
    publisher="MediaWorks",
    years="1998–1999",
    rules_digest=GAME.digest,
    card_types=(
        CardType("protagonist", _("Protagonist"), ProtagonistAttributes),
        CardType("mission", _("Mission"), MissionAttributes),
        CardType("character", _("Character"), CharacterAttributes),
        CardType("story", _("Story"), StoryAttributes),
        CardType("climax", _("Climax"), ClimaxAttributes),
    ),
    sort_order=GAME.sort_order,
    accent="#8e3b8a",
)
