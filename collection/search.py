"""What the card search language's ``is:owned``, ``is:missing``, ``is:free`` and ``in:deck``
mean for one player (``catalog.query`` knows nothing of collections or decks: this app hands
it these through ``catalog.query.context`` when it starts)."""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, IntegerField, OuterRef, Q, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce

from catalog.query.compile import SearchContext
from collection.models import CollectionItem, Reservation
from decks.models import Deck, DeckEntry


def unreserved_items(items: QuerySet[CollectionItem]) -> QuerySet[CollectionItem]:
    """The items with a copy beyond what the player's built decks reserve
    (``collection.models.Reservation``): each item's reservations summed on their own index,
    so a search asks this of the few items it probes, never of the whole collection."""
    reserved = (
        Reservation.objects.filter(item=OuterRef("pk"))
        .order_by()
        .values("item")
        .annotate(total=Sum("quantity"))
        .values("total")
    )
    return items.filter(quantity__gt=Coalesce(Subquery(reserved), 0, output_field=IntegerField()))


def search_context_for(*, user: Any, deck: Deck | None = None) -> SearchContext:
    """``is:owned`` for a signed-in player (a card: any printing of it in the collection; a
    printing: that printing) and ``is:free`` (the same, of copies no built deck reserves),
    ``in:deck`` where a deck is being edited."""
    signed_in = user is not None and user.is_authenticated

    def mine(per_printing: bool, items: QuerySet[CollectionItem]) -> Q:
        # correlated with the searched row: a page of 50 cards, or a capped count of 1,000,
        # probes only those cards' items, by index (a printing: the (owner, printing) index; a
        # card: the (owner, card) one, by the card each item carries). Through the printings
        # the planner may walk every printing of the catalog in card order instead (80 ms for
        # the capped count at 211,000 printings, against 3 ms; issue 19)
        if per_printing:
            return Q(Exists(items.filter(printing=OuterRef("pk"))))
        return Q(Exists(items.filter(card=OuterRef("pk"))))

    def owned(per_printing: bool) -> Q:
        return mine(per_printing, CollectionItem.objects.filter(owner=user))

    def free(per_printing: bool) -> Q:
        return mine(per_printing, unreserved_items(CollectionItem.objects.filter(owner=user)))

    def in_deck(per_printing: bool) -> Q:
        entries = DeckEntry.objects.filter(deck=deck)
        return Q(Exists(entries.filter(card=OuterRef("card" if per_printing else "pk"))))

    return SearchContext(
        owned=owned if signed_in else None,
        free=free if signed_in else None,
        in_deck=in_deck if deck is not None else None,
        signed_in=signed_in,
    )
