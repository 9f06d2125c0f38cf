"""A player's proposals in the API: send one (catalog JSON or a sheet's text), list them, read
one, withdraw it or send it again after an editor asked for a change."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import generics, status
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from catalog.api.pagination import CatalogPagination
from catalog.importers.bundle import ImportProblem
from catalog.models import Game
from contributions import errors, services
from contributions.api import reads, schema
from contributions.api import serializers as s
from contributions.api.common import (
    CHANGE_RESPONSES,
    GAME_NOT_FOUND,
    ContributionsApiView,
    flatten,
    proposal_for_user,
    proposal_response,
)
from contributions.api.sheets import sheet_content
from contributions.errors import NotAllowed, ProposalError
from contributions.models import Proposal


class ProposalCollectionApi(ContributionsApiView, generics.ListAPIView[Proposal]):
    """Your proposals (GET) and a new one (POST)."""

    serializer_class = s.ProposalOutputSerializer
    pagination_class = CatalogPagination
    filter_backends = ()

    def get_queryset(self) -> Any:
        params = self.request.query_params
        state = params.get("state", "")
        if state and state not in Proposal.State.values:
            known = ", ".join(Proposal.State.values)
            raise ValidationError(
                {"state": [errors.UNKNOWN_CHOICE % {"value": state, "known": known}]}
            )
        return reads.proposal_list(
            user=self.request.user, state=state, game_slug=params.get("game", "")
        )

    @extend_schema(
        tags=[schema.TAG],
        summary=_("List your proposals"),
        parameters=schema.LIST_PARAMETERS,
        responses={
            200: s.ProposalOutputSerializer,
            400: schema.BAD_REQUEST,
            401: schema.UNAUTHORIZED,
        },
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Your proposals, newest first, each with its content and what the editors said."""
        return super().get(request, *args, **kwargs)

    @extend_schema(
        tags=[schema.TAG],
        summary=_("Propose catalog facts"),
        request=s.ProposalCreateInputSerializer,
        examples=schema.CREATE_EXAMPLES,
        responses={
            201: s.ProposalOutputSerializer,
            400: schema.BAD_REQUEST,
            401: schema.UNAUTHORIZED,
            429: schema.THROTTLED,
        },
    )
    def post(self, request: Request) -> Response:
        """A proposal, open for review, once its content passes the catalog importer's checks.

        The content is `payload` (DeckLab catalog JSON of the game), or for kind `sheet` or
        `names` the sheet's CSV text as `sheet` (it must be clean: try it with sheet-check
        first). A refusal lists every problem at once; nothing is saved. At most
        CONTRIBUTIONS_PROPOSALS_PER_HOUR proposals an hour (30): then 429 with Retry-After.
        """
        given = s.ProposalCreateInputSerializer(data=request.data)
        if not given.is_valid():
            raise ProposalError(self._every_problem(given))
        data = dict(given.validated_data)
        game = Game.objects.filter(slug=data["game"]).first()
        if game is None:
            raise ProposalError.of(GAME_NOT_FOUND, "game")
        proposal = services.proposal_submit(
            author=request.user,
            game=game,
            kind=data["kind"],
            payload=sheet_content(game, data["kind"], data),
            source_kind=data["source_kind"],
            source_detail=data["source_detail"],
            source_url=data.get("source_url", ""),
            title=data.get("title", ""),
            target_kind=data.get("target_kind", ""),
            target_code=data.get("target_code", ""),
            reason=data.get("reason", ""),
        )
        return proposal_response(request, proposal, status.HTTP_201_CREATED)

    def _every_problem(self, given: s.ProposalCreateInputSerializer) -> list[ImportProblem]:
        """The input's problems, and the payload's too when it could be read, so one answer
        names everything to fix."""
        found = [ImportProblem(p["where"], p["message"]) for p in flatten(given.errors)]
        payload = (
            given.initial_data.get("payload") if isinstance(given.initial_data, dict) else None
        )
        slug = given.initial_data.get("game") if isinstance(given.initial_data, dict) else None
        game = Game.objects.filter(slug=slug).first() if isinstance(slug, str) else None
        if payload is not None and game is not None and "payload" not in given.errors:
            found += services.payload_problems(game=game, payload=payload)[1]
        return found


class ProposalDetailApi(ContributionsApiView):
    @extend_schema(
        tags=[schema.TAG],
        summary=_("Get a proposal"),
        parameters=[schema.PROPOSAL_ID],
        responses={
            200: s.ProposalOutputSerializer,
            401: schema.UNAUTHORIZED,
            404: schema.NOT_FOUND,
        },
    )
    def get(self, request: Request, proposal_id: int) -> Response:
        """The proposal with its content, source and events: for its author and the editors."""
        proposal = proposal_for_user(request, proposal_id)
        return Response(s.ProposalOutputSerializer(proposal, context={"request": request}).data)


class ProposalWithdrawApi(ContributionsApiView):
    @extend_schema(
        tags=[schema.TAG],
        summary=_("Withdraw your proposal"),
        parameters=[schema.PROPOSAL_ID],
        request=s.NoteInputSerializer,
        responses=CHANGE_RESPONSES,
    )
    def post(self, request: Request, proposal_id: int) -> Response:
        """The author takes back a proposal that is still waiting (open or asked to change)."""
        proposal = proposal_for_user(request, proposal_id)
        given = s.NoteInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        services.proposal_withdraw(
            proposal=proposal, author=request.user, note=given.validated_data.get("note", "")
        )
        return proposal_response(request, proposal)


class ProposalResubmitApi(ContributionsApiView):
    @extend_schema(
        tags=[schema.TAG],
        summary=_("Resubmit your proposal"),
        parameters=[schema.PROPOSAL_ID],
        request=s.ProposalResubmitInputSerializer,
        responses=CHANGE_RESPONSES,
    )
    def post(self, request: Request, proposal_id: int) -> Response:
        """New content (`payload`, or `sheet` for a sheet's proposal) and a note for the
        editor: checked as at submission, then open for review again."""
        proposal = proposal_for_user(request, proposal_id)
        given = s.ProposalResubmitInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = dict(given.validated_data)
        if ("payload" in data) == ("sheet" in data):
            raise ValidationError({"payload": [s.PAYLOAD_OR_SHEET if data else s.NEED_PAYLOAD]})
        if "sheet" in data and proposal.kind not in s.SHEET_KINDS:
            raise ValidationError({"sheet": [s.SHEET_ONLY_FOR_SHEETS]})
        if proposal.author_id != request.user.pk:
            raise NotAllowed.of(errors.NOT_AUTHOR)  # before a sheet is checked for nothing
        services.proposal_resubmit(
            proposal=proposal,
            author=request.user,
            payload=sheet_content(proposal.game, proposal.kind, data),
            note=data.get("note", ""),
        )
        return proposal_response(request, proposal)
