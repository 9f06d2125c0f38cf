"""The answer to a deck read or write: the deck as it is now, with its version as the ETag."""

from __future__ import annotations

from rest_framework import status as http
from rest_framework.request import Request
from rest_framework.response import Response

from decks.api.access import deck_for_reader, etag
from decks.api.serializers import DeckDetailOutputSerializer, deck_api_path
from decks.models import Deck


def deck_response(request: Request, deck: Deck, *, status: int = http.HTTP_200_OK) -> Response:
    """The deck re-read after a write (fresh version, entries and legality), or as read."""
    if request.method != "GET":
        deck = deck_for_reader(request, deck.public_id)
    data = DeckDetailOutputSerializer(deck, context={"request": request}).data
    response = Response(data, status=status)
    response["ETag"] = etag(deck.version)
    if status == http.HTTP_201_CREATED:
        response["Location"] = request.build_absolute_uri(deck_api_path(deck))
    return response
