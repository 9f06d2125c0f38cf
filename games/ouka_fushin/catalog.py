"""央華封神 TCG (1998): card types and attributes from shared/rules/ouka-fushin.md
("Card types", lines 14-32)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django import forms
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from catalog.attributes import AttributeSchema, StringListField
from catalog.spec import CardType, Facet, GameSpec
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


def _ability(label: StrOrPromise) -> forms.IntegerField:
    return forms.IntegerField(label=label, min_value=0, max_value=9)


class ProtagonistAttributes(AttributeSchema):
    # ouka-fushin.md:15-18: a school and three abilities at each destiny level 1-3
    character = forms.CharField(label=_("Character"), max_length=60)
    school = forms.ChoiceField(label=_("School"), choices=SCHOOLS)
    combat_1 = _ability(_("Combat (destiny 1)"))
    exploration_1 = _ability(_("Exploration (destiny 1)"))
    negotiation_1 = _ability(_("Negotiation (destiny 1)"))
    combat_2 = _ability(_("Combat (destiny 2)"))
    exploration_2 = _ability(_("Exploration (destiny 2)"))
    negotiation_2 = _ability(_("Negotiation (destiny 2)"))
    combat_3 = _ability(_("Combat (destiny 3)"))
    exploration_3 = _ability(_("Exploration (destiny 3)"))
    negotiation_3 = _ability(_("Negotiation (destiny 3)"))
    face_keys = ("school", "combat_1", "exploration_1", "negotiation_1")


class MissionAttributes(AttributeSchema):
    # ouka-fushin.md:19-20: a condition (mostly on climax types) and bonus points
    climax_types = StringListField(label=_("Climax types in the condition"), max_items=5)
    bonus = forms.IntegerField(label=_("Bonus points"), min_value=0, max_value=200)
    face_keys = ("climax_types", "bonus")


class CharacterAttributes(AttributeSchema):
    # ouka-fushin.md:21-25
    character = forms.CharField(label=_("Character"), max_length=60)
    destiny = forms.IntegerField(label=_("Destiny level"), min_value=1, max_value=3)
    school = forms.ChoiceField(label=_("School"), choices=SCHOOLS)
    timing = forms.ChoiceField(label=_("Ability timing"), choices=TIMINGS, required=False)
    face_keys = ("school", "destiny", "timing")


class StoryAttributes(AttributeSchema):
    # ouka-fushin.md:26-29
    story_kind = forms.ChoiceField(label=_("Story kind"), choices=STORY_KINDS)
    keywords = StringListField(label=_("Keywords"), max_items=6)
    prerequisites = StringListField(label=_("Prerequisite keywords"), max_items=6)
    target = forms.IntegerField(label=_("Target value"), min_value=1, max_value=30, required=False)
    ability = forms.ChoiceField(label=_("Check ability"), choices=ABILITIES, required=False)
    points = forms.IntegerField(label=_("Points"), min_value=0, max_value=200)
    face_keys = ("story_kind", "keywords", "target", "ability", "points")

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        # A target value needs the ability it is checked with, and the reverse (line 28-29).
        if (data.get("target") is None) != (not data.get("ability")):
            self.add_error("ability", _("A target value and its check ability go together."))
        return data


class ClimaxAttributes(AttributeSchema):
    # ouka-fushin.md:30-31
    conditions = StringListField(label=_("Keyword conditions"), max_items=6)
    bonus = forms.IntegerField(label=_("Bonus points"), min_value=0, max_value=200)
    extra_bonus = forms.IntegerField(
        label=_("Extra bonus points"), min_value=0, max_value=200, required=False
    )
    climax_type = forms.CharField(label=_("Climax type"), max_length=30)
    face_keys = ("climax_type", "conditions", "bonus")


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
    facets=(
        Facet("school", _("School"), "choice", SCHOOLS),
        Facet("destiny", _("Destiny level"), "range"),
        Facet("story_kind", _("Story kind"), "choice", STORY_KINDS),
        Facet("points", _("Points"), "range"),
    ),
    sort_order=GAME.sort_order,
    # the product page's zone headings, in the words of the deck rules (deck.py)
    extra={
        "zones": {
            "protagonist": capfirst(_("protagonist")),
            "missions": capfirst(_("missions")),
            "substitute": capfirst(_("substitute protagonist")),
            "spares": capfirst(_("spare characters")),
        }
    },
    accent="#8e3b8a",
)
