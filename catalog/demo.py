"""Real before demo: once a game's real cards are in the catalog, its lists and searches leave
out the cards invented for demonstration unless asked (``is:demo``, ``demo=``, or the "show
demo cards" toggle ``show_demo``). Demo rows keep their mark wherever they are shown.

A game "has a real catalog" when one of its public sets not marked demo prints at least one
public card not marked demo: the set facts shipped for a game whose cards are all invented do
not count, the first approved real card does. The test is written into the list's own query
(an EXISTS that PostgreSQL evaluates once, as an InitPlan), so it costs no query of its own
and follows every catalog change at once.
"""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q

from catalog.models import Printing


def _real_printings(slug: str | None, *, outer: str) -> Exists:
    real = Printing.objects.filter(
        card_set__is_demo=False,
        card_set__owner__isnull=True,
        card__is_demo=False,
        card__owner__isnull=True,
    )
    if slug:
        real = real.filter(card_set__game__slug=slug)
    else:  # across games: each row's own game
        real = real.filter(card_set__game_id=OuterRef(outer))
    return Exists(real)


def real_cards_only(slug: str | None) -> Q:
    """On cards: real cards, and every card of a game without a real catalog."""
    return Q(is_demo=False) | Q(~_real_printings(slug, outer="game_id"))


def real_printings_only(slug: str | None) -> Q:
    """On printings: those whose card and set are real, and all of a game without a real
    catalog (a printing is demo when its card or its set is: ``Printing.is_demo``)."""
    real = _real_printings(slug, outer="card__game_id")
    return Q(card__is_demo=False, card_set__is_demo=False) | Q(~real)
