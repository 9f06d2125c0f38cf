"""OpenAPI parameters of the catalog API, declared once and shared by the views.

A game's card list filters on that game's facets; the schema has one card-list operation for
every game, so it lists the union of the games' facet parameters, each saying which games read
it (a game answers 400 to a facet value it cannot read, and ignores another game's facets).
"""

from __future__ import annotations

from typing import Any

from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter

from catalog.api.filters import GENERIC_CARD_FILTERS
from catalog.filters import SORT_CHOICES
from catalog.query.fields import COMMON_FIELDS, game_fields
from catalog.spec import all_games

FACET_MIN, FACET_MAX = 0, 999


def _query(
    name: str, kind: Any, description: Any, enum: list[str] | None = None
) -> OpenApiParameter:
    return OpenApiParameter(name, kind, OpenApiParameter.QUERY, description=description, enum=enum)


def _path(name: str, description: Any, enum: list[str] | None = None) -> OpenApiParameter:
    return OpenApiParameter(
        name, OpenApiTypes.STR, OpenApiParameter.PATH, description=description, enum=enum
    )


GAME_PATH = _path("game", _("The game's slug."), enum=[spec.slug for spec in all_games()])
SET_CODE_PATH = _path("code", _("The set's code within the game."))
CARD_CODE_PATH = _path("code", _("The card's code within the game."))
PRODUCT_CODE_PATH = _path("code", _("The product's code within the game."))
LANGUAGE_HEADER = OpenApiParameter(
    "Accept-Language",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description=_("Language of `name` and of the labels: en (default) or ja."),
    enum=["en", "ja"],
)


def _language_description() -> Any:
    """What ``q`` takes: the search language, and each game's fields (``game_fields``)."""
    per_game = "; ".join(
        f"{spec.slug}: "
        + (", ".join(f"`{f.name}` ({f.kind})" for f in game_fields(spec.slug)) or "-")
        for spec in all_games()
    )
    shared = ", ".join(f"`{name}:`" for name in COMMON_FIELDS)
    return format_lazy(
        "{intro} {shared_label} {shared}. {games_label} {per_game}.",
        intro=_(
            "The card search language (docs/search.md, the site's /search/ page): words and "
            '"phrases" match the Japanese or English name (kana, width and punctuation '
            "ignored); `field:value` and `field>=n` test a field; `-` negates; `or` and "
            "parentheses combine; `order:` and `dir:` sort; `unique:prints` answers one row per "
            "printing (the printing list's shape). A field's value is its code or its label in "
            "English or Japanese (`school:goton`, `school:五遁`). A mistake is a 400 naming its "
            "position and the field or value meant."
        ),
        shared_label=_("Fields of every game:"),
        shared=shared,
        games_label=_("Each game's own fields:"),
        per_game=per_game,
    )


Q = _query("q", OpenApiTypes.STR, _language_description())
Q_SHARED = _query(
    "q",
    OpenApiTypes.STR,
    format_lazy(
        "{intro} {shared_label} {shared}.",
        intro=_(
            "The card search language (docs/search.md), with the fields every game shares; "
            "with `game` given, that game's own fields too (as on its card list)."
        ),
        shared_label=_("Fields of every game:"),
        shared=", ".join(f"`{name}:`" for name in COMMON_FIELDS),
    ),
)
SET = _query("set", OpenApiTypes.STR, _("Set code: cards printed in that set."))
DEMO = _query("demo", OpenApiTypes.BOOL, _("true: only demonstration rows; false: none of them."))
SHOW_DEMO = _query(
    "show_demo",
    OpenApiTypes.BOOL,
    _(
        "true: demonstration cards too, after the real ones. Once a game's real cards are in "
        "the catalog, its demonstration cards are left out unless asked for (this, `demo`, or "
        "`is:demo` in `q`)."
    ),
)
SORT = _query(
    "sort",
    OpenApiTypes.STR,
    _("Order: name (default), type, or number (collector number, within `set` if given)."),
    enum=[code for code, _label in SORT_CHOICES],
)


def _union(values: list[str]) -> list[str]:
    return list(dict.fromkeys(values))


def _card_type_parameter() -> OpenApiParameter:
    codes = _union([t.code for spec in all_games() for t in spec.card_types])
    return _query(
        "type",
        OpenApiTypes.STR,
        _("Card type code of this game (the game's `card_types`); another game's type is a 400."),
        enum=codes,
    )


def _facet_parameters() -> list[OpenApiParameter]:
    """One parameter per facet filter name across the games, saying which games read it."""
    found: dict[str, dict[str, Any]] = {}
    for spec in all_games():
        for facet in spec.facets:
            names: dict[str, Any]
            if facet.kind == "range":
                kind: Any = {"type": "integer", "minimum": FACET_MIN, "maximum": FACET_MAX}
                names = {
                    f"{facet.key}_min": format_lazy(_("{label}: at least"), label=facet.label),
                    f"{facet.key}_max": format_lazy(_("{label}: at most"), label=facet.label),
                }
            else:
                kind = OpenApiTypes.BOOL if facet.kind == "bool" else OpenApiTypes.STR
                names = {facet.key: facet.label}
            for name, label in names.items():
                entry = found.setdefault(
                    name, {"kind": kind, "label": label, "games": [], "enum": []}
                )
                entry["games"].append(spec.name_en)
                entry["enum"].extend(code for code, _label in facet.choices)
    return [
        _query(
            name,
            entry["kind"],
            format_lazy(
                "{label} ({games}: {names})",
                label=entry["label"],
                games=_("games"),
                names=", ".join(entry["games"]),
            ),
            enum=_union(entry["enum"]) or None,
        )
        for name, entry in sorted(found.items())
        if name not in GENERIC_CARD_FILTERS
    ]


CARD_LIST_PARAMETERS = [GAME_PATH, LANGUAGE_HEADER, Q, _card_type_parameter(), SET, DEMO]
CARD_LIST_PARAMETERS += [SHOW_DEMO, SORT]
CARD_LIST_PARAMETERS += _facet_parameters()

CARD_SEARCH_PARAMETERS = [
    LANGUAGE_HEADER,
    Q_SHARED,
    _query(
        "game",
        OpenApiTypes.STR,
        _("Only this game's cards."),
        enum=[spec.slug for spec in all_games()],
    ),
    SET,
    DEMO,
    SHOW_DEMO,
    SORT,
]

SET_LIST_PARAMETERS = [
    GAME_PATH,
    LANGUAGE_HEADER,
    _query(
        "kind",
        OpenApiTypes.STR,
        _("Kind of set."),
        enum=_union([code for spec in all_games() for code, _label in spec.set_kinds]),
    ),
    DEMO,
]

PRODUCT_LIST_PARAMETERS = [
    GAME_PATH,
    LANGUAGE_HEADER,
    _query(
        "kind",
        OpenApiTypes.STR,
        _("Kind of product."),
        enum=_union([code for spec in all_games() for code, _label in spec.product_kinds]),
    ),
    _query("set", OpenApiTypes.STR, _("Set code: products of that set.")),
    DEMO,
]

PRINTING_LIST_PARAMETERS = [
    GAME_PATH,
    LANGUAGE_HEADER,
    _query("set", OpenApiTypes.STR, _("Set code: the set's printings.")),
    _query("card", OpenApiTypes.STR, _("Card code: the card's printings.")),
    _query(
        "variant",
        OpenApiTypes.STR,
        _("Printing variant: one the game declares (the game's `variants`)."),
        enum=_union([code for spec in all_games() for code, _label in spec.variants]) or None,
    ),
    DEMO,
]
