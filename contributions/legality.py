"""Decks' stored verdicts after a catalog change.

A deck page and the API check legality on every read, but ``Deck.is_legal`` and
``Deck.card_count`` are stored (deck listings and the API's ``legal`` filter read them without
checking each deck): a catalog change that alters a card's facts re-checks, in the same
transaction, every deck that uses the cards it touched, so its listings agree with its page
at once. No revision is recorded: the deck's own contents did not change.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Q

from catalog.models import Card, Game
from contributions.models import CatalogChange, ObjectKind
from decks.game_rules import deck_rules
from decks.legality.check import check_deck
from decks.legality.problems import is_legal
from decks.models import Deck
from decks.selectors import deck_entries, deck_facts


def touched_codes(changes: Iterable[CatalogChange]) -> tuple[set[str], set[str]]:
    """The card codes and set codes that ``changes`` touched (a printing's code starts with
    its card's: contributions.payload.printing_code)."""
    cards: set[str] = set()
    sets: set[str] = set()
    for change in changes:
        if change.object_kind == ObjectKind.CARD:
            cards.add(change.object_code)
        elif change.object_kind == ObjectKind.PRINTING:
            cards.add(change.object_code.split("/", 1)[0])
        elif change.object_kind == ObjectKind.SET:
            sets.add(change.object_code)
    return cards, sets


def decks_refresh_legality(
    *, game: Game, card_codes: Iterable[str] = (), set_codes: Iterable[str] = ()
) -> int:
    """Re-check every deck using one of these cards, or a card printed in one of these sets,
    and store its verdict and size where they changed; how many decks changed."""
    card_codes, set_codes = set(card_codes), set(set_codes)
    if not (card_codes or set_codes):
        return 0
    cards = Card.objects.filter(game=game).filter(
        Q(code__in=card_codes) | Q(printings__card_set__code__in=set_codes)
    )
    decks = (
        Deck.objects.filter(pk__in=Deck.objects.filter(entries__card__in=cards).values("pk"))
        .select_related("game")
        .order_by("pk")
    )
    zones = {z.code for z in deck_rules(game.slug).deck_zones}
    moved = 0
    for deck in decks:
        entries = deck_entries(deck=deck)
        legal = is_legal(check_deck(deck_facts(deck=deck, entries=entries)))
        count = sum(e.quantity for e in entries if e.zone in zones)
        if (legal, count) != (deck.is_legal, deck.card_count):
            Deck.objects.filter(pk=deck.pk).update(is_legal=legal, card_count=count)
            moved += 1
    return moved


def decks_refresh_after(changes: Iterable[CatalogChange], *, game: Game) -> int:
    """``decks_refresh_legality`` for the rows ``changes`` touched."""
    cards, sets = touched_codes(changes)
    return decks_refresh_legality(game=game, card_codes=cards, set_codes=sets)
