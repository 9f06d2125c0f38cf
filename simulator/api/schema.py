"""OpenAPI pieces of the simulation API, declared once and shared by the views."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse

TAG = "simulations"

RUN_ID = OpenApiParameter(
    "public_id",
    OpenApiTypes.STR,
    OpenApiParameter.PATH,
    description=_("The run's public id."),
)

_DETAIL = {"type": "object", "properties": {"detail": {"type": "string"}}}
_FIELDS = {
    "type": "object",
    "additionalProperties": {},
    "description": "Each bad field with its reasons (lists of strings); a bad engine parameter "
    'is named under params: {"params": {"opponent_hp": ["…"]}}.',
}

BAD_REQUEST = OpenApiResponse(response=_FIELDS, description=_("Bad input: each bad field and why."))
UNAUTHORIZED = OpenApiResponse(
    response=_DETAIL, description=_("Not signed in: send a Token (or a session cookie).")
)
NOT_FOUND = OpenApiResponse(
    response=_DETAIL, description=_("No such run, or a run that is not yours.")
)
ALREADY_FINISHED = OpenApiResponse(
    response=_DETAIL, description=_("The run had already finished, so it was not cancelled.")
)
TOO_MANY_RUNS = OpenApiResponse(
    response={
        "type": "object",
        "properties": {"detail": {"type": "string"}, "code": {"type": "string"}},
    },
    description=_("You already have the most simulations queued or running at once."),
)

TUNING_ID = OpenApiParameter(
    "public_id",
    OpenApiTypes.STR,
    OpenApiParameter.PATH,
    description=_("The tuning's public id."),
)
DECK_ID = OpenApiParameter(
    "public_id",
    OpenApiTypes.STR,
    OpenApiParameter.PATH,
    description=_("The deck's public id."),
)
TUNING_NOT_FOUND = OpenApiResponse(
    response=_DETAIL, description=_("No such tuning, or a tuning that is not yours.")
)
DECK_NOT_FOUND = OpenApiResponse(
    response=_DETAIL, description=_("No such deck, or a private deck that is not yours.")
)
APPLY_NOT_FOUND = OpenApiResponse(
    response=_DETAIL,
    description=_("No such tuning, a tuning that is not yours, or a deck you do not own."),
)
TUNING_FINISHED = OpenApiResponse(
    response=_DETAIL, description=_("The tuning had already finished, so it was not cancelled.")
)
