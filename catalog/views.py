"""Catalog pages: the games, a game's sets and products, a set's cards, a card, a product.

Views stay thin: reads live in ``catalog.selectors``; each page costs a fixed number of queries.
"""

from __future__ import annotations

from typing import Any, TypeVar

from django.core.paginator import Page, Paginator
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_safe

from catalog import selectors
from catalog.attributes import described
from catalog.cache import FRAGMENT_SECONDS, catalog_version
from catalog.models import Card, Game, Printing
from catalog.panels import card_panels_render
from catalog.query.context import search_context
from catalog.query.errors import QueryError
from catalog.query.fields import COMMON_FIELDS, game_fields
from catalog.query.paging import CappedPaginator
from catalog.spec import all_games, get_game
from games.official import official_product

CARDS_PER_PAGE = 60
T = TypeVar("T")


def _or_404(found: T | None) -> T:
    if found is None:
        raise Http404
    return found


def _wants_results_only(request: HttpRequest) -> bool:
    # htmx swaps only the results block; boosted links and history restores want the page.
    htmx = getattr(request, "htmx", None)
    if not htmx:
        return False
    return not htmx.boosted and not htmx.history_restore_request


def _page(request: HttpRequest, cards: QuerySet[Card]) -> Page[Card]:
    return Paginator(cards, CARDS_PER_PAGE).get_page(request.GET.get("page"))


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "catalog/home.html", {"games": selectors.game_list_with_counts()})


@require_safe
def game_detail(request: HttpRequest, game: str) -> HttpResponse:
    found = _or_404(selectors.game_get(slug=game))
    query = request.GET.get("q", "").strip()
    context: dict[str, Any] = {"game": found, "spec": get_game(found.slug), "query": query}
    context["show_demo"] = request.GET.get("show_demo") == "true"  # the search form's toggle
    if query:
        context.update(_search(request, found))
    if _wants_results_only(request):
        response = render(request, "catalog/_search_results.html", context)
    else:
        context["sets"] = selectors.game_sets(game=found)
        context["products"] = selectors.game_products(game=found)
        response = render(request, "catalog/game.html", context)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _search(request: HttpRequest, game: Game) -> dict[str, Any]:
    """The game page's search: its results page (cards, or printings for ``unique:prints``),
    the query's error (position and "did you mean") or near names when nothing matched."""
    search = search_context(user=request.user)
    cards, filterset = selectors.card_search(game=game, params=request.GET, context=search)
    if filterset.query_error is not None:
        return {"page": None, **_error_context(filterset.query_error, request.GET.get("q", ""))}
    rows: QuerySet[Any] = cards
    compiled = filterset.compiled
    if compiled is not None and compiled.wants_printings:
        rows, compiled = selectors.printing_search(
            game=game,
            query=request.GET.get("q", ""),
            context=search,
            hide_demo=not filterset.asks_demo(),
            show_demo=bool(filterset.form.cleaned_data.get("show_demo")),
        )
    # a search matching most of a game says "more than 1000" rather than count it all
    page: Page[Any] = CappedPaginator(rows, CARDS_PER_PAGE).get_page(request.GET.get("page"))
    found: dict[str, Any] = {"page": page, "per_printing": bool(compiled and compiled.per_printing)}
    if not page.paginator.count and compiled is not None and compiled.words:
        found["near_cards"] = selectors.near_cards(game=game, words=compiled.words)
    return found


def _error_context(error: QueryError | None, text: str) -> dict[str, Any]:
    if error is None:
        return {}
    return {"query_error": error, "query_error_parts": error.parts(text.strip())}


@require_safe
def set_detail(request: HttpRequest, game: str, code: str) -> HttpResponse:
    card_set = _or_404(selectors.set_get(game_slug=game, code=code))
    cards, filterset = selectors.set_cards(
        card_set=card_set, params=request.GET, context=search_context(user=request.user)
    )
    context = {
        "game": card_set.game,
        "spec": get_game(game),
        "card_set": card_set,
        "filterset": filterset,
        "page": _page(request, cards),
        # visitors' card grids are cached by this and the address (templates/catalog/set.html)
        "catalog_version": catalog_version(),
        "fragment_seconds": FRAGMENT_SECONDS,
    }
    context.update(_error_context(filterset.query_error, request.GET.get("q", "")))
    if _wants_results_only(request):
        response = render(request, "catalog/_set_results.html", context)
    else:
        context["products"] = selectors.set_products(card_set=card_set)
        response = render(request, "catalog/set.html", context)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _withdrawn_card(request: HttpRequest, game: str, code: str) -> HttpResponse:
    """410 Gone, not 404, for a card taken out of the catalog: the address was real and will
    not come back by itself, and a player who followed it from a deck reads why (the note);
    an editor still finds its history there, to revert the withdrawal."""
    card = _or_404(selectors.card_withdrawn(game_slug=game, code=code))
    context = {
        "game": card.game,
        "card": card,
        "panels": card_panels_render(request=request, card=card),
    }
    return render(request, "catalog/card_withdrawn.html", context, status=410)


@require_safe
def card_detail(request: HttpRequest, game: str, code: str) -> HttpResponse:
    detail = selectors.card_get(game_slug=game, code=code)
    if detail is None:
        return _withdrawn_card(request, game, code)
    spec = get_game(game)
    card = detail.card
    context = {
        "game": card.game,
        "spec": spec,
        "card": card,
        "attributes": list(described(spec.schema_for(card.card_type), card.attributes)),
        "printings": [
            (printing, list(described(spec.printing_schema, printing.attributes)))
            for printing in detail.printings
        ],
        "products": detail.products,
        "face_printings": _one_per_variant(detail.printings),
        # what other apps add to the page (catalog.panels): the catalog imports none of them
        "panels": card_panels_render(request=request, card=card),
    }
    return render(request, "catalog/card.html", context)


def _one_per_variant(printings: list[Printing]) -> list[Printing | None]:
    """The printings whose faces differ: the first of each variant, plain first."""
    seen: dict[str, Printing] = {}
    for printing in sorted(printings, key=lambda p: p.variant != ""):
        seen.setdefault(printing.variant, printing)
    faces: list[Printing | None] = list(seen.values())
    return faces or [None]


@require_safe
def search_help(request: HttpRequest) -> HttpResponse:
    """The search language's help: the shared fields, then each game's fields with examples."""
    games = [(spec, game_fields(spec.slug)) for spec in all_games()]
    return render(
        request, "catalog/search_help.html", {"common": COMMON_FIELDS.items(), "games": games}
    )


@require_safe
def product_detail(request: HttpRequest, game: str, code: str) -> HttpResponse:
    detail = _or_404(selectors.product_get(game_slug=game, code=code))
    context = {
        "game": detail.product.game,
        "spec": get_game(game),
        "product": detail.product,
        "zones": detail.zones,
        "total": detail.total,
        # the game's data on its official products: notes where our list differs, choices
        "official": official_product(game, code),
    }
    return render(request, "catalog/product.html", context)
