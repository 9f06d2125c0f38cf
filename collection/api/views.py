"""The collection API: items, imports, exports, wishlist, settings, and a deck against the
collection. Only the owner sees or changes a collection; a public one is readable by anyone
(``?owner=<username>``), never writable by them. Everything else is 404."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.exceptions import NotAuthenticated, NotFound, ValidationError
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from catalog.api.pagination import CatalogPagination
from catalog.models import Card, Game
from catalog.query.errors import QueryError
from collection import errors
from collection.api import serializers as s
from collection.imports import (
    CollectionImportError,
    collection_export,
    collection_import_commit_batch,
    collection_import_preview,
    dialect_or_none,
)
from collection.interchange.dialects import dialect_codes
from collection.interchange.read import Problem
from collection.interchange.write import export_wishlist
from collection.models import CollectionItem, CollectionSettings, ImportBatch, WishlistItem
from collection.report import deck_collection_report
from collection.selectors import (
    collection_items,
    collection_owner_for,
    printing_find,
    wishlist,
)
from collection.services import (
    ItemSpec,
    collection_add,
    collection_import_undo,
    collection_item_move,
    collection_item_set_quantity,
    collection_item_update,
    collection_settings_update,
    deck_mark_built,
    deck_unmark_built,
    spec_problems,
    wishlist_add,
    wishlist_add_missing,
    wishlist_set_quantity,
)
from collection.vocab import default_language
from decklab.api.parsers import SafeJSONParser
from decklab.api.throttling import AtomicUserRateThrottle
from decks.api.views_io import KeepFormatParameter
from decks.models import Deck
from decks.selectors import deck_get_for_viewer

TAG = "collection"
NOT_FOUND_MESSAGE = _("No such collection, item or import, or it is not yours.")
UNKNOWN_GAME = _("No game with this slug.")
UNKNOWN_PRINTING = _("No printing matches this set, number and variant (and card).")
UNKNOWN_CARD = _("%(game)s has no card with the code “%(code)s”.")
READ_ONLY = _("A public collection can be read, not changed, by others.")
FORMAT_UNKNOWN = _("Give one of the formats: %(formats)s.")

_DETAIL = {"type": "object", "properties": {"detail": {"type": "string"}}}
BAD_REQUEST = OpenApiResponse(
    response={"type": "object", "additionalProperties": {}},
    description=_("Bad input: each bad field and why."),
)
NOT_FOUND = OpenApiResponse(response=_DETAIL, description=NOT_FOUND_MESSAGE)
UNAUTHORIZED = OpenApiResponse(response=_DETAIL, description=_("Not signed in."))
OWNER = OpenApiParameter(
    "owner",
    OpenApiTypes.STR,
    OpenApiParameter.QUERY,
    description=_("Read another player's collection (only if they made it public)."),
)
ITEM_ID = OpenApiParameter("item_id", OpenApiTypes.INT, OpenApiParameter.PATH)
BATCH_ID = OpenApiParameter("batch_id", OpenApiTypes.INT, OpenApiParameter.PATH)
WISH_ID = OpenApiParameter("wish_id", OpenApiTypes.INT, OpenApiParameter.PATH)
DECK_ID = OpenApiParameter("public_id", OpenApiTypes.STR, OpenApiParameter.PATH)


def _query(name: str, description: Any, enum: list[str] | None = None) -> OpenApiParameter:
    return OpenApiParameter(
        name, OpenApiTypes.STR, OpenApiParameter.QUERY, description=description, enum=enum
    )


ITEM_FILTERS = [
    OWNER,
    _query("game", _("Only this game's items.")),
    _query("set", _("Only this set (its code).")),
    _query("card", _("Only this card (its code).")),
    _query("type", _("Only this card type.")),
    _query("condition", _("Only this condition.")),
    _query("finish", _("Only this finish.")),
    _query("language", _("Only this language.")),
    _query("binder", _("Only this binder.")),
    _query("tag", _("Only items with this tag.")),
    _query("q", _("Card names containing this (either language).")),
    _query(
        "sort",
        _("Order: recent (default: recently changed first), name, set, quantity."),
        ["name", "set", "quantity", "recent"],
    ),
]


class ImportThrottle(AtomicUserRateThrottle):
    scope = "collection-import"
    rate = "60/minute"


class CollectionApiView(APIView):
    authentication_classes = [TokenAuthentication, SessionAuthentication]
    permission_classes = [IsAuthenticated]
    parser_classes = [SafeJSONParser]

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, Http404):
            exc = NotFound(NOT_FOUND_MESSAGE)
        if isinstance(exc, errors.CollectionError):
            exc = ValidationError({exc.field: [str(exc.message)]})
        if isinstance(exc, CollectionImportError):
            return _problems_response(exc.problems)
        return super().handle_exception(exc)


def _problems_response(problems: list[Problem]) -> Response:
    return Response(
        {
            "detail": str(errors.IMPORT_REFUSED),
            "problems": [
                {"line": p.line, "column": p.column, "message": p.message} for p in problems
            ],
        },
        status=status.HTTP_400_BAD_REQUEST,
    )


def _game(slug: str, field: str = "game") -> Game:
    game = Game.objects.filter(slug=slug).first()
    if game is None:
        raise ValidationError({field: [UNKNOWN_GAME]})
    return game


def _spec(data: dict[str, Any], index: int | None = None) -> ItemSpec:
    def refuse(field: str, message: Any) -> ValidationError:
        detail = {field: [str(message)]}
        return ValidationError({"items": {str(index): detail}} if index is not None else detail)

    game = Game.objects.filter(slug=data["game"]).first()
    if game is None:
        raise refuse("game", UNKNOWN_GAME)
    printing = printing_find(
        game=game,
        set_code=data["set"],
        card_code=data.get("card", ""),
        number=data.get("number", ""),
        variant=data.get("variant", ""),
    )
    if printing is None:
        raise refuse("set", UNKNOWN_PRINTING)
    spec = ItemSpec(
        printing_id=printing.pk,
        quantity=data["quantity"],
        trade_quantity=data.get("trade_quantity", 0),
        condition=data.get("condition", "near_mint"),
        finish=data.get("finish", "normal"),
        language=data.get("language") or default_language(game.slug),
        binder=data.get("binder", "").strip(),
        tags=tuple(data.get("tags", ())),
        acquired_on=data.get("acquired_on"),
        price=data.get("price"),
        currency=data.get("currency", ""),
        note=data.get("note", ""),
    )
    problems = spec_problems(spec, game_slug=game.slug)
    if problems:
        raise refuse(*problems[0])
    return spec


def _owner(request: Request) -> Any:
    username = request.query_params.get("owner")
    if not username and not request.user.is_authenticated:
        raise NotAuthenticated
    owner, _read_only = collection_owner_for(viewer=request.user, username=username)
    return owner


def _item_of(request: Request, item_id: int, *, write: bool) -> CollectionItem:
    item = (
        CollectionItem.objects.select_related("printing__card__game", "printing__card_set")
        .filter(pk=item_id)
        .first()
    )
    if item is None:
        raise Http404
    if item.owner_id == request.user.pk:
        return item
    if (
        not write
        and CollectionSettings.objects.filter(owner_id=item.owner_id, is_public=True).exists()
    ):
        return item
    raise Http404


# --- items -------------------------------------------------------------------------------------


class ItemListApi(CollectionApiView, generics.ListAPIView[CollectionItem]):
    permission_classes = [IsAuthenticatedOrReadOnly]
    serializer_class = s.CollectionItemOutputSerializer
    pagination_class = CatalogPagination
    filter_backends = ()

    def get_queryset(self) -> QuerySet[CollectionItem]:
        try:
            return collection_items(owner=_owner(self.request), filters=self.request.query_params)
        except QueryError as exc:
            raise ValidationError({"q": [str(exc)]}) from exc

    @extend_schema(
        tags=[TAG],
        summary=_("List collection items"),
        parameters=ITEM_FILTERS,
        responses={200: s.CollectionItemOutputSerializer, 404: NOT_FOUND},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Your items (or a public collection's with `owner`), filtered and sorted."""
        return super().get(request, *args, **kwargs)

    @extend_schema(
        tags=[TAG],
        summary=_("Add copies to your collection"),
        request=s.CollectionItemCreateInputSerializer,
        responses={201: s.CollectionItemOutputSerializer, 400: BAD_REQUEST, 401: UNAUTHORIZED},
    )
    def post(self, request: Request) -> Response:
        """Identical items (printing, condition, finish, language, binder) merge."""
        given = s.CollectionItemCreateInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        outcome = collection_add(owner=request.user, specs=[_spec(dict(given.validated_data))])[0]
        item = _item_of(request, outcome.item_id or 0, write=True)
        return Response(s.CollectionItemOutputSerializer(item).data, status=status.HTTP_201_CREATED)


class ItemBulkApi(CollectionApiView):
    @extend_schema(
        tags=[TAG],
        summary=_("Add many items at once"),
        request=s.CollectionBulkAddInputSerializer,
        responses={
            201: s.CollectionItemOutputSerializer(many=True),
            400: BAD_REQUEST,
            401: UNAUTHORIZED,
        },
    )
    def post(self, request: Request) -> Response:
        """All or nothing: one bad item refuses them all, naming it by its index."""
        given = s.CollectionBulkAddInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        specs = [_spec(dict(row), i) for i, row in enumerate(given.validated_data["items"])]
        outcomes = collection_add(owner=request.user, specs=specs)
        items = CollectionItem.objects.filter(pk__in=[o.item_id for o in outcomes]).select_related(
            "printing__card__game", "printing__card_set"
        )
        return Response(
            s.CollectionItemOutputSerializer(items, many=True).data, status=status.HTTP_201_CREATED
        )


class ItemDetailApi(CollectionApiView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        tags=[TAG],
        summary=_("Get a collection item"),
        parameters=[ITEM_ID],
        responses={200: s.CollectionItemOutputSerializer, 404: NOT_FOUND},
    )
    def get(self, request: Request, item_id: int) -> Response:
        return Response(
            s.CollectionItemOutputSerializer(_item_of(request, item_id, write=False)).data
        )

    @extend_schema(
        tags=[TAG],
        summary=_("Change a collection item"),
        parameters=[ITEM_ID],
        request=s.CollectionItemUpdateInputSerializer,
        responses={
            200: s.CollectionItemOutputSerializer,
            204: None,
            400: BAD_REQUEST,
            404: NOT_FOUND,
        },
    )
    def patch(self, request: Request, item_id: int) -> Response:
        """Quantity (0 removes), trade quantity, tags, price, note… Changing the condition,
        finish, language or binder moves all copies, merging them into a matching item."""
        item = _item_of(request, item_id, write=True)
        given = s.CollectionItemUpdateInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = dict(given.validated_data)
        if not data:
            raise ValidationError({"non_field_errors": [_("Send at least one field to change.")]})
        found = item
        if "quantity" in data:
            changed = collection_item_set_quantity(item=item, quantity=data.pop("quantity"))
            if changed is None:
                return Response(status=status.HTTP_204_NO_CONTENT)
            found = changed
        moves = {k: data.pop(k) for k in ("condition", "finish", "language", "binder") if k in data}
        if data:
            found = collection_item_update(item=found, **data)
        if moves:
            found = collection_item_move(item=found, quantity=found.quantity, **moves)
        return Response(
            s.CollectionItemOutputSerializer(_item_of(request, found.pk, write=True)).data
        )

    @extend_schema(
        tags=[TAG],
        summary=_("Remove a collection item"),
        parameters=[ITEM_ID],
        request=None,
        responses={204: None, 400: BAD_REQUEST, 404: NOT_FOUND},
    )
    def delete(self, request: Request, item_id: int) -> Response:
        """Removed copies are logged; copies reserved by a built deck are never removed."""
        collection_item_set_quantity(item=_item_of(request, item_id, write=True), quantity=0)
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- imports and exports -----------------------------------------------------------------------


def _batch_of(request: Request, batch_id: int) -> ImportBatch:
    batch = ImportBatch.objects.filter(pk=batch_id, owner_id=request.user.pk).first()
    if batch is None:
        raise Http404
    return batch


class ImportPreviewApi(CollectionApiView):
    throttle_classes = [ImportThrottle]

    @extend_schema(
        tags=[TAG],
        summary=_("Preview an import"),
        request=s.CollectionImportInputSerializer,
        responses={
            201: s.CollectionImportOutputSerializer,
            400: OpenApiResponse(
                s.CollectionImportProblemsOutputSerializer,
                description=_("Every bad row; nothing was stored."),
            ),
            401: UNAUTHORIZED,
        },
    )
    def post(self, request: Request) -> Response:
        """Read and check a CSV (format recognised by its header); when every row is clean,
        say what would be added and merged, and keep it to commit (nothing is added yet)."""
        given = s.CollectionImportInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        game = _game(data["game"]) if data.get("game") else None
        preview = collection_import_preview(
            owner=request.user,
            content=data["content"],
            game=game,
            dialect_code=data.get("format", ""),
            file_name=data.get("file_name", ""),
        )
        if preview.batch is None:
            return _problems_response(preview.result.problems)
        names = {p.pk: str(p) for p in _printings([o.spec.printing_id for o in preview.plan[:200]])}
        body = {
            "id": preview.batch.pk,
            "status": preview.batch.status,
            "format": preview.batch.dialect,
            "rows": preview.result.rows,
            "merged_rows": preview.result.merged_rows,
            "new_items": preview.new_items,
            "merged_items": preview.merged_items,
            "copies": preview.copies,
            "items": [
                {
                    "printing": names[o.spec.printing_id],
                    "condition": o.spec.condition,
                    "finish": o.spec.finish,
                    "language": o.spec.language,
                    "binder": o.spec.binder,
                    "quantity": o.spec.quantity,
                    "before": o.before,
                    "after": o.after,
                    "merged": o.merged,
                }
                for o in preview.plan[:200]
            ],
        }
        return Response(
            s.CollectionImportOutputSerializer(body).data, status=status.HTTP_201_CREATED
        )


def _printings(ids: list[int]) -> Any:
    from catalog.models import Printing

    return Printing.objects.filter(pk__in=ids).select_related("card", "card_set")


class ImportCommitApi(CollectionApiView):
    @extend_schema(
        tags=[TAG],
        summary=_("Commit a previewed import"),
        parameters=[BATCH_ID],
        request=None,
        responses={
            200: s.CollectionBatchOutputSerializer,
            400: s.CollectionImportProblemsOutputSerializer,
            404: NOT_FOUND,
        },
    )
    def post(self, request: Request, batch_id: int) -> Response:
        """Write the previewed file as one batch (re-checked first: all or nothing)."""
        batch = collection_import_commit_batch(batch=_batch_of(request, batch_id))
        return Response(s.CollectionBatchOutputSerializer(batch).data)


class ImportUndoApi(CollectionApiView):
    @extend_schema(
        tags=[TAG],
        summary=_("Undo a committed import"),
        parameters=[BATCH_ID],
        request=None,
        responses={200: s.CollectionBatchOutputSerializer, 400: BAD_REQUEST, 404: NOT_FOUND},
    )
    def post(self, request: Request, batch_id: int) -> Response:
        """Take away exactly what the import added, logged; refused if those copies changed."""
        batch = collection_import_undo(batch=_batch_of(request, batch_id))
        return Response(s.CollectionBatchOutputSerializer(batch).data)


class ExportApi(CollectionApiView):
    permission_classes = [IsAuthenticatedOrReadOnly]
    # ?format= names the CSV dialect here, not DRF's renderer
    content_negotiation_class = KeepFormatParameter

    @extend_schema(
        tags=[TAG],
        summary=_("Export a collection"),
        parameters=[
            OWNER,
            _query("format", _("decklab (default) or another tool's CSV."), dialect_codes()),
            _query("game", _("Only this game's items.")),
        ],
        responses={200: s.CollectionExportOutputSerializer, 400: BAD_REQUEST, 404: NOT_FOUND},
    )
    def get(self, request: Request) -> Response:
        """The whole collection as CSV text, with what the format could not carry."""
        owner = _owner(request)
        code = request.query_params.get("format") or "decklab"
        dialect = dialect_or_none(code)
        if dialect is None:
            raise ValidationError(
                {"format": [FORMAT_UNKNOWN % {"formats": ", ".join(dialect_codes())}]}
            )
        slug = request.query_params.get("game")
        game = _game(slug) if slug else None
        exported = collection_export(owner=owner, dialect=dialect, game=game)
        body = {
            "format": code,
            "rows": exported.rows,
            "content": exported.content,
            "warnings": exported.warnings,
        }
        return Response(s.CollectionExportOutputSerializer(body).data)


# --- wishlist and settings ---------------------------------------------------------------------


class WishlistApi(CollectionApiView, generics.ListAPIView[WishlistItem]):
    serializer_class = s.CollectionWishOutputSerializer
    pagination_class = CatalogPagination
    filter_backends = ()

    def get_queryset(self) -> QuerySet[WishlistItem]:
        return wishlist(owner=self.request.user)

    @extend_schema(
        tags=[TAG],
        summary=_("Your wishlist"),
        responses={200: s.CollectionWishOutputSerializer, 401: UNAUTHORIZED},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        tags=[TAG],
        summary=_("Wish for a card"),
        request=s.CollectionWishInputSerializer,
        responses={201: s.CollectionWishOutputSerializer, 400: BAD_REQUEST, 401: UNAUTHORIZED},
    )
    def post(self, request: Request) -> Response:
        """Any printing, or a pinned one (give its set); identical wishes merge."""
        given = s.CollectionWishInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        game = _game(data["game"])
        card = Card.objects.filter(game=game, code=data["card"], owner__isnull=True).first()
        if card is None:
            raise ValidationError(
                {"card": [UNKNOWN_CARD % {"game": game.name, "code": data["card"]}]}
            )
        printing = None
        if data.get("set"):
            printing = printing_find(
                game=game,
                set_code=data["set"],
                card_code=card.code,
                number=data.get("number", ""),
                variant=data.get("variant", ""),
            )
            if printing is None:
                raise ValidationError({"set": [UNKNOWN_PRINTING]})
        wish = wishlist_add(
            owner=request.user, card=card, printing=printing, quantity=data["quantity"]
        )
        wish = wishlist(owner=request.user).get(pk=wish.pk)
        return Response(s.CollectionWishOutputSerializer(wish).data, status=status.HTTP_201_CREATED)


class WishDetailApi(CollectionApiView):
    def _wish(self, request: Request, wish_id: int) -> WishlistItem:
        found = wishlist(owner=request.user).filter(pk=wish_id).first()
        if found is None:
            raise Http404
        return found

    @extend_schema(
        tags=[TAG],
        summary=_("Change a wish"),
        parameters=[WISH_ID],
        request=s.CollectionWishUpdateInputSerializer,
        responses={
            200: s.CollectionWishOutputSerializer,
            204: None,
            400: BAD_REQUEST,
            404: NOT_FOUND,
        },
    )
    def patch(self, request: Request, wish_id: int) -> Response:
        wish = self._wish(request, wish_id)
        given = s.CollectionWishUpdateInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        found = wishlist_set_quantity(wish=wish, quantity=given.validated_data["quantity"])
        if found is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(s.CollectionWishOutputSerializer(found).data)

    @extend_schema(
        tags=[TAG],
        summary=_("Remove a wish"),
        parameters=[WISH_ID],
        request=None,
        responses={204: None, 404: NOT_FOUND},
    )
    def delete(self, request: Request, wish_id: int) -> Response:
        self._wish(request, wish_id).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


class WishlistExportApi(CollectionApiView):
    @extend_schema(
        tags=[TAG],
        summary=_("Export your wishlist"),
        responses={200: s.CollectionExportOutputSerializer, 401: UNAUTHORIZED},
    )
    def get(self, request: Request) -> Response:
        wishes = list(wishlist(owner=request.user))
        body = {
            "format": "decklab",
            "rows": len(wishes),
            "content": export_wishlist(wishes),
            "warnings": [],
        }
        return Response(s.CollectionExportOutputSerializer(body).data)


class SettingsApi(CollectionApiView):
    @extend_schema(
        tags=[TAG],
        summary=_("Your collection's settings"),
        responses={200: s.CollectionSettingsSerializer, 401: UNAUTHORIZED},
    )
    def get(self, request: Request) -> Response:
        found = CollectionSettings.objects.filter(owner_id=request.user.pk).first()
        return Response({"is_public": bool(found and found.is_public)})

    @extend_schema(
        tags=[TAG],
        summary=_("Make your collection public or private"),
        request=s.CollectionSettingsSerializer,
        responses={200: s.CollectionSettingsSerializer, 400: BAD_REQUEST, 401: UNAUTHORIZED},
    )
    def patch(self, request: Request) -> Response:
        given = s.CollectionSettingsSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        found = collection_settings_update(
            owner=request.user, is_public=given.validated_data["is_public"]
        )
        return Response({"is_public": found.is_public})


# --- a deck and the collection -----------------------------------------------------------------


def _deck(request: Request, public_id: str) -> Deck:
    return deck_get_for_viewer(public_id=public_id, user=request.user)


class DeckReportApi(CollectionApiView):
    @extend_schema(
        tags=[TAG],
        summary=_("What you own of a deck"),
        parameters=[DECK_ID],
        responses={200: s.CollectionDeckReportOutputSerializer, 401: UNAUTHORIZED, 404: NOT_FOUND},
    )
    def get(self, request: Request, public_id: str) -> Response:
        """Your collection against a deck you can read: owned and missing per entry (any
        printing unless the entry pins one), copies held by your other built decks."""
        deck = _deck(request, public_id)
        report = deck_collection_report(deck=deck, viewer=request.user)
        entries = {e.pk: e for e in deck.entries.select_related("card", "printing__card_set")}
        body = {
            "buildable": report.buildable,
            "is_built": report.is_built,
            "needed": report.needed_total,
            "owned": report.owned_total,
            "missing": report.missing_total,
            "entries": [
                {
                    "entry_id": e.entry_id,
                    "zone": e.zone,
                    "card": entries[e.entry_id].card.code,
                    "printing": str(entries[e.entry_id].printing or ""),
                    "needed": e.needed,
                    "owned": e.owned,
                    "missing": e.missing,
                    "held_by": [h.__dict__ for h in e.held_by],
                }
                for e in report.entries.values()
            ],
        }
        return Response(s.CollectionDeckReportOutputSerializer(body).data)


class DeckBuildApi(CollectionApiView):
    @extend_schema(
        tags=[TAG],
        summary=_("Mark a deck as built"),
        parameters=[DECK_ID],
        request=None,
        responses={200: s.CollectionDeckReportOutputSerializer, 400: BAD_REQUEST, 404: NOT_FOUND},
    )
    def post(self, request: Request, public_id: str) -> Response:
        """Reserve the deck's copies so no other built deck counts them (refused when cards
        are missing)."""
        deck = deck_get_for_viewer(public_id=public_id, user=request.user)
        if deck.owner_id != request.user.pk:
            raise Http404
        deck_mark_built(deck=deck, user=request.user)
        return DeckReportApi().get(request, public_id)

    @extend_schema(
        tags=[TAG],
        summary=_("Unmark a built deck"),
        parameters=[DECK_ID],
        request=None,
        responses={204: None, 400: BAD_REQUEST, 404: NOT_FOUND},
    )
    def delete(self, request: Request, public_id: str) -> Response:
        deck = deck_get_for_viewer(public_id=public_id, user=request.user)
        if deck.owner_id != request.user.pk:
            raise Http404
        deck_unmark_built(deck=deck, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class DeckWishMissingApi(CollectionApiView):
    @extend_schema(
        tags=[TAG],
        summary=_("Wish for what a deck lacks"),
        parameters=[DECK_ID],
        request=None,
        responses={200: s.CollectionWishlistAddedOutputSerializer, 404: NOT_FOUND},
    )
    def post(self, request: Request, public_id: str) -> Response:
        """Adds max(0, needed − owned) of each entry to your wishlist."""
        added = wishlist_add_missing(owner=request.user, deck=_deck(request, public_id))
        return Response({"added": added})
