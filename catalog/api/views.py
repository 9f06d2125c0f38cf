"""Read-only catalog API: one view per operation, reads in ``catalog.api.selectors``.

Objects are addressed by the game's slug and their code within the game, never database ids.
A bad query parameter is a 400 naming it (raised by the selectors' FilterSets or the paginator);
an unknown game or code is a 404.
"""

from __future__ import annotations

import json
from typing import Any, TypeVar

from csp.constants import SELF, UNSAFE_INLINE
from csp.decorators import csp_update
from django.db.models import Model, QuerySet
from django.http import HttpResponse
from django.template import Context, Engine
from django.utils.decorators import method_decorator
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from drf_spectacular.settings import spectacular_settings
from drf_spectacular.utils import OpenApiResponse, extend_schema
from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerView
from rest_framework import generics
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from catalog.api import schema, selectors
from catalog.api.filters import api_card_filterset_for, printing_filterset_for
from catalog.api.pagination import CappedCountPagination
from catalog.api.serializers import (
    CardDetailOutputSerializer,
    CardOutputSerializer,
    CardSetOutputSerializer,
    GameDetailOutputSerializer,
    GameOutputSerializer,
    PrintingOutputSerializer,
    ProductDetailOutputSerializer,
    ProductOutputSerializer,
)
from catalog.models import Card, CardSet, Game, Printing, Product
from catalog.query.context import search_context
from catalog.spec import get_game, is_game

_M = TypeVar("_M", bound=Model)

GAME_NOT_FOUND = _("No game with this slug.")
SET_NOT_FOUND = _("This game has no set with this code.")
CARD_NOT_FOUND = _("This game has no card with this code.")
PRODUCT_NOT_FOUND = _("This game has no product with this code.")

TAG = "catalog"
BAD_PARAMETER = OpenApiResponse(
    response={
        "type": "object",
        "additionalProperties": {"type": "array", "items": {"type": "string"}},
    },
    description=_("A query parameter is invalid: each bad parameter with its reasons."),
)
NOT_FOUND = OpenApiResponse(
    response={"type": "object", "properties": {"detail": {"type": "string"}}},
    description=_("No such game, or no such code in the game."),
)


def _game_or_404(slug: str) -> Game:
    game = selectors.game_find(slug=slug)
    if game is None:
        raise NotFound(GAME_NOT_FOUND)
    return game


class CatalogListApi(generics.ListAPIView[_M]):
    """What every catalog list shares: bounded pages, filtering done by the selector."""

    pagination_class = CappedCountPagination
    filter_backends = ()

    @property
    def game(self) -> Game:
        return _game_or_404(self.kwargs["game"])


# --- Games ----------------------------------------------------------------------------------


@extend_schema(
    tags=[TAG],
    summary=_("List the games"),
    parameters=[schema.LANGUAGE_HEADER],
)
class GameListApi(generics.ListAPIView[Game]):
    """Every game with a catalog, with how many sets, cards, printings and products it has."""

    serializer_class = GameOutputSerializer
    pagination_class = None  # five games; one short list
    filter_backends = ()

    def get_queryset(self) -> QuerySet[Game]:
        return selectors.game_list()


@extend_schema(
    tags=[TAG],
    summary=_("Get a game"),
    parameters=[schema.GAME_PATH, schema.LANGUAGE_HEADER],
    responses={200: GameDetailOutputSerializer, 404: NOT_FOUND},
)
class GameDetailApi(generics.RetrieveAPIView[Game]):
    """A game with its card types, attributes, facets (the card list's filters) and variants."""

    serializer_class = GameDetailOutputSerializer

    def get_object(self) -> Game:
        game = selectors.game_get(slug=self.kwargs["game"])
        if game is None:
            raise NotFound(GAME_NOT_FOUND)
        return game


# --- Sets -----------------------------------------------------------------------------------


@extend_schema(
    tags=[TAG],
    summary=_("List a game's sets"),
    parameters=schema.SET_LIST_PARAMETERS,
    responses={200: CardSetOutputSerializer, 400: BAD_PARAMETER, 404: NOT_FOUND},
)
class SetListApi(CatalogListApi[CardSet]):
    """A game's sets in release order, with their card and printing counts."""

    serializer_class = CardSetOutputSerializer

    def get_queryset(self) -> QuerySet[CardSet]:
        return selectors.set_list(game=self.game, filters=self.request.query_params)


@extend_schema(
    tags=[TAG],
    summary=_("Get a set"),
    parameters=[schema.GAME_PATH, schema.SET_CODE_PATH, schema.LANGUAGE_HEADER],
    responses={200: CardSetOutputSerializer, 404: NOT_FOUND},
)
class SetDetailApi(generics.RetrieveAPIView[CardSet]):
    serializer_class = CardSetOutputSerializer

    def get_object(self) -> CardSet:
        found = selectors.set_get(game=_game_or_404(self.kwargs["game"]), code=self.kwargs["code"])
        if found is None:
            raise NotFound(SET_NOT_FOUND)
        return found


# --- Cards ----------------------------------------------------------------------------------


@extend_schema(
    tags=[TAG],
    summary=_("List or search a game's cards"),
    parameters=schema.CARD_LIST_PARAMETERS,
    responses={200: CardOutputSerializer, 400: BAD_PARAMETER, 404: NOT_FOUND},
)
class CardListApi(CatalogListApi[Card]):
    """A game's cards, one row per card with its printings.

    Filters: `q` (the card search language: name words in Japanese or English, the game's
    fields such as `value>=3`, `-`, `or`, parentheses, `order:`; see `q` below), `type`, `set`,
    `demo`, and the game's facets (see the game's `facets`: `<key>` for a choice, list or
    yes/no facet, `<key>_min` / `<key>_max` for a number). Facets of other games are ignored.
    """

    serializer_class = CardOutputSerializer

    @classmethod
    def query_parameters_for(cls, kwargs: dict[str, Any]) -> set[str]:
        """The game's own facet filters (decklab.api.middleware reads them beside the schema)."""
        slug = kwargs.get("game")
        if not isinstance(slug, str) or not is_game(slug):
            return set()
        return set(api_card_filterset_for(get_game(slug)).base_filters)

    def get_queryset(self) -> QuerySet[Card]:
        found = selectors.card_list(
            game=self.game,
            filters=self.request.query_params,
            context=search_context(user=self.request.user),
        )
        # ``unique:prints`` in q: the rows are printings, in the printing list's shape
        self.rows_are_printings = found.model is Printing
        return found  # type: ignore[return-value]

    def get_serializer_class(self) -> Any:
        if getattr(self, "rows_are_printings", False):
            return PrintingOutputSerializer
        return super().get_serializer_class()


@extend_schema(
    tags=[TAG],
    summary=_("Search cards across games"),
    parameters=schema.CARD_SEARCH_PARAMETERS,
    responses={200: CardOutputSerializer, 400: BAD_PARAMETER},
)
class CardSearchApi(CatalogListApi[Card]):
    """Cards of every game by name (Japanese or English), with the generic filters only."""

    serializer_class = CardOutputSerializer

    def get_queryset(self) -> QuerySet[Card]:
        return selectors.card_search(filters=self.request.query_params)


@extend_schema(
    tags=[TAG],
    summary=_("Get a card"),
    parameters=[schema.GAME_PATH, schema.CARD_CODE_PATH, schema.LANGUAGE_HEADER],
    responses={200: CardDetailOutputSerializer, 404: NOT_FOUND},
)
class CardDetailApi(generics.RetrieveAPIView[Card]):
    """A card with every printing and the products that contain it."""

    serializer_class = CardDetailOutputSerializer

    def get_object(self) -> Card:
        found = selectors.card_get(game=_game_or_404(self.kwargs["game"]), code=self.kwargs["code"])
        if found is None:
            raise NotFound(CARD_NOT_FOUND)
        return found


# --- Printings ------------------------------------------------------------------------------


@extend_schema(
    tags=[TAG],
    summary=_("List a game's printings"),
    parameters=schema.PRINTING_LIST_PARAMETERS,
    responses={200: PrintingOutputSerializer, 400: BAD_PARAMETER, 404: NOT_FOUND},
)
class PrintingListApi(CatalogListApi[Printing]):
    """One row per printing (card × set × collector number × variant), in set order."""

    serializer_class = PrintingOutputSerializer

    @classmethod
    def query_parameters_for(cls, kwargs: dict[str, Any]) -> set[str]:
        """The game's own printing filters (read beside the schema, as for cards)."""
        slug = kwargs.get("game")
        if not isinstance(slug, str) or not is_game(slug):
            return set()
        return set(printing_filterset_for(get_game(slug)).base_filters)

    def get_queryset(self) -> QuerySet[Printing]:
        return selectors.printing_list(game=self.game, filters=self.request.query_params)


# --- Products -------------------------------------------------------------------------------


@extend_schema(
    tags=[TAG],
    summary=_("List a game's products"),
    parameters=schema.PRODUCT_LIST_PARAMETERS,
    responses={200: ProductOutputSerializer, 400: BAD_PARAMETER, 404: NOT_FOUND},
)
class ProductListApi(CatalogListApi[Product]):
    """Starter decks, prebuilt decks and boxes, in release order."""

    serializer_class = ProductOutputSerializer

    def get_queryset(self) -> QuerySet[Product]:
        return selectors.product_list(game=self.game, filters=self.request.query_params)


@extend_schema(
    tags=[TAG],
    summary=_("Get a product with its contents"),
    parameters=[schema.GAME_PATH, schema.PRODUCT_CODE_PATH, schema.LANGUAGE_HEADER],
    responses={200: ProductDetailOutputSerializer, 404: NOT_FOUND},
)
class ProductDetailApi(generics.RetrieveAPIView[Product]):
    serializer_class = ProductDetailOutputSerializer

    def get_object(self) -> Product:
        found = selectors.product_get(
            game=_game_or_404(self.kwargs["game"]), code=self.kwargs["code"]
        )
        if found is None:
            raise NotFound(PRODUCT_NOT_FOUND)
        return found


# --- Documentation, served from our own static files ---------------------------------------


# The two documentation pages are third-party apps built on inline scripts and styles; they show
# only the schema (no player's text), so they alone get 'unsafe-inline'.
_DOCS_CSP = csp_update(
    {"script-src": [UNSAFE_INLINE], "style-src": [UNSAFE_INLINE], "worker-src": [SELF, "blob:"]}
)


@method_decorator(_DOCS_CSP, name="dispatch")
class SwaggerDocsView(SpectacularSwaggerView):
    url_name = "catalog-api:schema"

    @extend_schema(exclude=True)
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        response = super().get(request, *args, **kwargs)
        configured = spectacular_settings.SWAGGER_UI_SETTINGS
        if isinstance(configured, dict) and response.data is not None:
            # Swagger UI would otherwise ask validator.swagger.io to badge the schema.
            response.data["settings"] = json.dumps({**configured, "validatorUrl": None})
        return response


# The sidecar's Redoc page asks Google Fonts for its typefaces; this one loads nothing remote.
_REDOC_PAGE = Engine.get_default().from_string(
    """<!DOCTYPE html>
<html lang="{{ language }}">
<head>
<title>{{ title }}</title>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body { margin: 0; padding: 0; }</style>
</head>
<body>
<div id="redoc-container"></div>
<script src="{{ redoc_standalone }}"></script>
<script>
Redoc.init({{ schema_url_json|safe }}, {{ settings_json|safe }},
  document.getElementById("redoc-container"));
</script>
</body>
</html>
"""
)


@method_decorator(_DOCS_CSP, name="dispatch")
class RedocDocsView(SpectacularRedocView):
    url_name = "catalog-api:schema"

    @extend_schema(exclude=True)
    def get(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponse:
        data = super().get(request, *args, **kwargs).data or {}
        html = _REDOC_PAGE.render(
            Context(
                {
                    "language": get_language() or "en",
                    "title": data["title"],
                    "redoc_standalone": data["redoc_standalone"],
                    # json.dumps escapes nothing for HTML; "</" cannot close the script early.
                    "schema_url_json": json.dumps(data["schema_url"]).replace("</", "<\\/"),
                    "settings_json": (data["settings"] or "{}").replace("</", "<\\/"),
                }
            )
        )
        return HttpResponse(html, content_type="text/html; charset=utf-8")
