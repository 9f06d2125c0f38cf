"""The collection API: items, imports, exports, wishlist, settings, and a deck against the
collection. Only the owner sees or changes a collection; a public one is readable by anyone
(``?owner=<username>``), never writable by them. Everything else is 404."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework import generics, status
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.exceptions import NotAuthenticated, NotFound, Throttled, ValidationError
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from catalog.api.pagination import CatalogPagination
from catalog.models import Card, Game
from catalog.query.errors import QueryError
from collection import errors, limits
from collection.api import serializers as s
from collection.api.jobs import JOB_ACCEPTED, job_accepted, preload_body
from collection.imports import (
    CollectionImportError,
    collection_export,
    collection_import_commit_batch,
    collection_import_preview,
    collection_import_remember_mapping,
    dialect_or_none,
)
from collection.interchange.dialects import MAPPABLE, dialect_codes
from collection.interchange.read import Problem, ReadResult
from collection.interchange.write import export_items, export_wishlist
from collection.jobs import collection_job_submit
from collection.models import (
    CollectionItem,
    CollectionJob,
    CollectionSettings,
    ImportBatch,
    WishlistItem,
)
from collection.report import deck_collection_report
from collection.selectors import (
    collection_is_public,
    collection_items,
    collection_owner_for,
    collection_public_items,
    collection_public_view,
    collection_shows_all_cards,
    printing_find,
    wishlist,
)
from collection.services import (
    ItemSpec,
    collection_add,
    collection_import_undo,
    collection_item_change,
    collection_item_set_quantity,
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
BIG_EXPORT_OWN_ONLY = _(
    "This collection is too big to export in one request; only its owner can export it as a job."
)

_DETAIL = {"type": "object", "properties": {"detail": {"type": "string"}}}
BAD_REQUEST = OpenApiResponse(
    response={"type": "object", "additionalProperties": {}},
    description=_("Bad input: each bad field and why."),
)
NOT_FOUND = OpenApiResponse(response=_DETAIL, description=NOT_FOUND_MESSAGE)
UNAUTHORIZED = OpenApiResponse(response=_DETAIL, description=_("Not signed in."))
CONFLICT = OpenApiResponse(
    response={"type": "object", "additionalProperties": {}},
    description=_("The item was removed or moved meanwhile: nothing was changed."),
)
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
        if isinstance(exc, errors.CollectionConflict):
            return Response({exc.field: [str(exc.message)]}, status=status.HTTP_409_CONFLICT)
        if isinstance(exc, errors.CollectionError):
            exc = ValidationError({exc.field: [str(exc.message)]})
        if isinstance(exc, CollectionImportError):
            return _problems_response(exc.problems)
        return super().handle_exception(exc)


def _problems_response(problems: list[Problem], result: ReadResult | None = None) -> Response:
    body: dict[str, Any] = {
        "detail": str(errors.IMPORT_REFUSED),
        "problems": [{"line": p.line, "column": p.column, "message": p.message} for p in problems],
        "formats": reverse("collection:formats"),
    }
    if result is not None and (result.needs_mapping or result.tied):
        # the mapping step: the header and first rows, to send a "mapping" for
        body["header"] = result.header
        body["rows"] = [result.header, *result.sample]
        body["mappable"] = list(MAPPABLE)
    return Response(body, status=status.HTTP_400_BAD_REQUEST)


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


def _reader(request: Request) -> tuple[Any, bool]:
    """Whose collection the request reads, and whether as another player (read-only: only
    what the owner chose to show)."""
    username = request.query_params.get("owner")
    if not username and not request.user.is_authenticated:
        raise NotAuthenticated
    return collection_owner_for(viewer=request.user, username=username)


ITEM_READ = PolymorphicProxySerializer(
    component_name="CollectionItemRead",
    serializers=[s.CollectionItemOutputSerializer, s.CollectionItemPublicOutputSerializer],
    resource_type_field_name=None,
)


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
    if not write and collection_is_public(owner=item.owner_id):
        shown = collection_public_items(owner=item.owner_id, filters={}).filter(pk=item.pk)
        found = shown.first()
        if found is not None:
            return found
    raise Http404


# --- items -------------------------------------------------------------------------------------


class ItemListApi(CollectionApiView, generics.ListAPIView[CollectionItem]):
    permission_classes = [IsAuthenticatedOrReadOnly]
    serializer_class = s.CollectionItemOutputSerializer
    pagination_class = CatalogPagination
    filter_backends = ()

    def get_queryset(self) -> QuerySet[CollectionItem]:
        owner, read_only = _reader(self.request)
        self.read_only = read_only
        filters = self.request.query_params
        try:
            if read_only:
                return collection_public_items(owner=owner, filters=filters)
            return collection_items(owner=owner, filters=filters)
        except QueryError as exc:
            raise ValidationError({"q": [str(exc)]}) from exc

    #: set by get_queryset: another player reads only the public fields
    read_only = False

    def get_serializer_class(self) -> Any:
        if self.read_only:
            return s.CollectionItemPublicOutputSerializer
        return s.CollectionItemOutputSerializer

    @extend_schema(
        tags=[TAG],
        summary=_("List collection items"),
        parameters=ITEM_FILTERS,
        responses={200: ITEM_READ, 404: NOT_FOUND},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Your items, filtered and sorted. With `owner`, another player's public collection:
        their trade list, or every card if they chose to show it, with only the public fields
        (filtered by game, set, card, type, condition, finish, language or `q`; sorted by name
        or set, or quantity when every card is shown)."""
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
        specs = [_spec(dict(given.validated_data))]
        limits.collection_room_check(owner=request.user, specs=specs)
        outcome = collection_add(owner=request.user, specs=specs)[0]
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
        limits.collection_room_check(owner=request.user, specs=specs)
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
        responses={200: ITEM_READ, 404: NOT_FOUND},
    )
    def get(self, request: Request, item_id: int) -> Response:
        """Your item, or one another player shows in their public collection (public fields
        only)."""
        item = _item_of(request, item_id, write=False)
        if item.owner_id == request.user.pk:
            return Response(s.CollectionItemOutputSerializer(item).data)
        return Response(s.CollectionItemPublicOutputSerializer(item).data)

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
            409: CONFLICT,
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
        found = collection_item_change(item=item, changes=data)
        if found is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(
            s.CollectionItemOutputSerializer(_item_of(request, found.pk, write=True)).data
        )

    @extend_schema(
        tags=[TAG],
        summary=_("Remove a collection item"),
        parameters=[ITEM_ID],
        request=None,
        responses={204: None, 400: BAD_REQUEST, 404: NOT_FOUND, 409: CONFLICT},
    )
    def delete(self, request: Request, item_id: int) -> Response:
        """Removed copies are logged; copies reserved by a built deck are never removed."""
        collection_item_set_quantity(item=_item_of(request, item_id, write=True), quantity=0)
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- imports and exports -----------------------------------------------------------------------


def _batch_of(request: Request, batch_id: int) -> ImportBatch:
    # its text (up to 16 MB) is read only where it is needed: a big one by the worker
    mine = ImportBatch.objects.defer("content").filter(owner_id=request.user.pk)
    batch = mine.filter(pk=batch_id).first()
    if batch is None:
        raise Http404
    return batch


class ImportPreviewApi(CollectionApiView):
    throttle_classes = [ImportThrottle]

    def dispatch(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        # the import's own body limit (COLLECTION_IMPORT_MAX_MB), not every endpoint's
        refused = preload_body(request, limit=3 * limits.import_max_bytes())
        return refused or super().dispatch(request, *args, **kwargs)

    @extend_schema(
        tags=[TAG],
        summary=_("Preview an import"),
        request=s.CollectionImportInputSerializer,
        responses={
            201: s.CollectionImportOutputSerializer,
            202: JOB_ACCEPTED,
            429: OpenApiResponse(_DETAIL, description=_("Too many imports this hour.")),
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
        too_long = limits.import_rows_problem(data["content"])
        if too_long:
            raise ValidationError({"content": [too_long]})
        throttled = limits.import_started(user=request.user)
        if throttled:
            raise Throttled(detail=throttled)
        if limits.text_rows(data["content"]) - 1 > limits.job_threshold():
            if data.get("mapping"):
                # remembered first: the worker reads the file with it
                wrong = collection_import_remember_mapping(
                    owner=request.user, content=data["content"], mapping=data["mapping"]
                )
                if wrong:
                    raise ValidationError({"mapping": wrong})
            job = collection_job_submit(
                owner=request.user,
                kind=CollectionJob.Kind.PREVIEW,
                content=data["content"],
                params={
                    "game": game.slug if game else "",
                    "format": data.get("format", ""),
                    "file_name": data.get("file_name", "")[:255],
                },
            )
            return job_accepted(job)
        preview = collection_import_preview(
            owner=request.user,
            content=data["content"],
            game=game,
            dialect_code=data.get("format", ""),
            file_name=data.get("file_name", ""),
            mapping=data.get("mapping"),
        )
        if preview.batch is None:
            return _problems_response(preview.result.problems, preview.result)
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
            202: JOB_ACCEPTED,
            400: s.CollectionImportProblemsOutputSerializer,
            404: NOT_FOUND,
        },
    )
    def post(self, request: Request, batch_id: int) -> Response:
        """Write the previewed file as one batch (re-checked first: all or nothing)."""
        batch = _batch_of(request, batch_id)
        if batch.row_count > limits.job_threshold():
            kind = CollectionJob.Kind.COMMIT
            return job_accepted(collection_job_submit(owner=request.user, kind=kind, batch=batch))
        try:
            batch = collection_import_commit_batch(batch=batch)
        except errors.CollectionConflict:
            raise  # a lost race: 409
        except errors.CollectionError as exc:
            # every refusal of a commit in the documented shape: {detail, problems}
            return _problems_response([Problem(0, exc.field, str(exc.message))])
        return Response(s.CollectionBatchOutputSerializer(batch).data)


class ImportUndoApi(CollectionApiView):
    @extend_schema(
        tags=[TAG],
        summary=_("Undo a committed import"),
        parameters=[BATCH_ID],
        request=None,
        responses={
            200: s.CollectionBatchOutputSerializer,
            202: JOB_ACCEPTED,
            400: BAD_REQUEST,
            404: NOT_FOUND,
        },
    )
    def post(self, request: Request, batch_id: int) -> Response:
        """Take away exactly what the import added, logged; refused if those copies changed."""
        batch = _batch_of(request, batch_id)
        if batch.row_count > limits.job_threshold():
            kind = CollectionJob.Kind.UNDO
            return job_accepted(collection_job_submit(owner=request.user, kind=kind, batch=batch))
        batch = collection_import_undo(batch=batch)
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
        responses={
            200: s.CollectionExportOutputSerializer,
            202: JOB_ACCEPTED,
            400: BAD_REQUEST,
            404: NOT_FOUND,
        },
    )
    def get(self, request: Request) -> Response:
        """The whole collection as CSV text, with what the format could not carry. Another
        player's public collection: what they show, with only the public fields."""
        owner, read_only = _reader(request)
        code = request.query_params.get("format") or "decklab"
        dialect = dialect_or_none(code)
        if dialect is None:
            raise ValidationError(
                {"format": [FORMAT_UNKNOWN % {"formats": ", ".join(dialect_codes())}]}
            )
        slug = request.query_params.get("game")
        game = _game(slug) if slug else None
        if read_only:
            # only what the owner shows is counted: the size of the rest stays private too
            all_cards = collection_shows_all_cards(owner=owner)
            filters = {"game": game.slug} if game else {}
            shown = collection_public_items(owner=owner, filters=filters, all_cards=all_cards)
            if shown.count() > limits.job_threshold():
                raise ValidationError({"owner": [BIG_EXPORT_OWN_ONLY]})
            views = (collection_public_view(i, all_cards=all_cards) for i in shown.iterator(2000))
            return _export_response(code, export_items(views, dialect))
        items = CollectionItem.objects.filter(owner=owner)
        if game is not None:
            # the set each item carries: a count of the game's items joins none to its printing
            items = items.filter(card_set__game=game)
        if items.count() > limits.job_threshold():
            # a big export is written by a worker, for the signed-in player who asked
            params = {"format": code, "game": slug or ""}
            kind = CollectionJob.Kind.EXPORT
            return job_accepted(collection_job_submit(owner=owner, kind=kind, params=params))
        return _export_response(code, collection_export(owner=owner, dialect=dialect, game=game))


def _export_response(code: str, exported: Any) -> Response:
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
        card = Card.objects.listed().filter(game=game, code=data["card"]).first()
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
        return Response(
            {
                "is_public": bool(found and found.is_public),
                "shows_all_cards": bool(found and found.shows_all_cards),
            }
        )

    @extend_schema(
        tags=[TAG],
        summary=_("Make your collection public or private"),
        request=s.CollectionSettingsSerializer,
        responses={200: s.CollectionSettingsSerializer, 400: BAD_REQUEST, 401: UNAUTHORIZED},
    )
    def patch(self, request: Request) -> Response:
        given = s.CollectionSettingsSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        if not given.validated_data:
            raise ValidationError({"non_field_errors": [_("Send at least one field to change.")]})
        found = collection_settings_update(owner=request.user, **given.validated_data)
        return Response({"is_public": found.is_public, "shows_all_cards": found.shows_all_cards})


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
        # the report's rows name each entry's card and printing: no second read of the entries
        report = deck_collection_report(deck=deck, viewer=request.user)
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
                    "card": e.card_code,
                    "printing": e.printing_label,
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
