"""The deck's own pages: create (blank or from a product), the deck page, clone and delete."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Exists, OuterRef
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from catalog.models import Game, Product, ProductItem
from decks.errors import DeckError
from decks.extras import extra_views
from decks.forms import NO_SUCH_PRODUCT, DeckCreateForm, ProductPickForm, deck_games
from decks.game_rules import has_deck_rules
from decks.markdown import render_markdown
from decks.models import Deck
from decks.services import deck_clone, deck_create, deck_delete, deck_from_product
from decks.views.access import get_deck_for_user, is_htmx, is_owner
from decks.views.panels import deck_panels

# Products whose contents make a deck: every kind a game declares (catalog.kinds) but boosters,
# which are random and list no fixed contents.
NOT_A_DECK = Product.Kind.BOOSTER


def _products_by_game(games: list[Game]) -> list[tuple[Game, list[Product]]]:
    """The product picker: products that list their cards, grouped by game (one query)."""
    products = (
        Product.objects.filter(game__in=games)
        .exclude(kind=NOT_A_DECK)
        .filter(Exists(ProductItem.objects.filter(product=OuterRef("pk"))))
        .order_by("name_en", "name_ja", "code")
    )
    by_game: dict[int, list[Product]] = defaultdict(list)
    for product in products:
        by_game[product.game_id].append(product)
    return [(g, by_game[g.pk]) for g in games if by_game[g.pk]]


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def create(request: HttpRequest) -> HttpResponse:
    games = deck_games()
    if request.method == "POST":
        form = DeckCreateForm(request.POST, games=games)
        if form.is_valid():
            try:
                deck = deck_create(
                    owner=request.user,
                    game=form.chosen_game,
                    name=form.cleaned_data["name"],
                    visibility=form.cleaned_data["visibility"],
                    variant=form.cleaned_data.get("variant") or "",
                )
            except DeckError as exc:
                form.add_error(exc.field if exc.field in form.fields else None, str(exc.message))
            else:
                messages.success(request, _("Deck created. Add cards with the search box."))
                return redirect("decks:edit", deck.public_id)
        status = 400
    else:
        form = DeckCreateForm(initial={"game": request.GET.get("game")}, games=games)
        status = 200
    if is_htmx(request) and request.method == "GET":
        # the game select asks for the variant field of the game just picked
        return render(request, "decks/_variant_field.html", {"form": form})
    context = {"form": form, "product_groups": _products_by_game(games)}
    return render(request, "decks/create.html", context, status=status)


def _deck_product(**lookup: Any) -> Product | None:
    """A product that makes a deck: of a deck-making kind, with its contents listed."""
    return (
        Product.objects.select_related("game")
        .filter(**lookup)
        .exclude(kind=NOT_A_DECK)
        .filter(Exists(ProductItem.objects.filter(product=OuterRef("pk"))))
        .first()
    )


def _start_from(request: HttpRequest, product: Product | None) -> HttpResponse:
    if product is None or not has_deck_rules(product.game.slug):
        raise Http404
    deck = deck_from_product(product=product, user=request.user)
    messages.success(
        request, _("This deck starts as %(product)s; it is yours to change.") % {"product": product}
    )
    return redirect("decks:detail", deck.public_id)


@login_required
@require_POST
def from_product(request: HttpRequest, game: str, code: str) -> HttpResponse:
    return _start_from(request, _deck_product(game__slug=game, code=code))


@login_required
@require_POST
def from_product_pick(request: HttpRequest) -> HttpResponse:
    """The create page's product picker names the product by its id."""
    form = ProductPickForm(request.POST)
    product = _deck_product(pk=form.cleaned_data["product"]) if form.is_valid() else None
    if product is None:
        messages.error(request, str(NO_SUCH_PRODUCT))
        return redirect("decks:create")
    return _start_from(request, product)


@require_safe
def detail(request: HttpRequest, public_id: str) -> HttpResponse:
    deck = get_deck_for_user(request, public_id)
    panels = deck_panels(deck)
    cloned_from = deck.cloned_from
    if cloned_from is not None and cloned_from.visibility == Deck.Visibility.PRIVATE:
        # a private original stays unnamed to everyone but its owner
        cloned_from = cloned_from if cloned_from.owner_id == request.user.pk else None
    context: dict[str, Any] = {
        "deck": deck,
        "panels": panels,
        "is_owner": is_owner(request, deck),
        "description": render_markdown(deck.description),
        "cloned_from": cloned_from,
        "view": "list" if request.GET.get("view") == "list" else "faces",
        "extra_views": extra_views(deck),
    }
    return render(request, "decks/detail.html", context)


@login_required
@require_POST
def clone(request: HttpRequest, public_id: str) -> HttpResponse:
    deck = get_deck_for_user(request, public_id)
    copy = deck_clone(deck=deck, user=request.user)
    messages.success(request, _("This is your own private copy of “%(name)s”.") % {"name": deck})
    return redirect("decks:detail", copy.public_id)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def delete(request: HttpRequest, public_id: str) -> HttpResponse:
    deck = get_deck_for_user(request, public_id, owner=True)
    if request.method == "POST":
        name = deck.name
        deck_delete(deck=deck)
        messages.success(request, _("The deck “%(name)s” was deleted.") % {"name": name})
        return redirect(reverse("accounts:profile", args=[request.user.get_username()]))
    return render(request, "decks/delete.html", {"deck": deck})
