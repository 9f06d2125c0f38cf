"""Merging duplicate cards in the API (editors only): merge one card into another by their
codes, list a game's latest merges, revert one. A merge's answer counts what moved and never
says whose decks or collections they were."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from contributions import services
from contributions.api import schema
from contributions.api.common import ContributionsApiView, game_or_404
from contributions.api.serializers import ChangeOutputSerializer
from contributions.merge_requests import card_merge_by_codes, merge_summary, merges_of
from contributions.merge_revert import card_merge_revert, is_merge
from contributions.models import CatalogChange

MERGE_NOT_FOUND = _("No such merge.")


class MergeInputSerializer(serializers.Serializer[dict[str, Any]]):
    duplicate = serializers.CharField(
        max_length=100, help_text=_("The code of the card that goes (the duplicate).")
    )
    into = serializers.CharField(max_length=100, help_text=_("The code of the card that stays."))
    reason = serializers.CharField(
        max_length=2000, help_text=_("Why they are the same card (kept as the change's source).")
    )


class MovedOutputSerializer(serializers.Serializer[Any]):
    decks = serializers.IntegerField(help_text=_("Decks that held the duplicate."))
    players = serializers.IntegerField(
        source="collections", help_text=_("Players whose collection or wishes held it.")
    )
    deck_entries = serializers.IntegerField()
    collection_items = serializers.IntegerField()
    wishes = serializers.IntegerField()
    product_lines = serializers.IntegerField()
    printings = serializers.IntegerField(help_text=_("The duplicate's printings."))


class MergeOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="change.pk", help_text=_("The merge's change id."))
    duplicate = serializers.CharField()
    duplicate_name = serializers.CharField()
    into = serializers.CharField()
    reason = serializers.CharField()
    approved_by = serializers.CharField(
        source="change.approved_by.username", allow_null=True, default=None
    )
    at = serializers.DateTimeField(source="change.at")
    reverted_by = serializers.IntegerField(
        source="change.reverted_by_id",
        allow_null=True,
        help_text=_("The change that reverted it, if one did."),
    )
    moved = MovedOutputSerializer(source="*")


class MergeRevertOutputSerializer(serializers.Serializer[Any]):
    merge = MergeOutputSerializer()
    revert = ChangeOutputSerializer(help_text=_("The revert, a change itself: the card is back."))


_GAME_NOT_FOUND = OpenApiResponse(description=_("No game with this slug."))


class MergeCollectionApi(ContributionsApiView):
    @extend_schema(
        tags=[schema.TAG],
        summary=_("A game's latest card merges"),
        parameters=[schema.GAME],
        responses={
            200: MergeOutputSerializer(many=True),
            401: schema.UNAUTHORIZED,
            403: schema.FORBIDDEN,
            404: _GAME_NOT_FOUND,
        },
    )
    def get(self, request: Request, game: str) -> Response:
        """The game's latest 50 merges, newest first, with what each moved (editors only)."""
        services.require_editor(request.user)
        merges = merges_of(game=game_or_404(game), editor=request.user)
        return Response(MergeOutputSerializer(merges, many=True).data)

    @extend_schema(
        tags=[schema.TAG],
        summary=_("Merge a duplicate card into another"),
        parameters=[schema.GAME],
        request=MergeInputSerializer,
        responses={
            201: MergeOutputSerializer,
            400: schema.BAD_REQUEST,
            401: schema.UNAUTHORIZED,
            403: schema.FORBIDDEN,
            404: _GAME_NOT_FOUND,
        },
    )
    def post(self, request: Request, game: str) -> Response:
        """Move everything that points at the `duplicate` card (its printings, deck entries,
        collection items, wishes, product lines) to the card `into`, then remove the
        duplicate; one recorded change, reverted with POST /api/v1/merges/{change_id}/revert/.
        Refused, with every reason, when a collection would hold too many copies of an item
        (editors only)."""
        services.require_editor(request.user)  # 403 before anything is looked up
        found = game_or_404(game)
        given = MergeInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        change = card_merge_by_codes(
            game=found,
            duplicate=data["duplicate"],
            into=data["into"],
            editor=request.user,
            reason=data["reason"],
        )
        body = MergeOutputSerializer(merge_summary(change)).data
        return Response(body, status=status.HTTP_201_CREATED)


class MergeRevertApi(ContributionsApiView):
    @extend_schema(
        tags=[schema.TAG],
        summary=_("Revert a card merge"),
        parameters=[schema.CHANGE_ID],
        request=None,
        responses={
            201: MergeRevertOutputSerializer,
            400: schema.BAD_REQUEST,
            401: schema.UNAUTHORIZED,
            403: schema.FORBIDDEN,
            404: OpenApiResponse(description=MERGE_NOT_FOUND),
        },
    )
    def post(self, request: Request, change_id: int) -> Response:
        """Bring the duplicate back and move back exactly what the merge moved. Refused,
        naming each row, when one of them changed since, when the card that stayed is gone,
        or when a card with the duplicate's code exists again (editors only)."""
        services.require_editor(request.user)
        change = CatalogChange.objects.filter(pk=change_id).first()
        if change is None or not is_merge(change):
            raise NotFound(MERGE_NOT_FOUND)
        revert = card_merge_revert(change=change, editor=request.user)
        merged = CatalogChange.objects.select_related("approved_by").get(pk=change.pk)
        body = {"merge": merge_summary(merged), "revert": revert}
        return Response(MergeRevertOutputSerializer(body).data, status=status.HTTP_201_CREATED)
