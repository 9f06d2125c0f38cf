"""Reads of a collection: who may read whose, items with filters, totals, set completion,
a card's copies and the decks using them. The deck report is ``collection.report``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, Sum
from django.http import Http404

from catalog.models import Card, CardSet, Game, Printing, listed
from collection.marks import collection_cached, collection_mark
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


def collection_shows_all_cards(*, owner: Any) -> bool:
    """Whether a public collection shows others every card, not only the trade list."""
    return CollectionSettings.objects.filter(
        owner=owner, is_public=True, shows_all_cards=True
    ).exists()


#: what another player may filter and sort a public collection by: never the owner's binders
#: or tags (a filter would reveal them), nor the order of their changes
PUBLIC_FILTERS = ("game", "set", "card", "type", "condition", "finish", "language", "q")
PUBLIC_SORTS = ("name", "set")


def collection_public_items(
    *, owner: Any, filters: Mapping[str, str], all_cards: bool | None = None
) -> QuerySet[CollectionItem]:
    """The items others see in a public collection: the trade list, or every item when the
    owner chose to show all cards. Callers show only the public fields
    (``collection_public_view``)."""
    if all_cards is None:
        all_cards = collection_shows_all_cards(owner=owner)
    shown: dict[str, str] = {k: filters[k] for k in PUBLIC_FILTERS if filters.get(k)}
    sorts = (*PUBLIC_SORTS, "quantity") if all_cards else PUBLIC_SORTS
    sort = filters.get("sort") or ""
    shown["sort"] = sort if sort in sorts else "name"
    if not all_cards:
        shown["trade"] = "1"
    query = shown.pop("q", "")
    items = collection_items(owner=owner, filters=shown)
    if query:
        # searched as a visitor would: the owner's is:owned or is:free would reveal what their
        # built decks hold
        items = _searched(items, owner=None, text=query, game=shown.get("game"))
    # the copies shown: the trade list alone says nothing of the copies kept
    return items.annotate(shown_quantity=F("quantity" if all_cards else "trade_quantity"))


def collection_public_view(item: CollectionItem, *, all_cards: bool) -> CollectionItem:
    """The item as others see it (never saved): the private fields emptied, and the quantity
    offered for trade as its quantity when only the trade list is shown."""
    item.binder, item.tags, item.note, item.currency = "", [], "", ""
    item.price, item.acquired_on = None, None
    if not all_cards:
        item.quantity = item.trade_quantity
    return item


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
        listed("card__"), card__game=game, card_set__code__iexact=set_code, variant=variant
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
    # by the card and set each item carries (CollectionItem.card, card_set): the totals count
    # the filtered items without joining every one to its printing
    if filters.get("game"):
        items = items.filter(card_set__game__slug=filters["game"])
    if filters.get("set"):
        items = items.filter(card_set__code=filters["set"])
    if filters.get("card"):
        items = items.filter(card__code=filters["card"])
    if filters.get("type"):
        items = items.filter(card__card_type=filters["type"])
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


def collection_binders(*, owner: Any) -> list[str]:
    """A player's binders in order (the page's binder filter). Read from the (owner, binder)
    index one binder at a time, each the first entry after the last one found (a recursive
    query): a few index probes however many items each binder holds, where a DISTINCT reads
    every item's entry (5-16 ms at 100,000 items)."""
    table = connection.ops.quote_name(CollectionItem._meta.db_table)
    sql = (
        "WITH RECURSIVE found(binder) AS ("
        f" SELECT MIN(binder) FROM {table} WHERE owner_id = %s AND binder > ''"
        " UNION ALL"
        f" SELECT (SELECT MIN(i.binder) FROM {table} AS i"
        "  WHERE i.owner_id = %s AND i.binder > found.binder)"
        " FROM found WHERE found.binder IS NOT NULL"
        ") SELECT binder FROM found WHERE binder IS NOT NULL"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [owner.pk, owner.pk])
        return [row[0] for row in cursor.fetchall()]


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
        cards=Count("card", distinct=True),
        trade=Sum("trade_quantity"),
    )
    return Totals(found["items"], found["copies"] or 0, found["cards"], found["trade"] or 0)


def collection_page_totals(
    *, owner: Any, items: QuerySet[CollectionItem], filters: Mapping[str, str], mark: str
) -> Totals:
    """The totals of the page's (filtered) items, cached under the collection's mark. Counted
    from the items alone (their card and set; the (owner, card_set, card) index for a game's
    or a set's): 20-odd ms at 100,000 items. A search (``q``) is counted every time:
    ``is:free`` and its kin read reservations, which the mark does not follow."""
    if filters.get("q"):
        return collection_totals(items=items)
    return collection_cached(
        what="totals",
        owner_id=owner.pk,
        mark=mark,
        parts={k: v for k, v in filters.items() if v and k not in ("sort", "page")},
        compute=lambda: collection_totals(items=items),
    )


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


def set_completion(*, owner: Any, game: Game, mark: str | None = None) -> list[SetCompletion]:
    """Per public set of the game: distinct cards owned (any printing in that set), of the
    cards the catalog lists, and of the set's official size.

    Never a read of the whole catalog per visit: the listed counts are the game page's
    (``catalog.selectors.game_sets``, counted once per catalog version), and the owned counts
    group the player's own items of those sets by the set and card each item carries, from
    the (owner, card_set, card) index alone (one statement, proportional to the items, no
    join), cached under the collection's mark (``collection.marks``) until the collection
    changes. Two statements when cached (the mark, the sets), three more at most when not."""
    from catalog.selectors import game_sets

    sets = [s for s in game_sets(game=game) if s.card_count]  # type: ignore[attr-defined]
    set_ids = [s.pk for s in sets]
    if mark is None:
        mark = collection_mark(owner=owner)

    def owned_by_set() -> dict[int, int]:
        rows = (
            CollectionItem.objects.filter(owner_id=owner.pk, card_set_id__in=set_ids)
            .values("card_set_id")
            .annotate(n=Count("card_id", distinct=True))
            .order_by()
        )
        return {row["card_set_id"]: row["n"] for row in rows}

    owned = collection_cached(
        what="completion",
        owner_id=owner.pk,
        mark=mark,
        parts={"game": game.pk, "sets": ",".join(map(str, set_ids))},
        compute=owned_by_set,
    )
    for card_set in sets:
        card_set.game = game  # the page links each set: no query for its game
    return [
        SetCompletion(s, owned.get(s.pk, 0), s.card_count)  # type: ignore[attr-defined]
        for s in sets
    ]


def set_missing_cards(*, owner: Any, card_set: CardSet) -> QuerySet[Card]:
    """The set's cards the player has no copy of (in that set)."""
    # the (owner, card_set, card) index answers each probe
    owned = CollectionItem.objects.filter(owner=owner, card_set=card_set, card=OuterRef("pk"))
    return (
        Card.objects.listed()
        .filter(printings__card_set=card_set)
        .exclude(Exists(owned))
        .select_related("game")  # each card's link names its game
        .distinct()
        .order_by("code")
    )


#: items of one card the card page lists; the rest are counted and linked to the collection page
CARD_COPIES_SHOWN = 20


@dataclass(frozen=True)
class CardCopies:
    #: the first ``CARD_COPIES_SHOWN`` items
    items: list[CollectionItem]
    decks: list[tuple[Deck, int, bool]]
    wished: int
    #: copies in every item of the card, and how many items there are
    total: int = 0
    item_count: int = 0

    @property
    def more(self) -> int:
        return self.item_count - len(self.items)


def card_copies(*, owner: Any, card: Card) -> CardCopies:
    """The card page's "my copies": the first items by printing and binder with the count and
    copies of all, decks using the card (built or not) and how many copies each uses, and how
    many are wished for (four queries, however many items)."""
    mine = CollectionItem.objects.filter(owner=owner, printing__card=card)
    counted = mine.aggregate(items=Count("id"), copies=Sum("quantity"))
    items = list(
        mine.select_related("printing__card_set").order_by(
            "printing__card_set__code", "printing__collector_number", "binder", "id"
        )[:CARD_COPIES_SHOWN]
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
        items=items,
        decks=[(d, d.uses, d.built) for d in decks],
        wished=wished["n"] or 0,
        total=counted["copies"] or 0,
        item_count=counted["items"],
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
    "collection_binders",
    "collection_items",
    "collection_owner_for",
    "collection_page_totals",
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
