"""Input and output of the simulation API: one input serializer per write, and the shapes
a run and an engine are read as."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from simulator.api.tuning_serializers import GoalOutputSerializer, goal_data
from simulator.engine.engine import Engine
from simulator.engine.params import Param
from simulator.models import SimulationRun
from simulator.services import DEFAULT_GAMES


class RunCreateInputSerializer(serializers.Serializer[Any]):
    # Only the types are checked here; bounds and parameters are the service's, so the pages
    # and the API refuse the same things with the same words.
    deck = serializers.CharField(max_length=40, help_text=_("The deck's public id."))
    engine = serializers.CharField(
        max_length=40, help_text=_("The engine's slug (GET /api/v1/engines/).")
    )
    params = serializers.DictField(
        required=False,
        default=dict,
        help_text=_("The engine's parameters by name; those left out take their defaults."),
    )
    games = serializers.IntegerField(
        required=False,
        default=DEFAULT_GAMES,
        help_text=_("How many games to play, from 1 to 1,000,000."),
    )
    seed = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text=_(
            "From 0 to 2^63 − 1; left out, a new one is drawn. The same seed, deck revision and "
            "parameters replay the same games. May exceed 2^53: send it as a string from "
            "JavaScript."
        ),
    )
    chunk_size = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text=_(
            "Games per worker task (the results do not depend on it). Left out, each task is "
            "sized to about half a second of worker time from the engine's measured speed."
        ),
    )


class RunSummaryOutputSerializer(serializers.ModelSerializer[SimulationRun]):
    """A run without its results (the list of runs)."""

    id = serializers.CharField(source="public_id", read_only=True)
    url = serializers.SerializerMethodField()
    page = serializers.SerializerMethodField()
    deck = serializers.SerializerMethodField()
    revision = serializers.IntegerField(source="revision_number", read_only=True, allow_null=True)
    progress = serializers.IntegerField(read_only=True)
    wall_seconds = serializers.FloatField(read_only=True, allow_null=True)

    class Meta:
        model = SimulationRun
        fields = [
            "id",
            "url",
            "page",
            "deck",
            "deck_name",
            "revision",
            "game",
            "engine",
            "engine_version",
            "params",
            "games",
            "seed",
            "chunk_size",
            "status",
            "progress",
            "chunks_done",
            "chunks_total",
            "games_done",
            "created_at",
            "started_at",
            "finished_at",
            "wall_seconds",
            "worker_seconds",
            "estimated_seconds",
            "error",
            "failure",
            "recoveries",
        ]
        read_only_fields = fields

    def get_url(self, run: SimulationRun) -> str:
        return reverse("simulator-api:run-detail", args=[run.public_id])

    def get_page(self, run: SimulationRun) -> str:
        return run.get_absolute_url()

    def get_deck(self, run: SimulationRun) -> str | None:
        return run.deck.public_id if run.deck else None


class RunOutputSerializer(RunSummaryOutputSerializer):
    results = serializers.SerializerMethodField()

    class Meta(RunSummaryOutputSerializer.Meta):
        fields = [*RunSummaryOutputSerializer.Meta.fields, "results"]
        read_only_fields = fields

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_results(self, run: SimulationRun) -> dict[str, Any] | None:
        """The merged metrics and their summary, once the run succeeded (else null)."""
        return run.results if run.status == "succeeded" else None


class ChoiceOutputSerializer(serializers.Serializer[Any]):
    code = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]  # a field, not Field.label


class ParamOutputSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]  # a field, not Field.label
    kind = serializers.ChoiceField(choices=["int", "float", "bool", "choice"])
    default = serializers.JSONField()
    minimum = serializers.FloatField(allow_null=True)
    maximum = serializers.FloatField(allow_null=True)
    choices = ChoiceOutputSerializer(many=True)
    help = serializers.CharField()


class EngineOutputSerializer(serializers.Serializer[Any]):
    slug = serializers.CharField()
    game = serializers.CharField()
    version = serializers.IntegerField()
    params = ParamOutputSerializer(many=True)
    not_modelled = serializers.ListField(child=serializers.CharField())
    assumptions = serializers.ListField(
        child=serializers.CharField(),
        help_text=_("What the engine assumes where the published rules are silent."),
    )
    cites = serializers.ListField(child=serializers.CharField())
    goals = GoalOutputSerializer(
        many=True,
        help_text=_("What a deck may be tuned for (empty: this engine's decks are not tuned)."),
    )


def param_data(param: Param) -> dict[str, Any]:
    return {
        "name": param.name,
        "label": gettext(param.label),
        "kind": param.kind,
        "default": param.default,
        "minimum": param.minimum,
        "maximum": param.maximum,
        "choices": [{"code": code, "label": gettext(label)} for code, label in param.choices],
        "help": gettext(param.help) if param.help else "",
    }


def engine_data(engine: Engine[Any, Any]) -> dict[str, Any]:
    """An engine as the API describes it, its English strings translated now."""
    return {
        "slug": engine.slug,
        "game": engine.slug,
        "version": engine.version,
        "params": [param_data(p) for p in engine.params.params],
        "not_modelled": [gettext(line) for line in engine.not_modelled],
        "assumptions": [gettext(line) for line in engine.assumptions],
        "cites": list(engine.cites),
        "goals": [goal_data(goal) for goal in engine.goals],
    }
