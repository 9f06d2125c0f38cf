"""The test hand and odds API, mounted under /api/v1/ (``include("simulator.testhands.api")``):

- ``GET decks/{public_id}/test-hand/?seed=&turns=``: a deal by the game's opening rules (a new
  seed when none is given, returned so the hand replays), with the game's panels (what its
  engine makes of the hand);
- ``GET decks/{public_id}/odds/?group=&k=&turns=``: exact chances by turn.

Reads only: private decks are 404 to all but their owner; every 400 names its field.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from django.urls import URLPattern, path
from django.utils.text import format_lazy
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from catalog.spec import get_game
from decks.api import schema as deck_schema
from decks.api.access import DeckApiView, deck_for_reader
from games import registry
from simulator.engine.cards import SimDeck
from simulator.engine.params import Param
from simulator.engine.schedule import DrawSchedule
from simulator.engine.setup import SCHEDULE_PARAM_NAMES
from simulator.testhands.dealing import (
    MAX_DEAL_TURNS,
    MAX_K,
    MAX_ODDS_TURNS,
    deal,
)
from simulator.testhands.forms import TestHandForm, field_errors
from simulator.testhands.panels import DealFacts, panel_results
from simulator.testhands.views import (
    NEW_SEED_BOUND,
    HandDeck,
    hand_deck,
    odds_form_for,
    odds_result,
    schedule_summary,
)

TAG = "test hands and odds"

# --- Output ----------------------------------------------------------------------------------


class ScheduleOutputSerializer(serializers.Serializer[Any]):
    opening = serializers.IntegerField(help_text=_("Cards in the opening hand (turn 0)."))
    per_turn = serializers.IntegerField(help_text=_("Cards drawn each turn."))
    draws_on_first_turn = serializers.BooleanField(
        help_text=_("Whether turn 1 draws too (otherwise draws start at turn 2).")
    )
    refill_to = serializers.IntegerField(
        help_text=_("The hand size an end phase draws back to (0: no end-phase draw).")
    )
    used_per_turn = serializers.IntegerField(
        help_text=_("Cards a turn is taken to use, for the end phase's draw.")
    )
    end_phase_draws = serializers.IntegerField(help_text=_("Cards each end phase draws."))
    summary = serializers.CharField()
    note = serializers.CharField(help_text=_("What the game's schedule assumes."))


class DealtCardOutputSerializer(serializers.Serializer[Any]):
    index = serializers.IntegerField(help_text=_("The card's index among the deck's cards."))
    code = serializers.CharField()
    name = serializers.CharField()
    card_type = serializers.CharField()
    variant = serializers.CharField()


class TurnDrawOutputSerializer(serializers.Serializer[Any]):
    turn = serializers.IntegerField(help_text=_("0: the opening hand."))
    wanted = serializers.IntegerField(help_text=_("Cards the schedule draws on this turn."))
    missing = serializers.IntegerField(help_text=_("Cards the empty deck could not give."))
    cards = DealtCardOutputSerializer(many=True)


#: the panel whose ``damage`` the deprecated top-level ``fatigue`` repeats, for one version
FATIGUE_PANEL = "fatigue"


# ``fatigue`` moved under ``panels`` (a game's own value); kept at the top for one version
@extend_schema_serializer(deprecate_fields=["fatigue"])
class TestHandOutputSerializer(serializers.Serializer[Any]):
    deck = serializers.CharField(help_text=_("The deck's public id."))
    game = serializers.CharField()
    seed = serializers.IntegerField(help_text=_("Send it again to deal the same cards."))
    turns = serializers.IntegerField()
    params = serializers.DictField(
        child=serializers.IntegerField(), help_text=_("The game's adjustable schedule numbers.")
    )
    schedule = ScheduleOutputSerializer()
    deck_size = serializers.IntegerField()
    remaining = serializers.IntegerField(help_text=_("Cards left in the deck."))
    missing = serializers.IntegerField(help_text=_("Cards the empty deck could not give."))
    ran_out_at = serializers.IntegerField(
        allow_null=True, help_text=_("The first turn that could not draw all its cards.")
    )
    empty_note = serializers.CharField(
        allow_null=True, help_text=_("What an empty deck means in this game, once it is empty.")
    )
    fatigue = serializers.IntegerField(
        help_text=_(
            "Deprecated: read panels.fatigue.damage instead; this field will be removed in the "
            "next version. The damage taken so far for the cards not drawn (0 where the game's "
            "panels have none)."
        )
    )
    draws = TurnDrawOutputSerializer(many=True)
    hand = serializers.ListField(
        child=serializers.CharField(), help_text=_("Codes of every card seen, in order.")
    )
    panels = serializers.DictField(
        child=serializers.JSONField(allow_null=True),
        help_text=_(
            "What the game's engine makes of the hand, by panel (for example the best "
            "formation or the strongest attack); null where a panel has nothing to show."
        ),
    )


class OddsRowOutputSerializer(serializers.Serializer[Any]):
    turn = serializers.IntegerField(help_text=_("0: the opening hand."))
    seen = serializers.IntegerField(help_text=_("Cards seen by then."))
    probability = serializers.FloatField(help_text=_("Exact, from 0 to 1."))


class OddsOutputSerializer(serializers.Serializer[Any]):
    deck = serializers.CharField()
    game = serializers.CharField()
    group = serializers.CharField(help_text=_("The group as read (canonical form)."))
    group_label = serializers.CharField(help_text=_("The group as people read it."))
    group_size = serializers.IntegerField(help_text=_("Copies of the group in the deck."))
    deck_size = serializers.IntegerField()
    k = serializers.IntegerField()
    turns = serializers.IntegerField()
    params = serializers.DictField(child=serializers.IntegerField())
    schedule = ScheduleOutputSerializer()
    assumptions = serializers.ListField(child=serializers.CharField())
    rows = OddsRowOutputSerializer(many=True)


# --- Documentation of the inputs -------------------------------------------------------------


def _query(name: str, kind: Any, description: Any, *, required: bool = False) -> Any:
    return OpenApiParameter(
        name, kind, OpenApiParameter.QUERY, description=description, required=required
    )


def _schedule_parameter(name: str) -> OpenApiParameter:
    """A schedule number as a query parameter, described with the games that take it."""
    takers: list[tuple[str, Param]] = []
    for game in registry.all_games():
        found = next((p for p in game.setup.params.params if p.name == name), None)
        if found is not None:
            takers.append((get_game(game.slug).name_en, found))
    label = takers[0][1].label if takers else name
    games = ", ".join(
        f"{game} ({p.minimum:g}-{p.maximum:g}, default {p.default})" for game, p in takers
    )
    description = format_lazy(
        _("{label}. Games that take it: {games}; other games refuse it."),
        label=_(label),  # marked with N_ where it is declared
        games=games or "—",
    )
    return _query(name, OpenApiTypes.INT, description)


SCHEDULE_PARAMETERS = [_schedule_parameter(name) for name in SCHEDULE_PARAM_NAMES]
TEST_HAND_PARAMETERS = [
    deck_schema.DECK_ID,
    deck_schema.LANGUAGE_HEADER,
    _query(
        "seed",
        OpenApiTypes.INT,
        _("0 to 2^63-1; the same seed deals the same cards. Left out: a new one (returned)."),
    ),
    _query(
        "turns",
        OpenApiTypes.INT,
        format_lazy(
            _("Turns to deal after the opening hand (0-{max}, default 0)."), max=MAX_DEAL_TURNS
        ),
    ),
    *SCHEDULE_PARAMETERS,
]
ODDS_PARAMETERS = [
    deck_schema.DECK_ID,
    deck_schema.LANGUAGE_HEADER,
    _query(
        "group",
        OpenApiTypes.STR,
        _(
            "The cards counted: card:<code>, type:<card type>, attr:<key>=<value> (a choice, "
            "list or yes/no attribute: true/false) or attr:<key>>=<n> (a number attribute), "
            "keys from the game's facets."
        ),
        required=True,
    ),
    _query(
        "k", OpenApiTypes.INT, format_lazy(_("At least this many (1-{max}, default 1)."), max=MAX_K)
    ),
    _query(
        "turns",
        OpenApiTypes.INT,
        format_lazy(_("Up to this turn (0-{max}, default 10)."), max=MAX_ODDS_TURNS),
    ),
    *SCHEDULE_PARAMETERS,
]

# --- Views -----------------------------------------------------------------------------------


def _schedule(hd: HandDeck, schedule: DrawSchedule) -> dict[str, Any]:
    return {
        "opening": schedule.opening,
        "per_turn": schedule.per_turn,
        "draws_on_first_turn": schedule.draws_on_first_turn,
        "refill_to": schedule.refill_to,
        "used_per_turn": schedule.used_per_turn,
        "end_phase_draws": schedule.end_phase_draws,
        "summary": schedule_summary(schedule),
        "note": hd.setup.note_for(schedule, gettext, ngettext),
    }


def _card(sim: SimDeck, index: int) -> dict[str, Any]:
    card = sim.cards[index]
    return {
        "index": index,
        "code": card.code,
        "name": card.name,
        "card_type": card.card_type,
        "variant": card.variant,
    }


def _deprecated_fatigue(panels: dict[str, Any]) -> int:
    """The old top-level ``fatigue``: the fatigue panel's damage, 0 without one."""
    data = panels.get(FATIGUE_PANEL)
    return int(data.get("damage", 0)) if isinstance(data, Mapping) else 0


class TestHandApi(DeckApiView):
    @extend_schema(
        tags=[TAG],
        summary=_("Deal a test hand"),
        parameters=TEST_HAND_PARAMETERS,
        responses={
            200: TestHandOutputSerializer,
            400: deck_schema.BAD_REQUEST,
            404: deck_schema.NOT_FOUND,
        },
    )
    def get(self, request: Request, public_id: str) -> Response:
        """The opening hand and each turn's draws, dealt by the game's opening rules from one
        shuffle of the deck; a seed always deals the same cards."""
        hd = hand_deck(deck_for_reader(request, public_id))
        form = TestHandForm(request.query_params, setup=hd.setup, turn_field="turns")
        if not form.is_valid():
            raise ValidationError(field_errors(form))
        seed = form.cleaned_data["seed"]
        if seed is None:
            seed = random.SystemRandom().randrange(1, NEW_SEED_BOUND)
        schedule = form.schedule
        dealt = deal(hd.sim, seed=seed, turns=form.turn, schedule=schedule)
        hand = dealt.hand
        slug = hd.deck.game.slug
        panels = {
            r.panel.key: r.data
            for r in panel_results(slug, hd.sim, hand, DealFacts(missing=dealt.missing))
        }
        payload = {
            "deck": hd.deck.public_id,
            "game": slug,
            "seed": seed,
            "turns": dealt.turns,
            "params": form.params,
            "schedule": _schedule(hd, schedule),
            "deck_size": dealt.deck_size,
            "remaining": dealt.remaining,
            "missing": dealt.missing,
            "ran_out_at": dealt.ran_out_at,
            "empty_note": gettext(hd.setup.empty_note) if dealt.remaining == 0 else None,
            "fatigue": _deprecated_fatigue(panels),
            "draws": [
                {
                    "turn": d.turn,
                    "wanted": d.wanted,
                    "missing": d.missing,
                    "cards": [_card(hd.sim, i) for i in d.cards],
                }
                for d in dealt.draws
            ],
            "hand": [hd.sim.cards[i].code for i in hand],
            "panels": panels,
        }
        return Response(TestHandOutputSerializer(payload).data)


class OddsApi(DeckApiView):
    @extend_schema(
        tags=[TAG],
        summary=_("Exact odds by turn"),
        parameters=ODDS_PARAMETERS,
        responses={
            200: OddsOutputSerializer,
            400: deck_schema.BAD_REQUEST,
            404: deck_schema.NOT_FOUND,
        },
    )
    def get(self, request: Request, public_id: str) -> Response:
        """The exact chance (hypergeometric) to have seen at least ``k`` cards of ``group``
        by each turn from the opening hand (turn 0) to ``turns``, by the game's schedule."""
        hd = hand_deck(deck_for_reader(request, public_id))
        # the pages open on a default question; a program must say what it asks
        form = odds_form_for(hd, request.query_params, default=False, choices=False)
        if not form.is_valid():
            raise ValidationError(field_errors(form))
        result = odds_result(hd, form)
        payload = {
            "deck": hd.deck.public_id,
            "game": hd.deck.game.slug,
            "group": result.group,
            "group_label": result.label,
            "group_size": result.size,
            "deck_size": result.deck_size,
            "k": result.k,
            "turns": result.turns,
            "params": form.params,
            "schedule": _schedule(hd, result.schedule),
            "assumptions": result.assumptions,
            "rows": [
                {"turn": r.turn, "seen": r.seen, "probability": r.probability} for r in result.rows
            ],
        }
        return Response(OddsOutputSerializer(payload).data)


app_name = "testhands-api"

urlpatterns: list[URLPattern] = [
    path("decks/<str:public_id>/test-hand/", TestHandApi.as_view(), name="deck-test-hand"),
    path("decks/<str:public_id>/odds/", OddsApi.as_view(), name="deck-odds"),
]
