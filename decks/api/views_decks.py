"""Decks: list and create, read, replace, change and delete one, copy one, deck from a product.

Access and versions are ``decks.api.access``'s: private decks are 404 to others, a visible
deck that is not yours is 403 to write, every write names the version it read (428 without
one, 409 when stale). Writes go through ``decks.services``; reads through the selectors.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import generics, status
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from catalog.api.pagination import CatalogPagination
from catalog.models import Game, Product
from decks import errors as deck_errors
from decks.api import errors, schema
from decks.api.access import (
    AuthenticatedDeckApiView,
    DeckApiView,
    deck_for_reader,
    deck_for_writer,
    expected_version,
)
from decks.api.cards import entry_specs
from decks.api.inputs import (
    CloneInputSerializer,
    DeckCreateInputSerializer,
    DeckReplaceInputSerializer,
    DeckUpdateInputSerializer,
    FromProductInputSerializer,
    check_deck_fields,
)
from decks.api.reads import deck_list, game_find
from decks.api.responses import deck_response
from decks.api.serializers import DeckDetailOutputSerializer, DeckOutputSerializer
from decks.models import Deck
from decks.services import (
    deck_clone,
    deck_create,
    deck_delete,
    deck_from_product,
    deck_replace,
    deck_update,
)


def _same_game(deck: Deck, data: Any) -> None:
    """A body read back from GET names the deck's game; naming another one is a mistake."""
    named = data.get("game") if isinstance(data, dict) else None
    if named is not None and named != deck.game.slug:
        raise ValidationError({"game": [errors.GAME_FIXED]})


def game_or_400(slug: str, field: str = "game") -> Game:
    game = game_find(slug)
    if game is None:
        raise ValidationError({field: [errors.UNKNOWN_GAME]})
    return game


# --- The collection -------------------------------------------------------------------------


class DeckCollectionApi(DeckApiView, generics.ListAPIView[Deck]):
    """Your decks (GET without ``public``), a game's public decks (``public=1``), a new deck."""

    serializer_class = DeckOutputSerializer
    pagination_class = CatalogPagination
    filter_backends = ()

    def get_queryset(self) -> QuerySet[Deck]:
        return deck_list(user=self.request.user, filters=self.request.query_params)

    @extend_schema(
        tags=[schema.TAG],
        summary=_("List your decks or a game's public decks"),
        parameters=schema.LIST_PARAMETERS,
        responses={200: DeckOutputSerializer, 400: schema.BAD_REQUEST, 401: schema.UNAUTHORIZED},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Signed in and without `public`: your own decks, whatever their visibility.

        With `public=1` (anyone, signed in or not): a game's public decks, newest first;
        unlisted and private decks are never listed.
        """
        return super().get(request, *args, **kwargs)

    @extend_schema(
        tags=[schema.TAG],
        summary=_("Create a deck"),
        parameters=[schema.LANGUAGE_HEADER],
        request=DeckCreateInputSerializer,
        responses={
            201: DeckDetailOutputSerializer,
            400: schema.BAD_REQUEST,
            401: schema.UNAUTHORIZED,
        },
    )
    def post(self, request: Request) -> Response:
        """A new deck of yours, private unless you say otherwise, with its first revision."""
        given = DeckCreateInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = dict(given.validated_data)
        game = game_or_400(data.pop("game"))
        fields = check_deck_fields(game, data)
        specs = entry_specs(game=game, user=request.user, entries=fields.pop("entries", []))
        deck = deck_create(owner=request.user, game=game, entries=specs, **fields)
        return deck_response(request, deck, status=status.HTTP_201_CREATED)


# --- One deck -------------------------------------------------------------------------------


class DeckDetailApi(DeckApiView):
    deck: Deck

    @extend_schema(
        tags=[schema.TAG],
        summary=_("Get a deck"),
        parameters=[schema.DECK_ID, schema.LANGUAGE_HEADER],
        responses={200: DeckDetailOutputSerializer, 404: schema.NOT_FOUND},
    )
    def get(self, request: Request, public_id: str) -> Response:
        """The deck with its entries, its legality checked now, and its version (also the
        ETag) to send back with your next change. Private decks are 404 to all but the owner;
        unlisted ones are readable by anyone with the link."""
        return deck_response(request, deck_for_reader(request, public_id))

    @extend_schema(
        tags=[schema.TAG],
        summary=_("Replace a deck"),
        parameters=[schema.DECK_ID, schema.IF_MATCH, schema.LANGUAGE_HEADER],
        request=DeckReplaceInputSerializer,
        responses={200: DeckDetailOutputSerializer, **schema.WRITE_ERRORS},
    )
    def put(self, request: Request, public_id: str) -> Response:
        """The whole list and the deck's fields at once; fields left out take the defaults a
        new deck gets (no description, private, the game's default variant, no extras)."""
        self.deck = deck_for_writer(request, public_id)
        given = DeckReplaceInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        _same_game(self.deck, request.data)
        version = expected_version(request)
        data = dict(given.validated_data)
        data.pop("version", None)
        fields = check_deck_fields(self.deck.game, data)
        specs = entry_specs(game=self.deck.game, user=request.user, entries=fields.pop("entries"))
        deck_replace(
            deck=self.deck, user=request.user, expected_version=version, entries=specs, **fields
        )
        return deck_response(request, self.deck)

    @extend_schema(
        tags=[schema.TAG],
        summary=_("Change a deck's fields"),
        parameters=[schema.DECK_ID, schema.IF_MATCH, schema.LANGUAGE_HEADER],
        request=DeckUpdateInputSerializer,
        responses={200: DeckDetailOutputSerializer, **schema.WRITE_ERRORS},
    )
    def patch(self, request: Request, public_id: str) -> Response:
        """Name, description, visibility, rules variant or extras: only those sent change."""
        self.deck = deck_for_writer(request, public_id)
        given = DeckUpdateInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        _same_game(self.deck, request.data)
        version = expected_version(request)
        data = dict(given.validated_data)
        data.pop("version", None)
        if not data:
            raise ValidationError({"non_field_errors": [errors.NOTHING_TO_CHANGE]})
        fields = check_deck_fields(self.deck.game, data)
        deck_update(deck=self.deck, user=request.user, expected_version=version, **fields)
        return deck_response(request, self.deck)

    @extend_schema(
        tags=[schema.TAG],
        summary=_("Delete a deck"),
        parameters=[schema.DECK_ID, schema.IF_MATCH, schema.VERSION_QUERY],
        request=None,
        responses={204: None, **schema.WRITE_ERRORS},
    )
    def delete(self, request: Request, public_id: str) -> Response:
        """Delete the deck and its history, if it is still at the version you name."""
        self.deck = deck_for_writer(request, public_id)
        version = expected_version(request)
        with transaction.atomic():
            # deck_delete takes no version: hold the row while checking that it is current.
            current = Deck.objects.select_for_update().filter(pk=self.deck.pk, version=version)
            if not current.exists():
                raise deck_errors.StaleDeckError
            deck_delete(deck=self.deck)
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- New decks from others ------------------------------------------------------------------


class DeckCloneApi(AuthenticatedDeckApiView):
    @extend_schema(
        tags=[schema.TAG],
        summary=_("Copy a deck"),
        parameters=[schema.DECK_ID, schema.LANGUAGE_HEADER],
        request=CloneInputSerializer,
        responses={
            201: DeckDetailOutputSerializer,
            400: schema.BAD_REQUEST,
            401: schema.UNAUTHORIZED,
            404: schema.NOT_FOUND,
        },
    )
    def post(self, request: Request, public_id: str) -> Response:
        """A private copy, yours, of any deck you can see (yours, public or unlisted)."""
        original = deck_for_reader(request, public_id)
        given = CloneInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        copy = deck_clone(deck=original, user=request.user, name=given.validated_data.get("name"))
        return deck_response(request, copy, status=status.HTTP_201_CREATED)


class DeckFromProductApi(AuthenticatedDeckApiView):
    @extend_schema(
        tags=[schema.TAG],
        summary=_("Create a deck from a product"),
        parameters=[schema.LANGUAGE_HEADER],
        request=FromProductInputSerializer,
        responses={
            201: DeckDetailOutputSerializer,
            400: schema.BAD_REQUEST,
            401: schema.UNAUTHORIZED,
        },
    )
    def post(self, request: Request) -> Response:
        """A new private deck holding a product's contents (a starter or a hero deck)."""
        given = FromProductInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        game = game_or_400(data["game"])
        product = Product.objects.filter(game=game, code=data["product"]).first()
        if product is None:
            message = str(errors.UNKNOWN_PRODUCT) % {"game": game.name_en, "code": data["product"]}
            raise ValidationError({"product": [message]})
        if not product.items.exists():
            raise ValidationError({"product": [errors.PRODUCT_EMPTY]})
        deck = deck_from_product(product=product, user=request.user, name=data.get("name"))
        return deck_response(request, deck, status=status.HTTP_201_CREATED)
