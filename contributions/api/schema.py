"""OpenAPI pieces of the contributions API, declared once and shared by the views."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse

from contributions.models import Proposal

TAG = "contributions"

PROPOSAL_ID = OpenApiParameter(
    "proposal_id", OpenApiTypes.INT, OpenApiParameter.PATH, description=_("The proposal's id.")
)
CHANGE_ID = OpenApiParameter(
    "change_id", OpenApiTypes.INT, OpenApiParameter.PATH, description=_("The change's id.")
)
GAME = OpenApiParameter(
    "game", OpenApiTypes.STR, OpenApiParameter.PATH, description=_("The game's slug.")
)
CARD_CODE = OpenApiParameter(
    "code", OpenApiTypes.STR, OpenApiParameter.PATH, description=_("The card's code.")
)


def _query(name: str, description: Any, enum: list[str] | None = None) -> OpenApiParameter:
    return OpenApiParameter(
        name, OpenApiTypes.STR, OpenApiParameter.QUERY, description=description, enum=enum
    )


LIST_PARAMETERS = [
    _query("state", _("Only proposals in this state."), list(Proposal.State.values)),
    _query("game", _("Only this game's proposals (its slug).")),
]
TEMPLATE_PARAMETERS = [
    GAME,
    _query(
        "set",
        _(
            "A card sheet: its example rows are printed in this set. A names sheet (needs it): "
            "the set whose cards to name."
        ),
    ),
    _query("kind", _("sheet (cards, the default) or names."), ["sheet", "names"]),
]

_PROBLEMS = {
    "type": "object",
    "properties": {
        "detail": {"type": "string"},
        "problems": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"where": {"type": "string"}, "message": {"type": "string"}},
            },
        },
    },
}
_DETAIL = {"type": "object", "properties": {"detail": {"type": "string"}}}

REFUSED_EXAMPLE = OpenApiExample(
    "Refused",
    value={
        "detail": "The proposal was refused, so nothing was saved: see each problem.",
        "problems": [
            {"where": "source_detail", "message": "This field may not be blank."},
            {"where": "cards[0]: attributes.attack", "message": "Enter a whole number."},
        ],
    },
    response_only=True,
    status_codes=["400"],
)

BAD_REQUEST = OpenApiResponse(
    response=_PROBLEMS,
    description=_("Refused: `problems` lists every reason, each at its field or place."),
    examples=[REFUSED_EXAMPLE],
)
UNAUTHORIZED = OpenApiResponse(
    response=_DETAIL, description=_("Not signed in: send a Token (or a session cookie).")
)
FORBIDDEN = OpenApiResponse(
    response=_PROBLEMS,
    description=_("Not allowed: not an editor, not the author, or your own proposal."),
)
NOT_FOUND = OpenApiResponse(
    response=_DETAIL,
    description=_("No such proposal (or it is neither yours nor are you an editor)."),
)
THROTTLED = OpenApiResponse(
    response=_PROBLEMS,
    description=_("You sent the most proposals allowed in an hour: retry after Retry-After."),
)

CREATE_EXAMPLES = [
    OpenApiExample(
        "A new card",
        value={
            "kind": "card",
            "game": "my-game",
            "source_kind": "in_hand",
            "source_detail": "My copy of the starter deck",
            "payload": {
                "format": "decklab-catalog",
                "version": 1,
                "game": "my-game",
                "cards": [
                    {
                        "code": "T-002",
                        "type": "unit",
                        "name_en": "Second Scout",
                        "attributes": {"attack": 1, "movement": 2, "reach": 1},
                        "printings": [{"set": "t1", "number": "002"}],
                    }
                ],
            },
        },
        request_only=True,
    ),
    OpenApiExample(
        "A card sheet",
        value={
            "kind": "sheet",
            "game": "my-game",
            "source_kind": "rulebook",
            "source_detail": "The set's card list",
            "sheet": "code,type,name_en,set,number,attack,movement,reach\r\n"
            "T-002,unit,Second Scout,t1,002,1,2,1\r\n",
        },
        request_only=True,
    ),
]
