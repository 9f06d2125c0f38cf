"""The editors' side of the contributions API: a game's review queue, the three decisions on a
proposal, and the revert of one applied change."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from catalog.api.pagination import CatalogPagination
from contributions import services
from contributions.api import reads, schema
from contributions.api import serializers as s
from contributions.api.common import (
    CHANGE_RESPONSES,
    ContributionsApiView,
    for_editor,
    game_or_404,
    proposal_response,
)
from contributions.models import CatalogChange, Proposal
from contributions.selectors import review_queue

CHANGE_NOT_FOUND = _("No such change.")


class ReviewQueueApi(ContributionsApiView, generics.ListAPIView[Proposal]):
    serializer_class = s.ProposalSummaryOutputSerializer
    pagination_class = CatalogPagination
    filter_backends = ()

    def get_queryset(self) -> Any:
        services.require_editor(self.request.user)
        return review_queue(game=game_or_404(self.kwargs["game"]), editor=self.request.user)

    @extend_schema(
        tags=[schema.TAG],
        summary=_("A game's review queue"),
        parameters=[schema.GAME],
        responses={
            200: s.ProposalSummaryOutputSerializer,
            401: schema.UNAUTHORIZED,
            403: schema.FORBIDDEN,
            404: OpenApiResponse(description=_("No game with this slug.")),
        },
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The game's proposals waiting for an editor, oldest first (editors only)."""
        return super().get(request, *args, **kwargs)


class ProposalApproveApi(ContributionsApiView):
    @extend_schema(
        tags=[schema.TAG],
        summary=_("Approve a proposal"),
        parameters=[schema.PROPOSAL_ID],
        request=s.NoteInputSerializer,
        responses={**CHANGE_RESPONSES, 200: s.ApprovalOutputSerializer},
    )
    def post(self, request: Request, proposal_id: int) -> Response:
        """Apply an open proposal to the catalog (checked again first) and answer the
        changes it made, each row before and after. Not your own proposal."""
        proposal = for_editor(request, proposal_id)
        given = s.NoteInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        changes = services.proposal_approve(
            proposal=proposal, editor=request.user, note=given.validated_data.get("note", "")
        )
        body = {"proposal": reads.proposal_find(proposal.pk), "changes": changes}
        return Response(s.ApprovalOutputSerializer(body, context={"request": request}).data)


class ProposalRejectApi(ContributionsApiView):
    @extend_schema(
        tags=[schema.TAG],
        summary=_("Reject a proposal"),
        parameters=[schema.PROPOSAL_ID],
        request=s.DecisionNoteInputSerializer,
        responses=CHANGE_RESPONSES,
    )
    def post(self, request: Request, proposal_id: int) -> Response:
        """Refuse a waiting proposal, saying why in `note` (required)."""
        proposal = for_editor(request, proposal_id)
        given = s.DecisionNoteInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        services.proposal_reject(
            proposal=proposal, editor=request.user, note=given.validated_data["note"]
        )
        return proposal_response(request, proposal)


class ProposalAskApi(ContributionsApiView):
    @extend_schema(
        tags=[schema.TAG],
        summary=_("Ask for changes to a proposal"),
        parameters=[schema.PROPOSAL_ID],
        request=s.DecisionNoteInputSerializer,
        responses=CHANGE_RESPONSES,
    )
    def post(self, request: Request, proposal_id: int) -> Response:
        """Send an open proposal back to its author with a `note` (required) saying what to
        change; they resubmit it."""
        proposal = for_editor(request, proposal_id)
        given = s.DecisionNoteInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        services.proposal_ask(
            proposal=proposal, editor=request.user, note=given.validated_data["note"]
        )
        return proposal_response(request, proposal)


class ChangeRevertApi(ContributionsApiView):
    @extend_schema(
        tags=[schema.TAG],
        summary=_("Revert a catalog change"),
        parameters=[schema.CHANGE_ID],
        request=None,
        responses={
            201: s.ChangeOutputSerializer,
            400: schema.BAD_REQUEST,
            401: schema.UNAUTHORIZED,
            403: schema.FORBIDDEN,
            404: OpenApiResponse(description=CHANGE_NOT_FOUND),
        },
    )
    def post(self, request: Request, change_id: int) -> Response:
        """Put the row back as it was before the change (a row the change created is removed,
        unless decks, collections or products use it); the revert is a change itself."""
        services.require_editor(request.user)
        change = CatalogChange.objects.filter(pk=change_id).first()
        if change is None:
            raise NotFound(CHANGE_NOT_FOUND)
        revert = services.change_revert(change=change, editor=request.user)
        return Response(s.ChangeOutputSerializer(revert).data, status=status.HTTP_201_CREATED)
