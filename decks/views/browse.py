"""The public deck browser of a game: filters, pagination, a fixed number of queries."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_safe

from catalog.filters import name_search
from catalog.models import Game
from decks.forms import BrowseForm
from decks.game_rules import has_deck_rules
from decks.imports.text import visible_cards
from decks.models import Deck, DeckEntry
from decks.selectors import public_decks
from decks.views.access import is_htmx

DECKS_PER_PAGE = 25


def _containing(decks: QuerySet[Deck], game: Game, text: str) -> QuerySet[Deck]:
    """Decks holding a card given by its exact code or by words of its name (ja or en);
    one subquery, so the page still costs the same number of queries."""
    public = visible_cards(game=game)
    by_name = name_search(public, text).values("pk")
    cards = public.filter(Q(code__iexact=text) | Q(pk__in=by_name)).values("pk")
    return decks.filter(Exists(DeckEntry.objects.filter(deck=OuterRef("pk"), card__in=cards)))


@require_safe
def browse(request: HttpRequest, game: str) -> HttpResponse:
    found = Game.objects.filter(slug=game).first()
    if found is None or not has_deck_rules(found.slug):
        raise Http404
    form = BrowseForm(request.GET)
    filters = form.cleaned_data if form.is_valid() else {}
    decks = public_decks(
        game=found,
        legal_only=bool(filters.get("legal")),
        player=(filters.get("player") or "").strip() or None,
    )
    card = (filters.get("card") or "").strip()
    if card:
        decks = _containing(decks, found, card)
    page = Paginator(decks, DECKS_PER_PAGE).get_page(request.GET.get("page"))
    context = {"game": found, "form": form, "page": page, "card_query": card}
    template = "decks/_browse_results.html" if is_htmx(request) else "decks/browse.html"
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    return response
