"""One entry of a deck: set or add copies of a card, change or remove an entry.

Each is a write to the deck: it names the deck's version (428 without, 409 when stale) and
answers with the whole deck, whose new version the next write must name. Entry ids change when
an entry moves or merges, so read them from the answer.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from catalog.models import Printing
from decks.api import errors, schema
from decks.api.access import DeckApiView, deck_for_writer, expected_version
from decks.api.cards import Say, entry_spec, pick_printing, pin_text, printing_text, zone_error
from decks.api.inputs import EntryAddInputSerializer, EntryUpdateInputSerializer
from decks.api.responses import deck_response
from decks.api.serializers import DeckDetailOutputSerializer
from decks.models import Deck, DeckEntry
from decks.services import deck_entry_add, deck_entry_set, deck_entry_update


class EntryCollectionApi(DeckApiView):
    deck: Deck

    @extend_schema(
        tags=[schema.TAG],
        summary=_("Set or add copies of a card"),
        parameters=[schema.DECK_ID, schema.IF_MATCH, schema.LANGUAGE_HEADER],
        request=EntryAddInputSerializer,
        responses={200: DeckDetailOutputSerializer, **schema.WRITE_ERRORS},
    )
    def post(self, request: Request, public_id: str) -> Response:
        """`quantity` sets how many copies of the card (and printing) the zone holds;
        `delta` adds to them (negative takes away; reaching 0 removes the entry)."""
        self.deck = deck_for_writer(request, public_id)
        given = EntryAddInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        version = expected_version(request)
        data = given.validated_data
        quantity = data.get("quantity")
        spec = entry_spec(
            game=self.deck.game,
            user=request.user,
            entry={**data, "quantity": quantity or 1},
        )
        common: dict[str, Any] = {
            "deck": self.deck,
            "user": request.user,
            "expected_version": version,
            "card": spec.card,
            "zone": spec.zone,
            "printing": spec.printing,
        }
        if quantity is not None:
            deck_entry_set(quantity=quantity, **common)
        else:
            deck_entry_add(delta=data["delta"], **common)
        return deck_response(request, self.deck)


def _printing_for(entry: DeckEntry, pin: dict[str, Any] | None) -> Printing | None:
    """The printing a pin names among the entry card's printings (400 when none or several)."""
    if pin is None:
        return None
    printings = list(Printing.objects.filter(card=entry.card).select_related("card_set"))
    found = pick_printing(printings, pin)
    if len(found) != 1:
        known = ", ".join(printing_text(p) for p in printings[:8]) or "—"
        card = entry.card.name_en or entry.card.name_ja
        message = Say(errors.UNKNOWN_PRINTING, {"card": card, "pin": pin_text(pin), "known": known})
        raise ValidationError({"printing": [message.render()]})
    return found[0]


class EntryDetailApi(DeckApiView):
    deck: Deck

    def _entry(self, entry_id: int) -> DeckEntry:
        entry = (
            DeckEntry.objects.filter(deck=self.deck, pk=entry_id)
            .select_related("card__game", "printing")
            .first()
        )
        if entry is None:
            raise NotFound(errors.ENTRY_NOT_FOUND)
        return entry

    @extend_schema(
        tags=[schema.TAG],
        summary=_("Change an entry"),
        parameters=[schema.DECK_ID, schema.ENTRY_ID, schema.IF_MATCH, schema.LANGUAGE_HEADER],
        request=EntryUpdateInputSerializer,
        responses={200: DeckDetailOutputSerializer, **schema.WRITE_ERRORS},
    )
    def patch(self, request: Request, public_id: str, entry_id: int) -> Response:
        """Its quantity, its zone, or its printing (null unpins it). An entry that lands on an
        identical one (same zone, card and printing) merges with it."""
        self.deck = deck_for_writer(request, public_id)
        entry = self._entry(entry_id)
        given = EntryUpdateInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        version = expected_version(request)
        data = given.validated_data
        if "zone" in data and (bad := zone_error(self.deck.game, data["zone"])):
            raise ValidationError({"zone": [bad]})
        changes: dict[str, Any] = {}
        if "zone" in data:
            changes["zone"] = data["zone"]
        if "quantity" in data:
            changes["quantity"] = data["quantity"]
        if "printing" in data:
            changes["printing"] = _printing_for(entry, data["printing"])
        deck_entry_update(
            deck=self.deck, user=request.user, expected_version=version, entry=entry, **changes
        )
        return deck_response(request, self.deck)

    @extend_schema(
        tags=[schema.TAG],
        summary=_("Remove an entry"),
        parameters=[schema.DECK_ID, schema.ENTRY_ID, schema.IF_MATCH, schema.VERSION_QUERY],
        request=None,
        responses={200: DeckDetailOutputSerializer, **schema.WRITE_ERRORS},
    )
    def delete(self, request: Request, public_id: str, entry_id: int) -> Response:
        """Remove the entry; answers with the deck (its new version)."""
        self.deck = deck_for_writer(request, public_id)
        entry = self._entry(entry_id)
        version = expected_version(request)
        deck_entry_update(
            deck=self.deck, user=request.user, expected_version=version, entry=entry, quantity=0
        )
        return deck_response(request, self.deck)
