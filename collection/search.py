"""What the card search language's ``is:owned``, ``is:missing``, ``is:free`` and ``in:deck``
mean for one player (``catalog.query`` knows nothing of collections or decks: this app hands
it these through ``catalog.query.context`` when it starts)."""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, F, OuterRef, Q, Sum
from django.db.models.functions import Coalesce

from catalog.query.compile import SearchContext
from collection.models import CollectionItem
from decks.models import Deck, DeckEntry


def search_context_for(*, user: Any, deck: Deck | None = None) -> SearchContext:
    """``is:owned`` for a signed-in player (a card: any printing of it in the collection; a
    printing: that printing), ``in:deck`` where a deck is being edited."""
    signed_in = user is not None and user.is_authenticated

    def owned(per_printing: bool) -> Q:
        items = CollectionItem.objects.filter(owner=user)
        if per_printing:
            return Q(Exists(items.filter(printing=OuterRef("pk"))))
        return Q(Exists(items.filter(printing__card=OuterRef("pk"))))

    def free(per_printing: bool) -> Q:
        # copies beyond what the player's built decks reserve (collection.models.Reservation)
        items = (
            CollectionItem.objects.filter(owner=user)
            .annotate(reserved=Coalesce(Sum("reservations__quantity"), 0))
            .filter(quantity__gt=F("reserved"))
        )
        # one uncorrelated subquery, hashed once: an EXISTS with the reservations' sum would
        # be run again for every card of the game (0.4 s at 100,000 cards)
        if per_printing:
            return Q(pk__in=items.values("printing_id"))
        return Q(pk__in=items.values("printing__card_id"))

    def in_deck(per_printing: bool) -> Q:
        entries = DeckEntry.objects.filter(deck=deck)
        return Q(Exists(entries.filter(card=OuterRef("card" if per_printing else "pk"))))

    return SearchContext(
        owned=owned if signed_in else None,
        free=free if signed_in else None,
        in_deck=in_deck if deck is not None else None,
        signed_in=signed_in,
    )
