"""``/api/v1/``: the API's entry points, so a client (or a person trying the address) starts
from one document instead of a 404. Each app keeps its own URLs; this only names them."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

#: entry point -> its URL's name
ENTRY_POINTS: dict[str, str] = {
    "games": "catalog-api:game-list",
    "cards": "catalog-api:card-search",
    "decks": "decks-api:deck-list",
    "deck_validation": "decks-api:deck-validate",
    "deck_import": "decks-api:deck-import",
    "runs": "simulator-api:run-list",
    "engines": "simulator-api:engine-list",
    "collection": "collection-api:item-list",
    "wishlist": "collection-api:wishlist",
    "proposals": "contributions-api:proposal-list",
    "docs": "catalog-api:docs",
    "redoc": "catalog-api:redoc",
    "schema": "catalog-api:schema",
}


def _link(help_text: Any) -> serializers.URLField:
    return serializers.URLField(read_only=True, help_text=help_text)


class ApiRootOutputSerializer(serializers.Serializer[dict[str, str]]):
    """One absolute link per entry point."""

    games = _link(_("The games, each with its sets, cards, printings and products."))
    cards = _link(_("Cards of every game: q, game (then its own fields in q), set, demo, sort."))
    decks = _link(_("Decks: yours and the public ones; create one."))
    deck_validation = _link(_("Check a deck list without saving it."))
    deck_import = _link(_("Import a deck list as a new deck."))
    runs = _link(_("Your goldfish simulation runs; start one."))
    engines = _link(_("Each game's simulation engine and its parameters."))
    collection = _link(_("The printings you own."))
    wishlist = _link(_("The printings you want."))
    proposals = _link(_("Your proposals to the catalog; propose new facts."))
    docs = _link(_("This API's documentation (Swagger UI)."))
    redoc = _link(_("This API's documentation (Redoc)."))
    schema = _link(_("The OpenAPI schema."))


class ApiRootApi(APIView):
    @extend_schema(
        tags=["api"],
        summary=_("The API's entry points"),
        responses={200: ApiRootOutputSerializer},
    )
    def get(self, request: Request) -> Response:
        """Absolute links to the main collections, the documentation and the schema."""
        links = {
            name: request.build_absolute_uri(reverse(url_name))
            for name, url_name in ENTRY_POINTS.items()
        }
        return Response(links)
