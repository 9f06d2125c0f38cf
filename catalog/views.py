"""Catalog pages: the games, a game's sets and products, a set's cards, a card, a product.

Views stay thin: reads live in ``catalog.selectors``; each page costs a fixed number of queries.
"""

from __future__ import annotations

from typing import TypeVar

from django.core.paginator import Page, Paginator
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_safe

from catalog import selectors
from catalog.attributes import described
from catalog.models import Card, Printing
from catalog.spec import get_game
from collection.selectors import card_copies

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
    page = None
    if query:
        cards, _filterset = selectors.card_search(game=found, params=request.GET)
        page = _page(request, cards)
    context = {"game": found, "spec": get_game(found.slug), "query": query, "page": page}
    if _wants_results_only(request):
        response = render(request, "catalog/_search_results.html", context)
    else:
        context["sets"] = selectors.game_sets(game=found)
        context["products"] = selectors.game_products(game=found)
        response = render(request, "catalog/game.html", context)
    patch_vary_headers(response, ["HX-Request"])
    return response


@require_safe
def set_detail(request: HttpRequest, game: str, code: str) -> HttpResponse:
    card_set = _or_404(selectors.set_get(game_slug=game, code=code))
    cards, filterset = selectors.set_cards(card_set=card_set, params=request.GET)
    context = {
        "game": card_set.game,
        "spec": get_game(game),
        "card_set": card_set,
        "filterset": filterset,
        "page": _page(request, cards),
    }
    if _wants_results_only(request):
        response = render(request, "catalog/_set_results.html", context)
    else:
        context["products"] = selectors.set_products(card_set=card_set)
        response = render(request, "catalog/set.html", context)
    patch_vary_headers(response, ["HX-Request"])
    return response


@require_safe
def card_detail(request: HttpRequest, game: str, code: str) -> HttpResponse:
    detail = _or_404(selectors.card_get(game_slug=game, code=code))
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
        "my_copies": card_copies(owner=request.user, card=card)
        if request.user.is_authenticated
        else None,
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
def product_detail(request: HttpRequest, game: str, code: str) -> HttpResponse:
    detail = _or_404(selectors.product_get(game_slug=game, code=code))
    context = {
        "game": detail.product.game,
        "spec": get_game(game),
        "product": detail.product,
        "zones": detail.zones,
        "total": detail.total,
    }
    return render(request, "catalog/product.html", context)
