"""A deck's history: its revisions, one revision, the diff of two, and restoring one.

Every save stores an immutable revision; whoever may read the deck may read its history.
Restoring is a write (owner only, names the version it read) that adds a new revision.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import generics
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from catalog.api.pagination import CatalogPagination
from decks.api import errors, schema
from decks.api.access import DeckApiView, deck_for_reader, deck_for_writer, expected_version
from decks.api.inputs import RestoreInputSerializer
from decks.api.reads import revision_get
from decks.api.responses import deck_response
from decks.api.serializers import (
    DeckDetailOutputSerializer,
    DiffOutputSerializer,
    RevisionDetailOutputSerializer,
    RevisionOutputSerializer,
)
from decks.models import Deck, DeckRevision
from decks.selectors import deck_revisions
from decks.services import deck_restore
from decks.snapshots import diff_snapshots


class RevisionListApi(DeckApiView, generics.ListAPIView[DeckRevision]):
    serializer_class = RevisionOutputSerializer
    pagination_class = CatalogPagination
    filter_backends = ()

    def get_queryset(self) -> Any:
        deck = deck_for_reader(self.request, self.kwargs["public_id"])
        return deck_revisions(deck=deck)

    def get_serializer_context(self) -> dict[str, Any]:
        return {**super().get_serializer_context(), "public_id": self.kwargs["public_id"]}

    @extend_schema(
        tags=[schema.TAG],
        summary=_("List a deck's revisions"),
        parameters=[schema.DECK_ID],
        responses={200: RevisionOutputSerializer, 400: schema.BAD_REQUEST, 404: schema.NOT_FOUND},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Newest first: who saved it, when, and a one-line summary of the change."""
        return super().get(request, *args, **kwargs)


def _revision(deck: Deck, number: int) -> DeckRevision:
    found = revision_get(deck=deck, number=number)
    if found is None:
        raise NotFound(str(errors.REVISION_NOT_FOUND) % {"number": number})
    return found


class RevisionDetailApi(DeckApiView):
    @extend_schema(
        tags=[schema.TAG],
        summary=_("Get a revision"),
        parameters=[schema.DECK_ID, schema.REVISION_NUMBER],
        responses={200: RevisionDetailOutputSerializer, 404: schema.NOT_FOUND},
    )
    def get(self, request: Request, public_id: str, number: int) -> Response:
        """The deck as that save left it: fields and entries (card codes and names)."""
        revision = _revision(deck_for_reader(request, public_id), number)
        context = {"request": request, "public_id": public_id}
        return Response(RevisionDetailOutputSerializer(revision, context=context).data)


def _number(request: Request, name: str) -> int:
    raw = request.query_params.get(name, "")
    if not raw.isdigit() or int(raw) < 1:
        raise ValidationError({name: [errors.REVISION_NUMBER]})
    return int(raw)


class DeckDiffApi(DeckApiView):
    @extend_schema(
        tags=[schema.TAG],
        summary=_("Compare two revisions"),
        parameters=schema.DIFF_PARAMETERS,
        responses={200: DiffOutputSerializer, 400: schema.BAD_REQUEST, 404: schema.NOT_FOUND},
    )
    def get(self, request: Request, public_id: str) -> Response:
        """What changed from revision `from` to revision `to`: each entry's quantity before and
        after, and each changed field. Either order works; `from` older than `to` reads best."""
        deck = deck_for_reader(request, public_id)
        numbers = {name: _number(request, name) for name in ("from", "to")}
        found = {
            r.number: r for r in DeckRevision.objects.filter(deck=deck, number__in=numbers.values())
        }
        missing = {
            name: [str(errors.REVISION_NOT_FOUND) % {"number": number}]
            for name, number in numbers.items()
            if number not in found
        }
        if missing:
            raise ValidationError(missing)
        before, after = found[numbers["from"]], found[numbers["to"]]
        diff = diff_snapshots(before.snapshot, after.snapshot)
        data = {
            "from": before.number,
            "to": after.number,
            **diff.as_dict(),
            "summary": diff.summary(),
        }
        return Response(DiffOutputSerializer(data).data)


class DeckRestoreApi(DeckApiView):
    deck: Deck

    @extend_schema(
        tags=[schema.TAG],
        summary=_("Restore a revision"),
        parameters=[schema.DECK_ID, schema.IF_MATCH, schema.LANGUAGE_HEADER],
        request=RestoreInputSerializer,
        responses={200: DeckDetailOutputSerializer, **schema.WRITE_ERRORS},
    )
    def post(self, request: Request, public_id: str) -> Response:
        """Bring back an earlier revision's list and fields, saved as a new revision."""
        self.deck = deck_for_writer(request, public_id)
        given = RestoreInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        version = expected_version(request)
        number = given.validated_data["revision"]
        revision = revision_get(deck=self.deck, number=number)
        if revision is None:
            raise ValidationError(
                {"revision": [str(errors.REVISION_NOT_FOUND) % {"number": number}]}
            )
        deck_restore(deck=self.deck, user=request.user, expected_version=version, revision=revision)
        return deck_response(request, self.deck)
