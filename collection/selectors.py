"""Reads of a collection: who may read whose, items with filters, totals, set completion,
a card's copies and the decks using them. The deck report is ``collection.report``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Sum
from django.http import Http404

from catalog.models import Card, CardSet, Game, Printing
from collection.models import CollectionItem, CollectionSettings, DeckBuild, WishlistItem
from collection.report import DeckReport, deck_collection_report
from decks.models import Deck
from games import registry

SORTS = {
    "name": ("printing__card__name_en", "printing__card__name_ja", "id"),
    "set": ("printing__card_set__code", "printing__collector_number", "id"),
    "quantity": ("-quantity", "printing__card__name_en", "id"),
    "recent": ("-updated_at", "-id"),
}


def collection_is_public(*, owner: Any) -> bool:
    return CollectionSettings.objects.filter(owner=owner, is_public=True).exists()


def collection_owner_for(*, viewer: Any, username: str | None) -> tuple[Any, bool]:
    """Whose collection the viewer reads, and whether read-only. Only its owner sees a
    collection, unless the owner made it public (then anyone reads it, read-only): any other
    request is 404, whether or not the player exists."""
    me = viewer if viewer is not None and viewer.is_authenticated else None
    if not username or (me is not None and me.get_username() == username):
        if me is None:
            raise Http404
        return me, False
    owner = get_user_model().objects.filter(username=username).first()
    if owner is None or not collection_is_public(owner=owner):
        raise Http404
    return owner, True


def printing_find(
    *, game: Game, set_code: str, card_code: str = "", number: str = "", variant: str = ""
) -> Printing | None:
    """A public printing by its set, number and variant (and card, when given); None when
    there is none or several."""
    printings = Printing.objects.filter(
        card__game=game, card_set__code__iexact=set_code, variant=variant, card__owner__isnull=True
    )
    if card_code:
        printings = printings.filter(card__code__iexact=card_code)
    if number:
        printings = printings.filter(collector_number=number)
    found = list(printings[:2])
    return found[0] if len(found) == 1 else None


def collection_items(*, owner: Any, filters: Mapping[str, str]) -> QuerySet[CollectionItem]:
    """A player's items with the collection page's (and the API's) filters and sorting."""
    items = CollectionItem.objects.filter(owner=owner).select_related(
        "printing__card__game", "printing__card_set"
    )
    if filters.get("game"):
        items = items.filter(printing__card__game__slug=filters["game"])
    if filters.get("set"):
        items = items.filter(printing__card_set__code=filters["set"])
    if filters.get("card"):
        items = items.filter(printing__card__code=filters["card"])
    if filters.get("type"):
        items = items.filter(printing__card__card_type=filters["type"])
    for name in ("condition", "finish", "language", "binder"):
        if filters.get(name) is not None and filters.get(name) != "":
            items = items.filter(**{name: filters[name]})
    if filters.get("tag"):
        items = items.filter(tags__contains=[filters["tag"]])
    if filters.get("q"):
        items = _searched(items, owner=owner, text=filters["q"], game=filters.get("game"))
    if filters.get("trade") in ("1", "true"):
        items = items.filter(trade_quantity__gt=0)
    # recently changed first by default: the (owner, -updated_at) index pages through any
    # number of items without sorting them all
    return items.order_by(*SORTS.get(filters.get("sort", ""), SORTS["recent"]))


def _searched(
    items: QuerySet[CollectionItem], *, owner: Any, text: str, game: str | None
) -> QuerySet[CollectionItem]:
    """``q``: the card search language on the items' printings (a game's own fields need its
    slug; without one, the fields every game shares). ``QueryError`` for a mistake."""
    from catalog.query.compile import compile_query
    from collection.search import search_context_for

    slug = game if game and registry.is_game(game) else None
    compiled = compile_query(
        text, slug=slug, context=search_context_for(user=owner), per_printing=True
    )
    if not compiled.condition:
        return items
    return items.filter(printing__in=Printing.objects.filter(compiled.condition))


@dataclass(frozen=True)
class Totals:
    items: int
    copies: int
    cards: int
    for_trade: int


def collection_totals(*, items: QuerySet[CollectionItem]) -> Totals:
    found = items.order_by().aggregate(
        items=Count("id"),
        copies=Sum("quantity"),
        cards=Count("printing__card", distinct=True),
        trade=Sum("trade_quantity"),
    )
    return Totals(found["items"], found["copies"] or 0, found["cards"], found["trade"] or 0)


@dataclass(frozen=True)
class SetCompletion:
    card_set: CardSet
    owned: int
    listed: int

    @property
    def official(self) -> int | None:
        return self.card_set.official_size

    @property
    def percent(self) -> int:
        size = self.official or self.listed
        return min(100, round(100 * self.owned / size)) if size else 0


def set_completion(*, owner: Any, game: Game) -> list[SetCompletion]:
    """Per set of the game: distinct cards owned (any printing in that set), of the cards the
    catalog lists, and of the set's official size (one query)."""
    owned = CollectionItem.objects.filter(
        owner=owner, printing__card_set=OuterRef("card_set"), printing__card=OuterRef("card")
    )
    listed = (
        Printing.objects.filter(card_set__game=game, card_set__owner__isnull=True)
        .values("card_set", "card")
        .distinct()
        .annotate(has=Exists(owned))
        .order_by()
    )
    counts: dict[int, list[int]] = {}
    for row in listed:
        found = counts.setdefault(row["card_set"], [0, 0])
        found[1] += 1
        found[0] += 1 if row["has"] else 0
    sets = (
        CardSet.objects.filter(pk__in=counts)
        .select_related("game")
        .order_by("release_date", "code")
    )
    return [SetCompletion(s, counts[s.pk][0], counts[s.pk][1]) for s in sets]


def set_missing_cards(*, owner: Any, card_set: CardSet) -> QuerySet[Card]:
    """The set's cards the player has no copy of (in that set)."""
    owned = CollectionItem.objects.filter(
        owner=owner, printing__card_set=card_set, printing__card=OuterRef("pk")
    )
    return (
        Card.objects.filter(printings__card_set=card_set)
        .exclude(Exists(owned))
        .distinct()
        .order_by("code")
    )


@dataclass(frozen=True)
class CardCopies:
    items: list[CollectionItem]
    decks: list[tuple[Deck, int, bool]]
    wished: int

    @property
    def total(self) -> int:
        return sum(i.quantity for i in self.items)


def card_copies(*, owner: Any, card: Card) -> CardCopies:
    """The card page's "my copies": items by printing and binder, decks using the card (built
    or not) and how many copies each uses, and how many are wished for (three queries)."""
    items = list(
        CollectionItem.objects.filter(owner=owner, printing__card=card)
        .select_related("printing__card_set")
        .order_by("printing__card_set__code", "printing__collector_number", "binder")
    )
    decks = (
        Deck.objects.filter(owner=owner, entries__card=card)
        .annotate(
            uses=Sum("entries__quantity", filter=Q(entries__card=card)),
            built=Exists(DeckBuild.objects.filter(deck=OuterRef("pk"))),
        )
        .order_by("name")
    )
    wished = WishlistItem.objects.filter(owner=owner, card=card).aggregate(n=Sum("quantity"))
    return CardCopies(
        items=items, decks=[(d, d.uses, d.built) for d in decks], wished=wished["n"] or 0
    )


def wishlist(*, owner: Any, game: Game | None = None) -> QuerySet[WishlistItem]:
    wishes = WishlistItem.objects.filter(owner=owner).select_related(
        "card__game", "printing__card_set"
    )
    if game is not None:
        wishes = wishes.filter(card__game=game)
    return wishes.order_by("card__game__sort_order", "card__name_en", "id")


__all__ = [
    "DeckReport",
    "card_copies",
    "collection_items",
    "collection_owner_for",
    "collection_totals",
    "deck_collection_report",
    "printing_find",
    "set_completion",
    "set_missing_cards",
    "wishlist",
]


def trade_list(*, owner: Any) -> QuerySet[CollectionItem]:
    """The items a player marked for trade (some copies of it), for their public profile."""
    return (
        CollectionItem.objects.filter(owner=owner, trade_quantity__gt=0)
        .select_related("printing__card__game", "printing__card_set")
        .order_by("printing__card__game__sort_order", "printing__card__name_en", "pk")
    )
