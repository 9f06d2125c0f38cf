"""The contributions API: players propose catalog facts (as DeckLab catalog JSON or a sheet),
follow and change their proposals; editors review them and revert applied changes; anyone reads
a card's history.

Who sees what: a proposal is its author's and the editors'; to anyone else it is 404 (its
existence is not confirmed). Deciding is the editors' (403 to others, 403 on one's own).
Every refusal is ``{detail, problems: [{where, message}]}``: the input's problems and the
services' (the importer's validation, locks, the hourly limit, 429 with Retry-After).
"""

from __future__ import annotations

import math
from datetime import timedelta
from typing import Any

from django.http import HttpResponse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from catalog.api.pagination import CatalogPagination
from catalog.importers.bundle import ImportProblem
from catalog.models import Game
from collection.interchange.read import decode
from contributions import errors, services
from contributions.api import reads, schema
from contributions.api import serializers as s
from contributions.errors import NotAllowed, ProposalError, RateLimited
from contributions.models import CatalogChange, Proposal
from contributions.payload import bundle_to_data
from contributions.selectors import card_history, review_queue
from contributions.sheet import (
    SheetProblem,
    names_sheet_check,
    names_sheet_template,
    sheet_check,
    sheet_template,
)
from decklab.api.parsers import SafeFormParser, SafeJSONParser, SafeMultiPartParser

REFUSED = _("The proposal was refused, so nothing was saved: see each problem.")
NOT_FOUND = _("No such proposal (or it is not yours to see).")
CHANGE_NOT_FOUND = _("No such change.")
GAME_NOT_FOUND = _("No game with this slug.")
CARD_NOT_FOUND = _("This game's catalog has no card with this code.")
UNKNOWN_SET = _("This game has no set with this code.")
NAMES_NEED_SET = _("A names sheet is a set's: name the set with “set”.")
FILE_TOO_LARGE = _("The sheet is larger than %(max)d MB.")
DID_YOU_MEAN = _("Did you mean %(names)s?")

#: a sheet upload is at most this many bytes (as large as its text may be, in UTF-8)
SHEET_MAX_BYTES = 8 * 1024 * 1024


# --- shared ----------------------------------------------------------------------------------


def _flatten(detail: Any, where: str = "") -> list[dict[str, str]]:
    """DRF's nested error detail as a flat list of problems, each at its field's path."""
    if isinstance(detail, dict):
        found: list[dict[str, str]] = []
        for key, value in detail.items():
            name = "" if key == "non_field_errors" else str(key)
            found += _flatten(value, f"{where}.{name}" if where and name else where or name)
        return found
    if isinstance(detail, list):
        return [problem for item in detail for problem in _flatten(item, where)]
    return [{"where": where or errors.WHOLE, "message": str(detail)}]


def _as_dicts(problems: list[ImportProblem]) -> list[dict[str, str]]:
    return [{"where": problem.where, "message": problem.message} for problem in problems]


def _refusal(detail: Any, problems: list[dict[str, str]], code: int) -> Response:
    return Response({"detail": str(detail), "problems": problems}, status=code)


def _retry_after(user: Any) -> int:
    """Seconds until the oldest proposal of the last hour leaves the hourly window."""
    hour = timedelta(hours=1)
    oldest = (
        Proposal.objects.filter(author=user, created_at__gte=timezone.now() - hour)
        .order_by("created_at")
        .values_list("created_at", flat=True)
        .first()
    )
    if oldest is None:
        return 1
    return max(1, math.ceil((oldest + hour - timezone.now()).total_seconds()))


class ContributionsApiView(APIView):
    """Authentication (Token first, so an anonymous call is a 401 naming the scheme) and the
    one refusal shape for the services' errors and the inputs' alike."""

    authentication_classes = [TokenAuthentication, SessionAuthentication]
    permission_classes = [IsAuthenticated]
    parser_classes = [SafeJSONParser]

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, RateLimited):
            response = _refusal(exc.problems[0].message, _as_dicts(exc.problems), 429)
            response["Retry-After"] = str(_retry_after(self.request.user))
            return response
        if isinstance(exc, NotAllowed):
            return _refusal(exc.problems[0].message, _as_dicts(exc.problems), 403)
        if isinstance(exc, ProposalError):
            return _refusal(REFUSED, _as_dicts(exc.problems), 400)
        if isinstance(exc, ValidationError):
            return _refusal(REFUSED, _flatten(exc.detail), 400)
        return super().handle_exception(exc)


def _game_or_404(slug: str) -> Game:
    game = Game.objects.filter(slug=slug).first()
    if game is None:
        raise NotFound(GAME_NOT_FOUND)
    return game


def _proposal_for_user(request: Request, proposal_id: int) -> Proposal:
    """The proposal, if the caller wrote it or is an editor; 404 otherwise."""
    proposal = reads.proposal_find(proposal_id)
    if proposal is None or (
        proposal.author_id != request.user.pk and not services.is_editor(request.user)
    ):
        raise NotFound(NOT_FOUND)
    return proposal


def _proposal_response(request: Request, proposal: Proposal, code: int = 200) -> Response:
    fresh = reads.proposal_find(proposal.pk)  # re-read after a write: new state and events
    data = s.ProposalOutputSerializer(fresh, context={"request": request}).data
    return Response(data, status=code)


def _sheet_where(problem: SheetProblem) -> str:
    return f"sheet:{problem.line}" + (f":{problem.column}" if problem.column else "")


def _sheet_message(problem: SheetProblem) -> str:
    if not problem.did_you_mean:
        return problem.reason
    names = ", ".join(f"“{name}”" for name in problem.did_you_mean)
    return f"{problem.reason} {DID_YOU_MEAN % {'names': names}}"


def _check_sheet(game: Game, kind: str, text: str) -> Any:
    if kind == Proposal.Kind.NAMES:
        return names_sheet_check(text, game_slug=game.slug)
    return sheet_check(text, game_slug=game.slug)


def _content(game: Game, kind: str, data: dict[str, Any]) -> Any:
    """The proposal's payload: as sent, or a clean sheet's cards as catalog JSON."""
    if "sheet" not in data:
        return data["payload"]
    result = _check_sheet(game, kind, data["sheet"])
    if not result.is_clean:
        raise ProposalError(
            [ImportProblem(_sheet_where(p), _sheet_message(p)) for p in result.problems]
        )
    return bundle_to_data(result.bundle)


# --- a player's proposals --------------------------------------------------------------------


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
            payload=_content(game, data["kind"], data),
            source_kind=data["source_kind"],
            source_detail=data["source_detail"],
            source_url=data.get("source_url", ""),
            title=data.get("title", ""),
            target_kind=data.get("target_kind", ""),
            target_code=data.get("target_code", ""),
            reason=data.get("reason", ""),
        )
        return _proposal_response(request, proposal, status.HTTP_201_CREATED)

    def _every_problem(self, given: s.ProposalCreateInputSerializer) -> list[ImportProblem]:
        """The input's problems, and the payload's too when it could be read, so one answer
        names everything to fix."""
        found = [ImportProblem(p["where"], p["message"]) for p in _flatten(given.errors)]
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
        proposal = _proposal_for_user(request, proposal_id)
        return Response(s.ProposalOutputSerializer(proposal, context={"request": request}).data)


_CHANGE_RESPONSES = {
    200: s.ProposalOutputSerializer,
    400: schema.BAD_REQUEST,
    401: schema.UNAUTHORIZED,
    403: schema.FORBIDDEN,
    404: schema.NOT_FOUND,
}


class ProposalWithdrawApi(ContributionsApiView):
    @extend_schema(
        tags=[schema.TAG],
        summary=_("Withdraw your proposal"),
        parameters=[schema.PROPOSAL_ID],
        request=s.NoteInputSerializer,
        responses=_CHANGE_RESPONSES,
    )
    def post(self, request: Request, proposal_id: int) -> Response:
        """The author takes back a proposal that is still waiting (open or asked to change)."""
        proposal = _proposal_for_user(request, proposal_id)
        given = s.NoteInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        services.proposal_withdraw(
            proposal=proposal, author=request.user, note=given.validated_data.get("note", "")
        )
        return _proposal_response(request, proposal)


class ProposalResubmitApi(ContributionsApiView):
    @extend_schema(
        tags=[schema.TAG],
        summary=_("Resubmit your proposal"),
        parameters=[schema.PROPOSAL_ID],
        request=s.ProposalResubmitInputSerializer,
        responses=_CHANGE_RESPONSES,
    )
    def post(self, request: Request, proposal_id: int) -> Response:
        """New content (`payload`, or `sheet` for a sheet's proposal) and a note for the
        editor: checked as at submission, then open for review again."""
        proposal = _proposal_for_user(request, proposal_id)
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
            payload=_content(proposal.game, proposal.kind, data),
            note=data.get("note", ""),
        )
        return _proposal_response(request, proposal)


# --- sheets ----------------------------------------------------------------------------------


class SheetTemplateApi(ContributionsApiView):
    permission_classes = [AllowAny]

    @extend_schema(
        tags=[schema.TAG],
        summary=_("Download a sheet to fill in"),
        parameters=schema.TEMPLATE_PARAMETERS,
        responses={
            (200, "text/csv"): OpenApiTypes.STR,
            400: schema.BAD_REQUEST,
            404: OpenApiResponse(description=_("No game with this slug.")),
        },
    )
    def get(self, request: Request, game: str) -> HttpResponse:
        """A card sheet (every column of the game and an example row per card type, printed
        in `set` when given) or, with kind=names, a set's cards with their names to complete.
        UTF-8 with a BOM, so spreadsheets open it as it is."""
        found = _game_or_404(game)
        set_code = request.query_params.get("set", "")
        kind = request.query_params.get("kind", "sheet")
        if kind not in ("sheet", "names"):
            known = "sheet, names"
            raise ValidationError(
                {"kind": [errors.UNKNOWN_CHOICE % {"value": kind, "known": known}]}
            )
        if kind == "names":
            if not set_code:
                raise ValidationError({"set": [NAMES_NEED_SET]})
            try:
                text = names_sheet_template(found.slug, set_code)
            except LookupError:
                raise ValidationError({"set": [UNKNOWN_SET]}) from None
        else:
            if set_code and not found.sets.filter(code=set_code).exists():
                raise ValidationError({"set": [UNKNOWN_SET]})
            text = sheet_template(found.slug, set_code=set_code)
        response = HttpResponse(text, content_type="text/csv; charset=utf-8")
        name = f"{found.slug}-{set_code or kind}.csv"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response


class SheetCheckApi(ContributionsApiView):
    parser_classes = [SafeJSONParser, SafeMultiPartParser, SafeFormParser]

    @extend_schema(
        tags=[schema.TAG],
        summary=_("Check a sheet"),
        parameters=[schema.GAME],
        request=s.SheetCheckInputSerializer,
        responses={
            200: s.SheetCheckOutputSerializer,
            400: schema.BAD_REQUEST,
            401: schema.UNAUTHORIZED,
            404: OpenApiResponse(description=_("No game with this slug.")),
        },
    )
    def post(self, request: Request, game: str) -> Response:
        """Check a card sheet (or, with kind=names, a names sheet) without proposing
        anything: every problem with its line, column and the values it may have meant. A
        clean sheet's cards come back as `payload`; propose it with POST /api/v1/proposals/
        (`payload`, or the same text as `sheet`)."""
        found = _game_or_404(game)
        given = s.SheetCheckInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        text = data.get("text")
        if text is None:
            upload = data["file"]
            if upload.size > SHEET_MAX_BYTES:
                max_mb = SHEET_MAX_BYTES // (1024 * 1024)
                raise ValidationError({"file": [FILE_TOO_LARGE % {"max": max_mb}]})
            try:
                text = decode(upload.read())
            except ValueError as exc:
                raise ValidationError({"file": [str(exc)]}) from None
        result = _check_sheet(found, data["kind"], text)
        body = {
            "clean": result.is_clean,
            "status": result.status,
            "problems": [
                {
                    "line": p.line,
                    "column": p.column,
                    "reason": p.reason,
                    "did_you_mean": list(p.did_you_mean),
                }
                for p in result.problems
            ],
            "payload": bundle_to_data(result.bundle) if result.is_clean else None,
        }
        return Response(s.SheetCheckOutputSerializer(body).data)


# --- editors ---------------------------------------------------------------------------------


class ReviewQueueApi(ContributionsApiView, generics.ListAPIView[Proposal]):
    serializer_class = s.ProposalSummaryOutputSerializer
    pagination_class = CatalogPagination
    filter_backends = ()

    def get_queryset(self) -> Any:
        services.require_editor(self.request.user)
        return review_queue(game=_game_or_404(self.kwargs["game"]), editor=self.request.user)

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


def _for_editor(request: Request, proposal_id: int) -> Proposal:
    services.require_editor(request.user)  # 403 before anything is looked up
    return _proposal_for_user(request, proposal_id)


class ProposalApproveApi(ContributionsApiView):
    @extend_schema(
        tags=[schema.TAG],
        summary=_("Approve a proposal"),
        parameters=[schema.PROPOSAL_ID],
        request=s.NoteInputSerializer,
        responses={**_CHANGE_RESPONSES, 200: s.ApprovalOutputSerializer},
    )
    def post(self, request: Request, proposal_id: int) -> Response:
        """Apply an open proposal to the catalog (checked again first) and answer the
        changes it made, each row before and after. Not your own proposal."""
        proposal = _for_editor(request, proposal_id)
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
        responses=_CHANGE_RESPONSES,
    )
    def post(self, request: Request, proposal_id: int) -> Response:
        """Refuse a waiting proposal, saying why in `note` (required)."""
        proposal = _for_editor(request, proposal_id)
        given = s.DecisionNoteInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        services.proposal_reject(
            proposal=proposal, editor=request.user, note=given.validated_data["note"]
        )
        return _proposal_response(request, proposal)


class ProposalAskApi(ContributionsApiView):
    @extend_schema(
        tags=[schema.TAG],
        summary=_("Ask for changes to a proposal"),
        parameters=[schema.PROPOSAL_ID],
        request=s.DecisionNoteInputSerializer,
        responses=_CHANGE_RESPONSES,
    )
    def post(self, request: Request, proposal_id: int) -> Response:
        """Send an open proposal back to its author with a `note` (required) saying what to
        change; they resubmit it."""
        proposal = _for_editor(request, proposal_id)
        given = s.DecisionNoteInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        services.proposal_ask(
            proposal=proposal, editor=request.user, note=given.validated_data["note"]
        )
        return _proposal_response(request, proposal)


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


# --- history ---------------------------------------------------------------------------------


class CardHistoryApi(ContributionsApiView, generics.ListAPIView[CatalogChange]):
    permission_classes = [AllowAny]
    serializer_class = s.ChangeOutputSerializer
    pagination_class = CatalogPagination
    filter_backends = ()

    def get_queryset(self) -> Any:
        card = reads.catalog_card_find(game_slug=self.kwargs["game"], code=self.kwargs["code"])
        if card is None:
            raise NotFound(CARD_NOT_FOUND)
        return card_history(card=card)

    @extend_schema(
        tags=[schema.TAG],
        summary=_("A card's history"),
        parameters=[schema.GAME, schema.CARD_CODE],
        responses={
            200: s.ChangeOutputSerializer,
            404: OpenApiResponse(description=CARD_NOT_FOUND),
        },
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Every applied change of the card and of its printings, newest first: the row
        before and after, who proposed and who approved it, the source, and reverts."""
        return super().get(request, *args, **kwargs)
