"""Reads behind the catalog pages: each returns rows ready to render in a fixed number of queries.

Every list a page shows is fetched with its related rows joined or prefetched here, so the
templates never trigger a query per row (the page tests hold each page to a constant count).
"""

from __future__ import annotations

import contextlib
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.db.models import (
    Count,
    Exists,
    IntegerField,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
)
from django.db.models.functions import Coalesce, Length, LPad

from catalog.cache import FRAGMENT_SECONDS, catalog_version
from catalog.demo import real_printings_only
from catalog.filters import CardFilterBase, apply_card_filters, real_first
from catalog.models import Card, CardSet, Game, Printing, Product, ProductItem, listed
from catalog.query.compile import CompiledQuery, SearchContext, compile_query, order_cards
from catalog.query.suggest import near_names
from catalog.spec import GameSpec, get_game, is_game

# Collector numbers are text ("9", "10", "UM01-012"); padding them makes "9" sort before "10".
_NUMBER_WIDTH = 40


@dataclass(frozen=True)
class RealDemo:
    """A count split by provenance: real rows and rows invented for demonstration."""

    real: int = 0
    demo: int = 0

    @property
    def total(self) -> int:
        return self.real + self.demo


@dataclass(frozen=True)
class GameSummary:
    game: Game
    spec: GameSpec
    sets: RealDemo
    cards: RealDemo
    products: RealDemo


def _counts_by_game(queryset: QuerySet[Any]) -> dict[int, RealDemo]:
    """One grouped query: game id -> (real, demo) row counts."""
    found: dict[int, dict[bool, int]] = defaultdict(dict)
    for row in queryset.values("game_id", "is_demo").annotate(n=Count("pk")).order_by():
        found[row["game_id"]][row["is_demo"]] = row["n"]
    return {
        game_id: RealDemo(real=split.get(False, 0), demo=split.get(True, 0))
        for game_id, split in found.items()
    }


def game_list_with_counts() -> list[GameSummary]:
    """The registered games that have a Game row, in the registry's order, with their counts."""
    games = [g for g in Game.objects.all() if is_game(g.slug)]
    # players' own sets and cards (custom deck imports) are never part of the public catalog
    sets = _counts_by_game(CardSet.objects.filter(owner__isnull=True))
    cards = _counts_by_game(Card.objects.listed())
    products = _counts_by_game(Product.objects.all())
    empty = RealDemo()
    summaries = [
        GameSummary(
            game=g,
            spec=get_game(g.slug),
            sets=sets.get(g.pk, empty),
            cards=cards.get(g.pk, empty),
            products=products.get(g.pk, empty),
        )
        for g in games
    ]
    return sorted(summaries, key=lambda s: (s.spec.sort_order, s.game.slug))


def game_get(*, slug: str) -> Game | None:
    """A game with a catalog module; rows for games without one are not shown."""
    if not is_game(slug):
        return None
    return Game.objects.filter(slug=slug).first()


def game_sets(*, game: Game) -> list[CardSet]:
    """The game's sets in release order, each with ``card_count`` (distinct cards in catalog).

    The counts read every printing of the game's sets (a quarter of a second at 200,000
    printings), so they are cached by catalog version: an import moves the version on and the
    next page counts again; other edits show within ``FRAGMENT_SECONDS``."""
    sets = list(
        CardSet.objects.filter(game=game, owner__isnull=True).order_by("release_date", "code")
    )
    counts = _set_card_counts(game=game)
    for card_set in sets:
        card_set.card_count = counts.get(card_set.pk, 0)  # type: ignore[attr-defined]
        card_set.game = game  # its kind is labelled by the game: spares a query a set
    return sets


def _set_card_counts(*, game: Game) -> dict[int, int]:
    key = f"catalog:set-counts:{game.pk}:v{catalog_version()}"
    try:
        cached = cache.get(key)
    except Exception:  # the cache unreachable: count without it
        cached = None
    if cached is not None:
        return {int(pk): int(n) for pk, n in cached.items()}
    rows = (
        Printing.objects.filter(listed("card__"), card_set__game=game, card_set__owner__isnull=True)
        .values("card_set_id")
        .annotate(n=Count("card_id", distinct=True))
        .order_by()
    )
    counts = {row["card_set_id"]: row["n"] for row in rows}
    # the cache unreachable: counted all the same, and the next page counts again
    with contextlib.suppress(Exception):
        cache.set(key, counts, timeout=FRAGMENT_SECONDS)
    return counts


def game_products(*, game: Game) -> list[Product]:
    """The game's products with ``item_total`` (cards listed in the catalog, 0 when none)."""
    return list(
        Product.objects.filter(game=game)
        .select_related("game")  # its kind is labelled by the game
        .annotate(
            item_total=Coalesce(Sum("items__quantity"), Value(0), output_field=IntegerField())
        )
        .order_by("release_date", "code")
    )


def _first_number(*, card_set: CardSet | None) -> Subquery:
    printings = Printing.objects.filter(card=OuterRef("pk"))
    if card_set is not None:
        printings = printings.filter(card_set=card_set)
    return Subquery(
        printings.order_by(Length("collector_number"), "collector_number")
        .annotate(padded=LPad("collector_number", _NUMBER_WIDTH, Value("0")))
        .values("padded")[:1]
    )


def _with_printings(
    queryset: QuerySet[Card], *, card_set: CardSet | None, conditions: list[Q] | None = None
) -> QuerySet[Card]:
    """Cards with their game and ``shown_printings`` (in ``card_set`` when given)."""
    printings = Printing.objects.select_related("card_set").order_by(
        "variant", Length("collector_number"), "collector_number", "pk"
    )
    if card_set is not None:
        printings = printings.filter(*(conditions or []), card_set=card_set)
    return queryset.select_related("game").prefetch_related(
        Prefetch("printings", queryset=printings, to_attr="shown_printings")
    )


def _filter_cards(
    spec: GameSpec,
    queryset: QuerySet[Card],
    params: Any,
    default_sort: str,
    context: SearchContext | None = None,
    *,
    hides_demo: bool = True,
) -> tuple[QuerySet[Card], CardFilterBase]:
    # The shared filters test printing facets with EXISTS, so no card is listed twice.
    params = _with_default_sort(params, default_sort)
    return apply_card_filters(spec, queryset, params, context, hides_demo=hides_demo)


def card_search(
    *, game: Game, params: Any, default_sort: str = "name", context: SearchContext | None = None
) -> tuple[QuerySet[Card], CardFilterBase]:
    """The game's cards filtered by ``params`` (the search language in ``q``, type, facets,
    sort)."""
    spec = get_game(game.slug)
    base = (
        Card.objects.listed().filter(game=game).annotate(first_number=_first_number(card_set=None))
    )
    cards, filterset = _filter_cards(spec, base, params, default_sort, context)
    return _with_printings(cards, card_set=None), filterset


def printing_search(
    *,
    game: Game,
    query: str,
    context: SearchContext | None = None,
    hide_demo: bool = False,
    show_demo: bool = False,
) -> tuple[QuerySet[Printing], CompiledQuery]:
    """One row per printing (the search language's ``unique:prints``), in set and number
    order unless the query sorts; ``QueryError`` for a query that does not compile.
    ``hide_demo``: leave out demo printings of a game with a real catalog (catalog.demo);
    ``show_demo``: real ones first."""
    compiled = compile_query(query, slug=game.slug, context=context, per_printing=True)
    printings = (
        # the set's game too (the same, Printing.clean): the game's sets are walked in order
        # and a page stops early, instead of every printing of the game being sorted
        Printing.objects.filter(
            compiled.condition, listed("card__"), card__game=game, card_set__game=game
        )
        .select_related("card__game", "card_set")
        .order_by(
            "card_set__release_date",
            "card_set__code",
            Length("collector_number"),
            "collector_number",
            "pk",
        )
    )
    if hide_demo:
        printings = printings.filter(real_printings_only(game.slug))
    printings = order_cards(printings, compiled, slug=game.slug)
    return (real_first(printings) if show_demo else printings), compiled


def near_cards(*, game: Game, words: tuple[str, ...]) -> list[Card]:
    """The game's public cards whose names are close to ``words`` (a search found nothing)."""
    return near_names(Card.objects.listed().filter(game=game), words)


def set_get(*, game_slug: str, code: str) -> CardSet | None:
    if not is_game(game_slug):
        return None
    return (
        CardSet.objects.select_related("game")
        .filter(game__slug=game_slug, code=code, owner__isnull=True)
        .first()
    )


def set_cards(
    *,
    card_set: CardSet,
    params: Any,
    default_sort: str = "number",
    context: SearchContext | None = None,
) -> tuple[QuerySet[Card], CardFilterBase]:
    """The cards printed in ``card_set``, filtered and sorted by ``params``.

    Each card carries ``first_number`` (its lowest number in this set) and
    ``shown_printings`` (its printings in this set).
    """
    spec = get_game(card_set.game.slug)
    # EXISTS, not pk IN (subquery): the planner can drive it from the set's printings
    in_set = Printing.objects.filter(card_set=card_set, card=OuterRef("pk"))
    base = (
        Card.objects.listed()
        .filter(Exists(in_set), game_id=card_set.game_id)
        .annotate(first_number=_first_number(card_set=card_set))
    )
    # a set's own page lists all its cards, demo or not: it was asked for by name
    cards, filterset = _filter_cards(spec, base, params, default_sort, context, hides_demo=False)
    conditions = _printing_conditions(filterset)
    if conditions:
        # The shared filters match a printing in any set; on a set's page the printing that
        # matches must be in this set (a printing value here, not in another box).
        matching = Printing.objects.filter(*conditions, card=OuterRef("pk"), card_set=card_set)
        cards = cards.filter(Exists(matching))
    return _with_printings(cards, card_set=card_set, conditions=conditions), filterset


def _printing_conditions(filterset: CardFilterBase) -> list[Q]:
    """The printing facets asked for, as conditions on a Printing row (the shared filter's own
    conditions, less the set, which the set page fixes itself)."""
    if not filterset.is_valid():
        return []
    data = filterset.form.cleaned_data
    found = [
        condition
        for name, make in filterset.printing_conditions.items()
        if name != "set" and (condition := make(data.get(name))) is not None
    ]
    if filterset.compiled is not None:
        # the query's own printing fields (boost:3) at its top level
        found.extend(filterset.compiled.printing_conditions)
    return found


def set_products(*, card_set: CardSet) -> list[Product]:
    return list(card_set.products.order_by("release_date", "code"))


def _with_default_sort(params: Any, default: str) -> Any:
    if params.get("sort"):
        return params
    with_sort = params.copy()
    with_sort["sort"] = default
    return with_sort


@dataclass
class ProductUse:
    """One product that contains a card: how many copies, in which zones."""

    product: Product
    quantity: int = 0
    zones: list[str] = field(default_factory=list)


@dataclass
class CardDetail:
    card: Card
    printings: list[Printing]
    products: list[ProductUse]


def card_get(*, game_slug: str, code: str) -> CardDetail | None:
    """A card with its printings (set joined) and the products that contain it."""
    if not is_game(game_slug):
        return None
    card = (
        Card.objects.listed().select_related("game").filter(game__slug=game_slug, code=code).first()
    )
    if card is None:
        return None
    printings = list(
        card.printings.select_related("card_set").order_by(
            "card_set__release_date", "card_set__code", "variant", "collector_number"
        )
    )
    for printing in printings:
        printing.card = card  # spares a query per printing in Printing.is_demo
    uses: dict[int, ProductUse] = {}
    items = (
        ProductItem.objects.filter(printing__card=card)
        .select_related("product__game")  # a product's kind is labelled by its game
        .order_by("product__release_date", "product__code", "zone")
    )
    for item in items:
        use = uses.setdefault(item.product_id, ProductUse(product=item.product))
        use.quantity += item.quantity
        if item.zone not in use.zones:
            use.zones.append(item.zone)
    return CardDetail(card=card, printings=printings, products=list(uses.values()))


def card_withdrawn(*, game_slug: str, code: str) -> Card | None:
    """A public card withdrawn from the catalog (its page says so instead of showing it)."""
    if not is_game(game_slug):
        return None
    return (
        Card.objects.select_related("game")
        .filter(game__slug=game_slug, code=code, owner__isnull=True, withdrawn_at__isnull=False)
        .first()
    )


@dataclass
class Zone:
    code: str
    items: list[ProductItem]

    @property
    def total(self) -> int:
        return sum(item.quantity for item in self.items)


@dataclass
class ProductDetail:
    product: Product
    zones: list[Zone]

    @property
    def total(self) -> int:
        return sum(zone.total for zone in self.zones)


def product_get(*, game_slug: str, code: str) -> ProductDetail | None:
    """A product with its contents grouped by zone (main zone first), cards joined."""
    if not is_game(game_slug):
        return None
    product = (
        Product.objects.select_related("game", "card_set__game")
        .filter(game__slug=game_slug, code=code)
        .first()
    )
    if product is None:
        return None
    items = product.items.select_related("printing__card__game", "printing__card_set").order_by(
        "zone", "printing__collector_number", "printing__card__name_en", "pk"
    )
    zones: dict[str, Zone] = {}
    for item in items:
        zones.setdefault(item.zone, Zone(code=item.zone, items=[])).items.append(item)
    ordered = sorted(zones.values(), key=lambda z: (z.code != "main", z.code))
    return ProductDetail(product=product, zones=ordered)
