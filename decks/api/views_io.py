"""Deck lists in and out: export a deck, import a list (as a new deck or into one), and check
a list without saving it.

Imports are all or nothing (``decks.imports.service``): a list with any bad line saves nothing
and answers 400 with every bad line ({line, text, message, code}).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings

from decklab.api.throttling import AtomicAnonRateThrottle, AtomicUserRateThrottle
from decks.api import errors, schema
from decks.api.access import DeckApiView, deck_for_reader, deck_for_writer, expected_version
from decks.api.inputs import (
    ImportInputSerializer,
    ImportIntoInputSerializer,
    ValidateInputSerializer,
    check_deck_fields,
)
from decks.api.responses import deck_response
from decks.api.serializers import (
    DeckDetailOutputSerializer,
    ImportRefusedSerializer,
    ValidationOutputSerializer,
)
from decks.api.validation import validate_entries, validate_text
from decks.api.views_decks import game_or_400
from decks.imports.errors import DeckImportError
from decks.imports.formats import TEXT, format_codes, format_for, game_formats
from decks.imports.service import deck_export, deck_import, deck_import_into
from decks.imports.text import NAME_LANGUAGES, names_language
from decks.models import Deck

IMPORT_REFUSED = OpenApiResponse(
    response=ImportRefusedSerializer,
    description=_(
        "Nothing was saved: the list's bad lines, each with its number and why (`problems`), "
        "or a bad field of the request as for any other write."
    ),
)


def _refused(exc: DeckImportError) -> Response:
    return Response(
        {
            "detail": str(errors.IMPORT_REFUSED),
            "problems": [
                {"line": p.line, "text": p.text, "message": p.message, "code": p.code}
                for p in exc.problems
            ],
        },
        status=status.HTTP_400_BAD_REQUEST,
    )


# --- Export ---------------------------------------------------------------------------------


class _Settings:
    URL_FORMAT_OVERRIDE = None


class KeepFormatParameter(DefaultContentNegotiation):
    """``?format=`` names the deck list's format here, not DRF's renderer."""

    settings = _Settings()  # type: ignore[assignment]


class DeckExportApi(DeckApiView):
    content_negotiation_class = KeepFormatParameter

    @extend_schema(
        tags=[schema.TAG],
        summary=_("Export a deck"),
        parameters=schema.EXPORT_PARAMETERS,
        responses={
            (200, "text/plain"): OpenApiTypes.STR,
            (200, "application/json"): OpenApiTypes.OBJECT,
            400: schema.BAD_REQUEST,
            404: schema.NOT_FOUND,
        },
    )
    def get(self, request: Request, public_id: str) -> HttpResponse:
        """The deck as a DeckLab text list (reads back into the same deck), or in one of its
        game's own formats (JSON)."""
        deck = deck_for_reader(request, public_id)
        fmt = request.query_params.get("format", TEXT) or TEXT
        if fmt not in format_codes():
            codes = ", ".join(format_codes())
            raise ValidationError({"format": [errors.EXPORT_FORMAT % {"formats": codes}]})
        if fmt != TEXT and format_for(deck.game.slug, fmt) is None:
            mine = ", ".join([TEXT, *(f.code for f in game_formats(deck.game.slug))])
            raise ValidationError({"format": [errors.EXPORT_NOT_THIS_GAME % {"formats": mine}]})
        # the names in the request's language (Accept-Language) unless ``names`` says
        names = request.query_params.get("names") or names_language(get_language())
        if names not in NAME_LANGUAGES:
            languages = ", ".join(NAME_LANGUAGES)
            raise ValidationError({"names": [errors.EXPORT_NAMES % {"languages": languages}]})
        exported = deck_export(deck=deck, fmt=fmt, names=names)
        if isinstance(exported, str):
            return HttpResponse(exported, content_type="text/plain; charset=utf-8")
        return Response(exported)


# --- Import ---------------------------------------------------------------------------------


class DeckImportApi(DeckApiView):
    @extend_schema(
        tags=[schema.TAG],
        summary=_("Import a deck list as a new deck"),
        parameters=[schema.LANGUAGE_HEADER],
        request=ImportInputSerializer,
        responses={201: DeckDetailOutputSerializer, 400: IMPORT_REFUSED, 401: schema.UNAUTHORIZED},
    )
    def post(self, request: Request) -> Response:
        """A DeckLab text list (`format=text`, `text`) or a deck file in one of the game's JSON
        formats (`format=<its key>`, `data`) saved as a new deck of yours: all of it, or nothing
        and every bad line with its number and why."""
        given = ImportInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        game = game_or_400(data["game"])
        try:
            deck = deck_import(
                owner=request.user,
                game=game,
                text=data.get("text"),
                data=data.get("data"),
                fmt=data["format"],
                name=data.get("name"),
                visibility=data["visibility"],
                description=data["description"],
            )
        except DeckImportError as exc:
            return _refused(exc)
        return deck_response(request, deck, status=status.HTTP_201_CREATED)


class DeckImportIntoApi(DeckApiView):
    deck: Deck

    @extend_schema(
        tags=[schema.TAG],
        summary=_("Replace a deck's list from a deck list"),
        operation_id="decks_import_into",
        parameters=[schema.DECK_ID, schema.IF_MATCH, schema.LANGUAGE_HEADER],
        request=ImportIntoInputSerializer,
        responses={
            200: DeckDetailOutputSerializer,
            **schema.WRITE_ERRORS,
            400: IMPORT_REFUSED,
        },
    )
    def post(self, request: Request, public_id: str) -> Response:
        """The deck's whole list (and the name, rules and extras the list gives) replaced as one
        new revision, or nothing saved and every bad line listed."""
        self.deck = deck_for_writer(request, public_id)
        given = ImportIntoInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        version = expected_version(request)
        data = given.validated_data
        try:
            deck_import_into(
                deck=self.deck,
                user=request.user,
                expected_version=version,
                text=data.get("text"),
                data=data.get("data"),
                fmt=data["format"],
                name=data.get("name"),
            )
        except DeckImportError as exc:
            return _refused(exc)
        return deck_response(request, self.deck)


# --- Validation without saving --------------------------------------------------------------


class _ValidateRate:
    """Rates of /validate/, which reads whole lists for anyone: REST_FRAMEWORK's
    DEFAULT_THROTTLE_RATES may set ``deck-validate-anon`` and ``deck-validate-user``, else
    these defaults apply (read per request, so a changed setting takes effect at once)."""

    default_rate = ""
    scope = ""

    def get_rate(self) -> str | None:
        rates = api_settings.DEFAULT_THROTTLE_RATES or {}
        return str(rates.get(self.scope) or self.default_rate)


class ValidateAnonThrottle(_ValidateRate, AtomicAnonRateThrottle):
    scope = "deck-validate-anon"
    default_rate = "30/minute"


class ValidateUserThrottle(_ValidateRate, AtomicUserRateThrottle):
    scope = "deck-validate-user"
    default_rate = "120/minute"


class DeckValidateApi(DeckApiView):
    permission_classes = [AllowAny]
    throttle_classes = [*DeckApiView.throttle_classes, ValidateAnonThrottle, ValidateUserThrottle]

    @extend_schema(
        tags=[schema.TAG],
        summary=_("Check a deck list without saving it"),
        parameters=[schema.LANGUAGE_HEADER],
        request=ValidateInputSerializer,
        responses={
            200: ValidationOutputSerializer,
            400: schema.BAD_REQUEST,
            429: schema.THROTTLED,
        },
    )
    def post(self, request: Request) -> Response:
        """Send `text` (the DeckLab text format) or `entries` (as for a new deck) with the
        `game` (plus `variant` and `extras`). Nothing is saved, and no account is needed.

        Every problem comes back, errors first: the rules' problems (`Problem` records) and
        what could not be read (unknown cards with a did-you-mean, bad lines), the latter with
        their `line` and `text` (text) or `path` (JSON). A card of another game, named
        `<game>/<code>`, is the `foreign-card` problem."""
        given = ValidateInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = dict(given.validated_data)
        game = game_or_400(data["game"])
        fields = check_deck_fields(game, {k: data[k] for k in ("variant", "extras") if k in data})
        common: dict[str, Any] = {
            "game": game,
            "user": request.user,
            "variant": fields.get("variant", ""),
            "extras": fields.get("extras") or {},
        }
        if "text" in data:
            answer = validate_text(text=data["text"], **common)
        else:
            answer = validate_entries(entries=data["entries"], **common)
        return Response(ValidationOutputSerializer(answer, context={"request": request}).data)
