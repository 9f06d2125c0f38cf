"""Deck tunings (issue 23): start one on a deck, read it as the field narrows, cancel it,
apply one of its moves to the deck.

A tuning is private to its owner, as a run is: anyone else gets 404. Applying a move changes
the deck, so only the deck's owner may. Every refusal names its field (``RunError``, as the
runs' API answers it); a player's limit of simulations at once is a 429.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from decks.selectors import deck_get_for_viewer
from simulator.api import schema
from simulator.api.tuning_serializers import (
    TuningAppliedOutputSerializer,
    TuningApplyInputSerializer,
    TuningCreateInputSerializer,
    TuningOutputSerializer,
)
from simulator.api.views import RunApiView
from simulator.models import RunStatus, TuningJob
from simulator.selectors import tuning_get_for_owner
from simulator.tuning.outcome import tuning_apply_outcome
from simulator.tuning.report import tuning_report, tuning_report_on_read
from simulator.tuning.services import tuning_cancel, tuning_create

TUNING_FINISHED = _("This tuning had already finished, so it was not cancelled.")


def _report_data(job: TuningJob, *, sweep: bool = False) -> dict[str, Any]:
    report = tuning_report_on_read(job) if sweep else tuning_report(job)
    data = report.as_dict() | {
        "url": reverse("simulator-api:tuning-detail", args=[job.public_id]),
        "page": job.get_absolute_url(),
    }
    return dict(TuningOutputSerializer(data).data)


class TuningCreateApi(RunApiView):
    @extend_schema(
        tags=[schema.TAG],
        summary=_("Start a tuning of a deck"),
        parameters=[schema.DECK_ID],
        request=TuningCreateInputSerializer,
        responses={
            201: TuningOutputSerializer,
            400: schema.BAD_REQUEST,
            401: schema.UNAUTHORIZED,
            404: schema.DECK_NOT_FOUND,
            429: schema.TOO_MANY_RUNS,
        },
    )
    def post(self, request: Request, public_id: str) -> Response:
        """ "Improve this deck": one-card moves of a deck you can see (cut a copy of one card,
        add a copy of another), raced by goldfish games against the deck as it is now. Every
        move plays the deck's very games; the moves clearly behind are dropped after each
        round. Poll the tuning for its ranking."""
        deck = deck_get_for_viewer(public_id=public_id, user=request.user)
        given = TuningCreateInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        job = tuning_create(owner=request.user, deck=deck, **given.validated_data)
        return Response(_report_data(job), status=status.HTTP_201_CREATED)


class TuningDetailApi(RunApiView):
    @extend_schema(
        tags=[schema.TAG],
        summary=_("Get a deck tuning"),
        parameters=[schema.TUNING_ID],
        responses={
            200: TuningOutputSerializer,
            401: schema.UNAUTHORIZED,
            404: schema.TUNING_NOT_FOUND,
        },
    )
    def get(self, request: Request, public_id: str) -> Response:
        """Its status, how far the race is, the deck's own value of the goal and every move
        ranked with its change and 95 % interval."""
        job = tuning_get_for_owner(public_id=public_id, user=request.user)
        return Response(_report_data(job, sweep=True))


class TuningCancelApi(RunApiView):
    @extend_schema(
        tags=[schema.TAG],
        summary=_("Cancel a deck tuning"),
        parameters=[schema.TUNING_ID],
        request=None,
        responses={
            200: TuningOutputSerializer,
            401: schema.UNAUTHORIZED,
            404: schema.TUNING_NOT_FOUND,
            409: schema.TUNING_FINISHED,
        },
    )
    def post(self, request: Request, public_id: str) -> Response:
        """Stop a tuning: the ranking so far stays (cancelling it again changes nothing)."""
        job = tuning_get_for_owner(public_id=public_id, user=request.user)
        if not tuning_cancel(job=job):
            job.refresh_from_db()
            if job.status != RunStatus.CANCELLED:
                return Response({"detail": str(TUNING_FINISHED)}, status=status.HTTP_409_CONFLICT)
        return Response(_report_data(job))


class TuningApplyApi(RunApiView):
    @extend_schema(
        tags=[schema.TAG],
        summary=_("Apply a tuning's move to its deck"),
        parameters=[schema.TUNING_ID],
        request=TuningApplyInputSerializer,
        responses={
            200: TuningAppliedOutputSerializer,
            400: schema.BAD_REQUEST,
            401: schema.UNAUTHORIZED,
            404: schema.APPLY_NOT_FOUND,
        },
    )
    def post(self, request: Request, public_id: str) -> Response:
        """Save the deck with the move made, as a new revision (refused if the deck has
        changed so that the move can no longer be made). Only the deck's owner may."""
        job = tuning_get_for_owner(public_id=public_id, user=request.user)
        if job.deck is None or job.deck.owner_id != request.user.pk:
            raise Http404
        given = TuningApplyInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        outcome = tuning_apply_outcome(
            job=job, index=given.validated_data["move"], user=request.user
        )
        data = {
            "deck": outcome.deck.public_id,
            "revision": outcome.revision,
            "move": outcome.move,
            "missing": outcome.missing,
            "note": outcome.note,
        }
        return Response(TuningAppliedOutputSerializer(data).data)
