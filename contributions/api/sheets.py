"""The sheets of the contributions API: a game's sheet template to download, a filled sheet
checked without proposing anything, and a clean sheet's cards as a proposal's content."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from catalog.importers.bundle import ImportProblem
from catalog.models import Game
from collection.interchange.read import decode
from contributions import errors
from contributions.api import schema
from contributions.api import serializers as s
from contributions.api.common import ContributionsApiView, game_or_404
from contributions.errors import ProposalError
from contributions.models import Proposal
from contributions.payload import bundle_to_data
from contributions.sheet import (
    SheetProblem,
    names_sheet_check,
    names_sheet_template,
    sheet_check,
    sheet_template,
)
from decklab.api.parsers import SafeFormParser, SafeJSONParser, SafeMultiPartParser

UNKNOWN_SET = _("This game has no set with this code.")
NAMES_NEED_SET = _("A names sheet is a set's: name the set with “set”.")
FILE_TOO_LARGE = _("The sheet is larger than %(max)d MB.")
DID_YOU_MEAN = _("Did you mean %(names)s?")

#: a sheet upload is at most this many bytes (as large as its text may be, in UTF-8)
SHEET_MAX_BYTES = 8 * 1024 * 1024


def _sheet_where(problem: SheetProblem) -> str:
    return f"sheet:{problem.line}" + (f":{problem.column}" if problem.column else "")


def _sheet_message(problem: SheetProblem) -> str:
    if not problem.did_you_mean:
        return problem.reason
    names = ", ".join(f"“{name}”" for name in problem.did_you_mean)
    return f"{problem.reason} {DID_YOU_MEAN % {'names': names}}"


def check_sheet(game: Game, kind: str, text: str) -> Any:
    if kind == Proposal.Kind.NAMES:
        return names_sheet_check(text, game_slug=game.slug)
    return sheet_check(text, game_slug=game.slug)


def sheet_content(game: Game, kind: str, data: dict[str, Any]) -> Any:
    """The proposal's payload: as sent, or a clean sheet's cards as catalog JSON."""
    if "sheet" not in data:
        return data["payload"]
    result = check_sheet(game, kind, data["sheet"])
    if not result.is_clean:
        raise ProposalError(
            [ImportProblem(_sheet_where(p), _sheet_message(p)) for p in result.problems]
        )
    return bundle_to_data(result.bundle)


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
        found = game_or_404(game)
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
        found = game_or_404(game)
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
        result = check_sheet(found, data["kind"], text)
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
