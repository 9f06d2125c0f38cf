"""What every view of the contributions API shares: authentication, the one refusal shape, and
finding a game or a proposal for the caller.

Who sees what: a proposal is its author's and the editors'; to anyone else it is 404 (its
existence is not confirmed). Deciding is the editors' (403 to others, 403 on one's own).
Every refusal is ``{detail, problems: [{where, message}]}``: the input's problems and the
services' (the importer's validation, locks, the hourly limit, 429 with Retry-After).
"""

from __future__ import annotations

import math
from datetime import timedelta
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from catalog.importers.bundle import ImportProblem
from catalog.models import Game
from contributions import errors, services
from contributions.api import reads, schema
from contributions.api import serializers as s
from contributions.errors import NotAllowed, ProposalError, RateLimited
from contributions.models import Proposal
from decklab.api.parsers import SafeJSONParser

REFUSED = _("The proposal was refused, so nothing was saved: see each problem.")
NOT_FOUND = _("No such proposal (or it is not yours to see).")
GAME_NOT_FOUND = _("No game with this slug.")

#: the answers of a view that changes a proposal
CHANGE_RESPONSES = {
    200: s.ProposalOutputSerializer,
    400: schema.BAD_REQUEST,
    401: schema.UNAUTHORIZED,
    403: schema.FORBIDDEN,
    404: schema.NOT_FOUND,
}


def flatten(detail: Any, where: str = "") -> list[dict[str, str]]:
    """DRF's nested error detail as a flat list of problems, each at its field's path."""
    if isinstance(detail, dict):
        found: list[dict[str, str]] = []
        for key, value in detail.items():
            name = "" if key == "non_field_errors" else str(key)
            found += flatten(value, f"{where}.{name}" if where and name else where or name)
        return found
    if isinstance(detail, list):
        return [problem for item in detail for problem in flatten(item, where)]
    return [{"where": where or errors.WHOLE, "message": str(detail)}]


def as_dicts(problems: list[ImportProblem]) -> list[dict[str, str]]:
    return [{"where": problem.where, "message": problem.message} for problem in problems]


def refusal(detail: Any, problems: list[dict[str, str]], code: int) -> Response:
    return Response({"detail": str(detail), "problems": problems}, status=code)


def retry_after(user: Any) -> int:
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
            response = refusal(exc.problems[0].message, as_dicts(exc.problems), 429)
            response["Retry-After"] = str(retry_after(self.request.user))
            return response
        if isinstance(exc, NotAllowed):
            return refusal(exc.problems[0].message, as_dicts(exc.problems), 403)
        if isinstance(exc, ProposalError):
            return refusal(REFUSED, as_dicts(exc.problems), 400)
        if isinstance(exc, ValidationError):
            return refusal(REFUSED, flatten(exc.detail), 400)
        return super().handle_exception(exc)


def game_or_404(slug: str) -> Game:
    game = Game.objects.filter(slug=slug).first()
    if game is None:
        raise NotFound(GAME_NOT_FOUND)
    return game


def proposal_for_user(request: Request, proposal_id: int) -> Proposal:
    """The proposal, if the caller wrote it or is an editor; 404 otherwise."""
    proposal = reads.proposal_find(proposal_id)
    if proposal is None or (
        proposal.author_id != request.user.pk and not services.is_editor(request.user)
    ):
        raise NotFound(NOT_FOUND)
    return proposal


def proposal_response(request: Request, proposal: Proposal, code: int = 200) -> Response:
    fresh = reads.proposal_find(proposal.pk)  # re-read after a write: new state and events
    data = s.ProposalOutputSerializer(fresh, context={"request": request}).data
    return Response(data, status=code)


def for_editor(request: Request, proposal_id: int) -> Proposal:
    """The proposal for an editor's decision: 403 to a non-editor before anything is looked up."""
    services.require_editor(request.user)
    return proposal_for_user(request, proposal_id)
