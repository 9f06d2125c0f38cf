"""A card's history on a page of its own: ``/contribute/<game>/cards/<code>/history/``.

The card page shows the same list at its end, beside the collection panels of a signed-in
player; this page shows only the card and its history, for a link from a deck or a review and
for a withdrawn card (whose catalog page answers 410 but whose history an editor reverts from
here). Five statements for a signed-in editor: the session, the user, the card, the history,
the editor check (tests/contributions/test_history_page.py counts them)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import URLPattern, path

from catalog.models import Card
from contributions.card_panels import card_history_context


def card_history_page(request: HttpRequest, game: str, code: str) -> HttpResponse:
    card = (
        Card.objects.filter(game__slug=game, code=code, owner__isnull=True)
        .select_related("game")
        .first()
    )
    if card is None:
        raise Http404
    context = {"card": card, "game": card.game, **card_history_context(request, card)}
    return render(request, "contributions/card_history.html", context)


urlpatterns: list[URLPattern] = [
    path("<slug:game>/cards/<str:code>/history/", card_history_page, name="card-history"),
]
