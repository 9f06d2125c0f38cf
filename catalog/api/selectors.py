"""Reads behind the catalog API: keyword-only, typed, one query shape per list.

Every list selector takes the request's query parameters as ``filters``, validates them with a
FilterSet and raises DRF's ``ValidationError`` (a 400 naming each bad parameter) when they do not
validate. Lists fetch their related rows up front, so a page costs the same number of queries
however many rows it holds.

Only the public catalog is served: a player's own cards and sets (``owner`` set, from a custom
deck import) are visible to that player alone, so this API never shows or counts them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

import django_filters
from django.db.models import Count, IntegerField, OuterRef, Prefetch, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce
from django_filters.utils import translate_validation

from catalog.api.filters import (
    CardSetFilter,
    CrossGameCardFilter,
    ProductFilter,
    api_card_filterset_for,
    printing_filterset_for,
)
from catalog.demo import real_printings_only
from catalog.filters import CardFilterBase, real_first, sort_cards
from catalog.models import Card, CardSet, Game, Printing, Product, ProductItem, listed
from catalog.query.compile import SearchContext, compile_query, order_cards
from catalog.spec import all_games, get_game

F = TypeVar("F", bound=django_filters.FilterSet)


def _validated(filterset: F) -> F:
    if not filterset.is_valid():
        raise translate_validation(filterset.errors)
    return filterset


def _count(
    queryset: QuerySet[Any], outer: str, *, field: str = "pk", distinct: bool = False
) -> Any:
    """A correlated COUNT subquery: counting beside the row, not through a multiplying join."""
    counted = (
        queryset.filter(**{outer: OuterRef("pk")})
        .order_by()
        .values(outer)
        .annotate(n=Count(field, distinct=distinct))
        .values("n")
    )
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)


def _public_cards() -> QuerySet[Card]:
    return Card.objects.listed()


def _public_sets() -> QuerySet[CardSet]:
    return CardSet.objects.filter(owner__isnull=True)


def _public_printings() -> QuerySet[Printing]:
    return Printing.objects.filter(listed("card__"), card_set__owner__isnull=True)


def _public_items() -> QuerySet[ProductItem]:
    return ProductItem.objects.filter(
        listed("printing__card__"), printing__card_set__owner__isnull=True
    )


def _registered_slugs() -> list[str]:
    return [spec.slug for spec in all_games()]


# --- Games ----------------------------------------------------------------------------------


def _games() -> QuerySet[Game]:
    # Only games with a catalog module: a stray row without one has no types or facets to show.
    return Game.objects.filter(slug__in=_registered_slugs()).annotate(
        set_count=_count(_public_sets(), "game"),
        card_count=_count(_public_cards(), "game"),
        demo_card_count=_count(_public_cards().filter(is_demo=True), "game"),
        printing_count=_count(_public_printings(), "card__game"),
        product_count=_count(Product.objects.all(), "game"),
    )


def game_list() -> QuerySet[Game]:
    return _games().order_by("sort_order", "slug")


def game_get(*, slug: str) -> Game | None:
    return _games().filter(slug=slug).first()


def game_find(*, slug: str) -> Game | None:
    """The bare Game row that scopes the other lists (no counts)."""
    return Game.objects.filter(slug=slug, slug__in=_registered_slugs()).first()


# --- Sets -----------------------------------------------------------------------------------


def _sets(game: Game) -> QuerySet[CardSet]:
    return (
        _public_sets()
        .filter(game=game)
        .select_related("game")
        .annotate(
            card_count=_count(_public_printings(), "card_set", field="card", distinct=True),
            printing_count=_count(_public_printings(), "card_set"),
        )
    )


def set_list(*, game: Game, filters: Mapping[str, Any]) -> QuerySet[CardSet]:
    filterset = _validated(CardSetFilter(filters, queryset=_sets(game)))
    return filterset.qs.order_by("release_date", "code", "pk")


def set_get(*, game: Game, code: str) -> CardSet | None:
    return _sets(game).filter(code=code).first()


# --- Cards ----------------------------------------------------------------------------------


def _printings_in_order(printings: QuerySet[Printing]) -> QuerySet[Printing]:
    return printings.select_related("card_set").order_by(
        "card_set__release_date", "card_set__code", "collector_number", "variant", "pk"
    )


def _first_number(card_set_code: str | None) -> Subquery:
    printings = _public_printings().filter(card=OuterRef("pk"))
    if card_set_code:
        printings = printings.filter(card_set__code=card_set_code)
    return Subquery(printings.order_by("collector_number").values("collector_number")[:1])


def _card_page(filterset: CardFilterBase) -> QuerySet[Card]:
    """The filtered cards, once each, in the requested order, with what a list row shows.

    The filters test printings with EXISTS (a set, a field a game keeps on printings),
    so each card comes once and the card table is filtered directly: no ``pk IN (filtered)``
    re-scan, and the page's COUNT is one plain count over the same conditions.
    """
    data = filterset.form.cleaned_data
    sort = data.get("sort") or "name"
    compiled = filterset.compiled
    cards = sort_cards(filterset.qs, sort)
    if compiled is not None and compiled.order is not None:
        sort = compiled.order[0]
        cards = order_cards(cards, compiled, slug=filterset.game_slug)
    if data.get("show_demo"):
        cards = real_first(cards)  # the sort above replaced the filterset's order
    if sort == "number":
        cards = cards.annotate(first_number=_first_number(data.get("set")))
    return cards.select_related("game").prefetch_related(
        Prefetch("printings", queryset=_printings_in_order(_public_printings()))
    )


def _printing_rows(
    game: Game, filterset: CardFilterBase, context: SearchContext | None
) -> QuerySet[Printing] | None:
    """One row per printing when the query asks for it (``unique:prints``)."""
    if filterset.compiled is None or not filterset.compiled.wants_printings:
        return None
    compiled = compile_query(
        filterset.compiled.text, slug=game.slug, context=context, per_printing=True
    )
    printings = (
        _public_printings()
        # the set's game as well as the card's (the same, Printing.clean): the planner can
        # then walk the game's sets in order and each set's printings by number, and stop
        # after a page, instead of sorting every printing of the game
        .filter(compiled.condition, card__game=game, card_set__game=game)
        .select_related("card__game", "card_set")
    )
    if not filterset.asks_demo():
        printings = printings.filter(real_printings_only(game.slug))
    printings = order_cards(_printings_in_order(printings), compiled, slug=game.slug)
    return real_first(printings) if filterset.form.cleaned_data.get("show_demo") else printings


def card_list(
    *, game: Game, filters: Mapping[str, Any], context: SearchContext | None = None
) -> QuerySet[Card] | QuerySet[Printing]:
    """One game's cards: the search language (``q``), type, set, demo, the game's facets, a
    sort key; printings instead when ``q`` asks for one row per printing."""
    filterset_class = api_card_filterset_for(get_game(game.slug))
    filterset = filterset_class(filters, queryset=_public_cards().filter(game=game))
    filterset.context = context
    _validated(filterset)
    printings = _printing_rows(game, filterset, context)
    return printings if printings is not None else _card_page(filterset)


def card_search(*, filters: Mapping[str, Any]) -> QuerySet[Card]:
    """Cards of every game: the generic filters only (name, set, demo, game, sort); ``q`` takes
    the search language with the fields every game shares."""
    cards = _public_cards().filter(game__slug__in=_registered_slugs())
    filterset = CrossGameCardFilter(filters, queryset=cards)
    _validated(filterset)
    return _card_page(filterset)


def card_get(*, game: Game, code: str) -> Card | None:
    """A card with its printings (newest set last) and the product lines that hold each one."""
    items = ProductItem.objects.select_related("product__game").order_by(
        "product__release_date", "product__code", "zone", "pk"
    )
    printings = _printings_in_order(
        _public_printings().prefetch_related(Prefetch("product_items", queryset=items))
    )
    return (
        _public_cards()
        .filter(game=game, code=code)
        .select_related("game")
        .prefetch_related(Prefetch("printings", queryset=printings))
        .first()
    )


# --- Printings ------------------------------------------------------------------------------


def printing_list(*, game: Game, filters: Mapping[str, Any]) -> QuerySet[Printing]:
    printings = _public_printings().filter(card__game=game).select_related("card__game")
    filterset = _validated(printing_filterset_for(get_game(game.slug))(filters, printings))
    return _printings_in_order(filterset.qs)


# --- Products -------------------------------------------------------------------------------


def _products(game: Game) -> QuerySet[Product]:
    totals = (
        _public_items()
        .filter(product=OuterRef("pk"))
        .order_by()
        .values("product")
        .annotate(n=Sum("quantity"))
        .values("n")
    )
    return (
        Product.objects.filter(game=game)
        .select_related("game", "card_set")
        .annotate(items_total=Coalesce(Subquery(totals, output_field=IntegerField()), 0))
    )


def product_list(*, game: Game, filters: Mapping[str, Any]) -> QuerySet[Product]:
    filterset = _validated(ProductFilter(filters, queryset=_products(game)))
    return filterset.qs.order_by("release_date", "code", "pk")


def product_get(*, game: Game, code: str) -> Product | None:
    items = _public_items().select_related("printing__card__game", "printing__card_set")
    items = items.order_by("zone", "pk")
    return (
        _products(game)
        .filter(code=code)
        .prefetch_related(Prefetch("items", queryset=items))
        .first()
    )
