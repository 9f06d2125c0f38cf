"""Input and output of the deck tuning API (issue 23): the shapes ``tuning_create`` takes
and ``TuningReport.as_dict`` gives, declared for the OpenAPI schema."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from simulator.engine.goals import Goal
from simulator.models import RunStatus, TuningSource
from simulator.tuning.candidates import MAX_LIST_LINES
from simulator.tuning.forms import goal_choice_label


class TuningCreateInputSerializer(serializers.Serializer[Any]):
    # Only the types are checked here; bounds, goals and cards are the service's, so the
    # pages and the API refuse the same things with the same words.
    goal = serializers.CharField(
        required=False,
        allow_null=True,
        allow_blank=True,
        default=None,
        max_length=60,
        help_text=_("One of the engine's goal codes (GET /api/v1/engines/); left out: its first."),
    )
    turn = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text=_("The turn a goal read at a turn is read at; left out: the goal's own."),
    )
    source = serializers.CharField(  # type: ignore[assignment]  # a field, not Field.source
        required=False,
        default=TuningSource.OWNED,
        max_length=10,
        help_text=_("Where the cards to try come from: owned, free, all or list."),
    )
    cards = serializers.ListField(
        child=serializers.CharField(allow_blank=True, max_length=200),
        required=False,
        default=list,
        max_length=MAX_LIST_LINES * 2,
        help_text=_("For the source list: the cards to try, one name or code each."),
    )
    pins = serializers.ListField(
        child=serializers.CharField(max_length=100),
        required=False,
        default=list,
        max_length=400,
        help_text=_("Codes of the deck's cards never to cut."),
    )
    sizes = serializers.BooleanField(
        required=False, default=False, help_text=_("Also try one copy more or fewer.")
    )
    budget_games = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text=_("Game plays the race may spend in all (give this or budget_seconds)."),
    )
    budget_seconds = serializers.FloatField(
        required=False,
        allow_null=True,
        default=None,
        help_text=_("Seconds of worker time the race may spend; neither given: the default."),
    )
    seed = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text=_("From 0 to 2^63 − 1; left out, a new one is drawn."),
    )
    params = serializers.DictField(
        required=False,
        default=dict,
        help_text=_("The engine's parameters by name; those left out take their defaults."),
    )


class TuningApplyInputSerializer(serializers.Serializer[Any]):
    move = serializers.IntegerField(help_text=_("The move's index (a ranking row's index)."))


class EstimateOutputSerializer(serializers.Serializer[Any]):
    value = serializers.FloatField(allow_null=True)
    low = serializers.FloatField(allow_null=True)
    high = serializers.FloatField(allow_null=True)
    n = serializers.IntegerField()


class CardNameOutputSerializer(serializers.Serializer[Any]):
    code = serializers.CharField()
    name_en = serializers.CharField()
    name_ja = serializers.CharField()


class TuningGoalOutputSerializer(serializers.Serializer[Any]):
    code = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]  # a field, not Field.label
    turn = serializers.IntegerField(allow_null=True)
    # not a ChoiceField: the engines' parameters already name an enum "kind"
    kind = serializers.CharField(
        allow_null=True, help_text=_("rate (a share of games) or mean (a number per game).")
    )
    direction = serializers.ChoiceField(choices=["higher", "lower"])


class RankedMoveOutputSerializer(serializers.Serializer[Any]):
    index = serializers.IntegerField(help_text=_("The move's index, to apply it."))
    rank = serializers.IntegerField()
    cut = CardNameOutputSerializer(allow_null=True, help_text=_("The card cut (null: none)."))
    add = CardNameOutputSerializer(allow_null=True, help_text=_("The card added (null: none)."))
    effect = EstimateOutputSerializer(
        help_text=_(
            "The move's change to the goal with its 95-per-cent interval, signed so that better is "
            "positive (a rate's in shares of games, not per cent)."
        )
    )
    games = serializers.IntegerField()
    dropped_in = serializers.IntegerField(
        allow_null=True, help_text=_("The round it was dropped after (null: still in).")
    )
    standing = serializers.ChoiceField(choices=["leader", "close", "behind", "dropped"])


class TuningOutputSerializer(serializers.Serializer[Any]):
    id = serializers.CharField()
    url = serializers.CharField()
    page = serializers.CharField()
    status = serializers.ChoiceField(choices=RunStatus.choices)
    failure = serializers.CharField(allow_null=True)
    game = serializers.CharField()
    deck = serializers.CharField(allow_null=True)
    revision = serializers.IntegerField(allow_null=True)
    goal = TuningGoalOutputSerializer()
    source = serializers.ChoiceField(  # type: ignore[assignment]  # a field, not Field.source
        choices=TuningSource.choices
    )
    pins = serializers.ListField(child=serializers.CharField())
    sizes = serializers.BooleanField()
    seed = serializers.IntegerField()
    params = serializers.DictField()
    budget = serializers.IntegerField(help_text=_("Game plays the race may spend in all."))
    spent = serializers.IntegerField()
    saved = serializers.IntegerField(
        help_text=_("Game plays saved by dropping the moves clearly behind.")
    )
    progress = serializers.IntegerField(help_text=_("Per cent of the budget spent."))
    rounds = serializers.IntegerField()
    games = serializers.IntegerField(help_text=_("Games each move still in the race played."))
    moves = serializers.IntegerField()
    in_race = serializers.IntegerField()
    illegal_moves = serializers.IntegerField(
        help_text=_("Moves left out because they would break a rule of the deck.")
    )
    baseline = EstimateOutputSerializer(help_text=_("The goal's value for the deck as it is."))
    ranking = RankedMoveOutputSerializer(many=True)
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    worker_seconds = serializers.FloatField()


class TuningAppliedOutputSerializer(serializers.Serializer[Any]):
    deck = serializers.CharField(help_text=_("The deck's public id."))
    revision = serializers.IntegerField(help_text=_("The deck's new revision number."))
    move = serializers.CharField(help_text=_("The move made, in words."))
    missing = serializers.IntegerField(
        help_text=_("Copies of the added card the deck needs that your collection lacks.")
    )
    note = serializers.CharField(help_text=_("The same, in words (empty: no card added)."))


class GoalOutputSerializer(serializers.Serializer[Any]):
    code = serializers.CharField()
    label = serializers.CharField(  # type: ignore[assignment]  # a field, not Field.label
        help_text=_("In your language; a goal read at a turn shows the turn as N.")
    )
    kind = serializers.CharField(
        help_text=_("rate (a share of games) or mean (a number per game).")
    )
    direction = serializers.ChoiceField(choices=["higher", "lower"])
    turn = serializers.IntegerField(
        allow_null=True, help_text=_("The turn it is read at by default (null: not at a turn).")
    )
    help = serializers.CharField()


def goal_data(goal: Goal) -> dict[str, Any]:
    return {
        "code": goal.code,
        "label": goal_choice_label(goal),
        "kind": goal.kind,
        "direction": "higher" if goal.direction > 0 else "lower",
        "turn": goal.turn,
        "help": gettext(goal.help) if goal.help else "",
    }
