"""OpenAPI pieces of the deck API, declared once and shared by the views."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse

from decks.api.inputs import deck_game_slugs
from decks.imports.formats import format_codes

TAG = "decks"

DECK_ID = OpenApiParameter(
    "public_id",
    OpenApiTypes.STR,
    OpenApiParameter.PATH,
    description=_("The deck's public id (its link)."),
)
ENTRY_ID = OpenApiParameter(
    "entry_id", OpenApiTypes.INT, OpenApiParameter.PATH, description=_("The entry's id.")
)
REVISION_NUMBER = OpenApiParameter(
    "number", OpenApiTypes.INT, OpenApiParameter.PATH, description=_("The revision's number.")
)
IF_MATCH = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description=_(
        "The version you read, quoted: \"3\" (the deck's ETag). Instead of the body's "
        "`version`; one of the two is required."
    ),
)
VERSION_QUERY = OpenApiParameter(
    "version",
    OpenApiTypes.INT,
    OpenApiParameter.QUERY,
    description=_("The version you read (or send If-Match); one of the two is required."),
)
LANGUAGE_HEADER = OpenApiParameter(
    "Accept-Language",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description=_("Language of card names and of error messages: en (default) or ja."),
    enum=["en", "ja"],
)


def _query(name: str, kind: Any, description: Any, enum: list[str] | None = None) -> Any:
    return OpenApiParameter(name, kind, OpenApiParameter.QUERY, description=description, enum=enum)


LIST_PARAMETERS = [
    LANGUAGE_HEADER,
    _query(
        "public",
        OpenApiTypes.STR,
        _("1: browse a game's public decks (needs `game`); 0 or left out: your own decks."),
        enum=["1", "0", "true", "false"],
    ),
    _query("game", OpenApiTypes.STR, _("Only this game's decks."), enum=deck_game_slugs()),
    _query(
        "legal",
        OpenApiTypes.STR,
        _("1: only decks that are legal."),
        enum=["1", "0", "true", "false"],
    ),
    _query("card", OpenApiTypes.STR, _("Only decks with this card (its code).")),
    _query("player", OpenApiTypes.STR, _("With public=1: only this player's decks (username).")),
]
DIFF_PARAMETERS = [
    DECK_ID,
    _query("from", OpenApiTypes.INT, _("The older revision's number.")),
    _query("to", OpenApiTypes.INT, _("The newer revision's number.")),
]
EXPORT_PARAMETERS = [
    DECK_ID,
    _query(
        "format",
        OpenApiTypes.STR,
        _("text (DeckLab text format, default) or one of the deck's game's own formats."),
        enum=format_codes(),
    ),
    _query(
        "names",
        OpenApiTypes.STR,
        _(
            "The language of the text list's card names: en or ja; by default the request's "
            "(Accept-Language). Importing reads either."
        ),
        enum=["en", "ja"],
    ),
]

_DETAIL = {"type": "object", "properties": {"detail": {"type": "string"}}}
_FIELDS = {
    "type": "object",
    "additionalProperties": {},
    "description": "Each bad field with its reasons (lists of strings). Errors of a list's "
    'items are keyed by the item\'s index: {"entries": {"2": {"quantity": ["…"]}}}.',
}

BAD_REQUEST = OpenApiResponse(
    response=_FIELDS, description=_("Bad input: each bad field (or query parameter) and why.")
)
UNAUTHORIZED = OpenApiResponse(
    response=_DETAIL, description=_("Not signed in: send a Token (or a session cookie).")
)
FORBIDDEN = OpenApiResponse(
    response=_DETAIL, description=_("You can see this deck but it is not yours to change.")
)
NOT_FOUND = OpenApiResponse(
    response=_DETAIL, description=_("No such deck, or a private deck that is not yours.")
)
CONFLICT = OpenApiResponse(
    response={
        "type": "object",
        "properties": {
            "detail": {"type": "string"},
            "current_version": {"type": "integer", "nullable": True},
        },
    },
    description=_(
        "The deck was changed since the version you sent: nothing was saved. Reload the deck "
        "(its current version is given) and apply your change again."
    ),
)
PRECONDITION_REQUIRED = OpenApiResponse(
    response=_FIELDS,
    description=_("No version: send the version you read (`version` or If-Match)."),
)
THROTTLED = OpenApiResponse(response=_DETAIL, description=_("Too many requests: wait and retry."))

WRITE_ERRORS = {
    400: BAD_REQUEST,
    401: UNAUTHORIZED,
    403: FORBIDDEN,
    404: NOT_FOUND,
    409: CONFLICT,
    428: PRECONDITION_REQUIRED,
}
