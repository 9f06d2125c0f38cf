"""A card's history in the contributions API: every applied change of the card and its
printings, for anyone."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from catalog.api.pagination import CatalogPagination
from contributions.api import reads, schema
from contributions.api import serializers as s
from contributions.api.common import ContributionsApiView
from contributions.models import CatalogChange
from contributions.selectors import card_history

CARD_NOT_FOUND = _("This game's catalog has no card with this code.")


class CardHistoryApi(ContributionsApiView, generics.ListAPIView[CatalogChange]):
    permission_classes = [AllowAny]
    serializer_class = s.ChangeOutputSerializer
    pagination_class = CatalogPagination
    filter_backends = ()

    def get_queryset(self) -> Any:
        card = reads.catalog_card_find(game_slug=self.kwargs["game"], code=self.kwargs["code"])
        if card is None:
            raise NotFound(CARD_NOT_FOUND)
        return card_history(card=card)

    @extend_schema(
        tags=[schema.TAG],
        summary=_("A card's history"),
        parameters=[schema.GAME, schema.CARD_CODE],
        responses={
            200: s.ChangeOutputSerializer,
            404: OpenApiResponse(description=CARD_NOT_FOUND),
        },
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Every applied change of the card and of its printings, newest first: the row
        before and after, who proposed and who approved it, the source, and reverts."""
        return super().get(request, *args, **kwargs)
