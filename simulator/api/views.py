"""Runs: start one, read one (progress, then results), cancel one; the engines and their
parameters. Runs are private: anyone but the owner gets 404, as for a run that does not exist.

Every refusal names its field: a bad engine parameter is ``{"params": {"name": ["why"]}}``,
never a 500. Writes go through ``simulator.services``, reads through the selectors.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import generics, status
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from decklab.api.parsers import SafeJSONParser
from decks.api.errors import DECK_NOT_FOUND
from decks.selectors import deck_get_for_viewer
from simulator.api import schema
from simulator.api.serializers import (
    EngineOutputSerializer,
    RunCreateInputSerializer,
    RunOutputSerializer,
    RunSummaryOutputSerializer,
    engine_data,
)
from simulator.models import RunStatus, SimulationRun
from simulator.selectors import engines_all, run_get_for_owner, runs_of_owner
from simulator.services import RunError, run_cancel, run_create
from simulator.supervisor import run_supervise_on_read

ALREADY_FINISHED = _("This run had already finished, so it was not cancelled.")


def _messages(errors: dict[str, Any]) -> dict[str, Any]:
    """A RunError's messages as plain strings (lazy translations evaluated now)."""
    return {
        field: _messages(value) if isinstance(value, dict) else [str(m) for m in value]
        for field, value in errors.items()
    }


class RunApiView(APIView):
    # Token first, so an anonymous call is a 401 naming the scheme rather than a bare 403.
    authentication_classes = [TokenAuthentication, SessionAuthentication]
    permission_classes = [IsAuthenticated]
    parser_classes = [SafeJSONParser]

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, RunError):
            if exc.code == "too_many_runs":
                detail = " ".join(str(m) for m in exc.errors.get("non_field_errors", []))
                return Response(
                    {"detail": detail, "code": exc.code}, status=status.HTTP_429_TOO_MANY_REQUESTS
                )
            exc = ValidationError(_messages(exc.errors))
        return super().handle_exception(exc)


def _run_response(run: SimulationRun, code: int = status.HTTP_200_OK) -> Response:
    return Response(RunOutputSerializer(run).data, status=code)


class RunCollectionApi(RunApiView, generics.ListAPIView[SimulationRun]):
    serializer_class = RunSummaryOutputSerializer
    filter_backends = ()

    def get_queryset(self) -> QuerySet[SimulationRun]:
        return runs_of_owner(user=self.request.user)

    @extend_schema(
        tags=[schema.TAG],
        summary=_("List your simulation runs"),
        responses={200: RunSummaryOutputSerializer(many=True), 401: schema.UNAUTHORIZED},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Your runs, newest first (results are left out here: read a run for them)."""
        return super().get(request, *args, **kwargs)

    @extend_schema(
        tags=[schema.TAG],
        summary=_("Start a simulation run"),
        request=RunCreateInputSerializer,
        responses={
            201: RunOutputSerializer,
            400: schema.BAD_REQUEST,
            401: schema.UNAUTHORIZED,
            429: schema.TOO_MANY_RUNS,
        },
    )
    def post(self, request: Request) -> Response:
        """Goldfish games of a deck you can see, as it is now (its latest revision), split
        over the workers. Poll the run for its progress; its results come when it is done."""
        given = RunCreateInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        try:
            deck = deck_get_for_viewer(public_id=data["deck"], user=request.user)
        except Http404:
            raise ValidationError({"deck": [str(DECK_NOT_FOUND)]}) from None
        run = run_create(
            owner=request.user,
            deck=deck,
            engine_slug=data["engine"],
            params=data["params"],
            games=data["games"],
            seed=data["seed"],
            chunk_size=data["chunk_size"],
        )
        return _run_response(run, status.HTTP_201_CREATED)


class RunDetailApi(RunApiView):
    @extend_schema(
        tags=[schema.TAG],
        summary=_("Get a simulation run"),
        parameters=[schema.RUN_ID],
        responses={200: RunOutputSerializer, 401: schema.UNAUTHORIZED, 404: schema.NOT_FOUND},
    )
    def get(self, request: Request, public_id: str) -> Response:
        """Its status and progress; its results (merged metrics and their summary, with 95 %
        intervals) once it succeeded."""
        run = run_get_for_owner(public_id=public_id, user=request.user)
        # A client polling its run also sweeps it (lost workers, lost messages).
        return _run_response(run_supervise_on_read(run))


class RunCancelApi(RunApiView):
    @extend_schema(
        tags=[schema.TAG],
        summary=_("Cancel a simulation run"),
        parameters=[schema.RUN_ID],
        request=None,
        responses={
            200: RunOutputSerializer,
            401: schema.UNAUTHORIZED,
            404: schema.NOT_FOUND,
            409: schema.ALREADY_FINISHED,
        },
    )
    def post(self, request: Request, public_id: str) -> Response:
        """Stop a queued or running run (cancelling a cancelled run again changes nothing)."""
        run = run_get_for_owner(public_id=public_id, user=request.user)
        if not run_cancel(run=run):
            run.refresh_from_db()
            if run.status != RunStatus.CANCELLED:
                return Response({"detail": str(ALREADY_FINISHED)}, status=status.HTTP_409_CONFLICT)
        return _run_response(run)


class EngineListApi(APIView):
    authentication_classes = [TokenAuthentication, SessionAuthentication]
    permission_classes = [AllowAny]

    @extend_schema(
        tags=[schema.TAG],
        summary=_("List the simulation engines"),
        responses={200: EngineOutputSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        """Each engine with its parameters (defaults, bounds, labels in your language), what
        it does not model and the rules lines it follows."""
        data = [engine_data(engine) for engine in engines_all().values()]
        return Response(EngineOutputSerializer(data, many=True).data)
