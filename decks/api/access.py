"""Who may do what to a deck through the API, and which version a write names.

Reading: private decks are 404 to everyone but their owner (we do not confirm they exist);
unlisted and public decks are readable by anyone with the link, signed in or not.

Writing: anonymous callers are 401 (``WWW-Authenticate: Token``) before any deck is looked at;
a signed-in caller who is not the owner gets 404 for a private deck and 403 for a deck they can
see (public or unlisted): they already know it exists, so 403 says why they are refused.

Versions: every write names the version it read, as ``version`` in the body or an
``If-Match: "<version>"`` header (``?version=`` for DELETE, which has no body). Missing is 428
Precondition Required; a stale one is 409 Conflict with the deck's current version. A write is
never applied without a version, so nobody overwrites a change they have not seen.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.http import Http404
from rest_framework import status
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.exceptions import APIException, NotFound, PermissionDenied, ValidationError
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from decklab.api.parsers import SafeJSONParser
from decks import errors as deck_errors
from decks.api import errors
from decks.models import Deck
from decks.selectors import deck_get_for_viewer

_IF_MATCH = re.compile(r'^(?:W/)?"?(?P<version>\d{1,9})"?$')


class PreconditionRequired(APIException):
    """428: a write that does not say which version it changes (RFC 6585)."""

    status_code = status.HTTP_428_PRECONDITION_REQUIRED
    default_detail = errors.VERSION_REQUIRED
    default_code = "version_required"


class DeckApiView(APIView):
    """What every deck view shares: authentication, and how refused writes are answered.

    Token authentication comes first so an anonymous write is a 401 naming the scheme
    (``WWW-Authenticate: Token``) rather than a bare 403; session-authenticated requests
    are still CSRF-checked by ``SessionAuthentication``.
    """

    authentication_classes = [TokenAuthentication, SessionAuthentication]
    permission_classes = [IsAuthenticatedOrReadOnly]
    # Deck lists nest (entries, printings): JSON only, forms could not carry them.
    parser_classes = [SafeJSONParser]

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, deck_errors.StaleDeckError):
            return stale_response(getattr(self, "deck", None))
        if isinstance(exc, deck_errors.DeckError):
            # A refusal from the services that the input checks did not already catch.
            exc = ValidationError({exc.field: [str(exc.message)]})
        return super().handle_exception(exc)


class AuthenticatedDeckApiView(DeckApiView):
    permission_classes = [IsAuthenticated]


def stale_response(deck: Deck | None) -> Response:
    """409 with the version the deck has now, so a client can reload and retry on purpose."""
    current = None
    if deck is not None:
        current = Deck.objects.filter(pk=deck.pk).values_list("version", flat=True).first()
    response = Response(
        {"detail": str(deck_errors.STALE_DECK), "current_version": current},
        status=status.HTTP_409_CONFLICT,
    )
    if current is not None:
        response["ETag"] = etag(current)
    return response


def etag(version: int) -> str:
    return f'"{version}"'


# --- finding the deck ------------------------------------------------------------------------


def deck_for_reader(request: Request, public_id: str) -> Deck:
    try:
        return deck_get_for_viewer(public_id=public_id, user=request.user)
    except Http404:
        raise NotFound(errors.DECK_NOT_FOUND) from None


def deck_for_writer(request: Request, public_id: str) -> Deck:
    """The deck, if the caller owns it: 404 when they cannot see it, 403 when they can."""
    deck = deck_for_reader(request, public_id)
    if deck.owner_id != request.user.pk:
        raise PermissionDenied(errors.NOT_OWNER)
    return deck


# --- which version a write names -------------------------------------------------------------


def _body_version(data: Any) -> int | None:
    raw = data.get("version") if isinstance(data, Mapping) else None
    if raw is None or raw == "":
        return None
    if isinstance(raw, bool):
        raise ValidationError({"version": [errors.VERSION_INVALID]})
    try:
        version = int(raw)
    except (TypeError, ValueError):
        raise ValidationError({"version": [errors.VERSION_INVALID]}) from None
    if version < 1 or str(raw).strip() != str(version):
        raise ValidationError({"version": [errors.VERSION_INVALID]})
    return version


def _header_version(request: Request) -> int | None:
    raw = request.headers.get("If-Match")
    if raw is None:
        return None
    found = _IF_MATCH.match(raw.strip())
    if found is None or int(found["version"]) < 1:
        # "*" (any version) is refused too: it would overwrite what the caller has not seen.
        raise ValidationError({"If-Match": [errors.IF_MATCH_INVALID]})
    return int(found["version"])


def expected_version(request: Request) -> int:
    """The version the caller read, from If-Match, the body or (DELETE) the query string."""
    from_header = _header_version(request)
    source = request.query_params if request.method == "DELETE" else request.data
    from_body = _body_version(source)
    if request.method == "DELETE" and from_body is None:
        from_body = _body_version(request.data)
    if from_header is not None and from_body is not None and from_header != from_body:
        raise ValidationError({"version": [errors.VERSIONS_DISAGREE]})
    version = from_header if from_header is not None else from_body
    if version is None:
        raise PreconditionRequired({"version": [errors.VERSION_REQUIRED]})
    return version
