"""Reads behind the deck API: keyword-only and typed, each in a fixed number of queries.

List selectors take the request's query parameters and raise DRF's ``ValidationError`` (400,
naming each bad parameter) when they cannot read them, as the catalog API's selectors do.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import Exists, OuterRef, QuerySet
from rest_framework.exceptions import NotAuthenticated, ValidationError

from catalog.models import Game
from decks.api import errors
from decks.legality.check import check_deck
from decks.legality.problems import Problem, is_legal
from decks.models import Deck, DeckEntry, DeckRevision
from decks.selectors import deck_entries, deck_facts, decks_of_player, public_decks

_TRUE = ("1", "true")
_FALSE = ("0", "false")


@dataclass(frozen=True)
class DeckReading:
    """A deck's entries and its legality, checked now (not the cached ``is_legal``)."""

    entries: list[DeckEntry]
    problems: list[Problem]

    @property
    def legal(self) -> bool:
        return is_legal(self.problems)


def read_deck(*, deck: Deck) -> DeckReading:
    """Entries (one query) and legality (one more, for the cards' printings)."""
    entries = deck_entries(deck=deck)
    return DeckReading(entries, check_deck(deck_facts(deck=deck, entries=entries)))


def _flag(filters: Mapping[str, Any], name: str) -> bool:
    raw = str(filters.get(name, "")).strip().lower()
    if raw in ("", *_FALSE):
        return False
    if raw in _TRUE:
        return True
    raise ValidationError({name: [errors.BAD_FLAG]})


def game_find(slug: str) -> Game | None:
    return Game.objects.filter(slug=slug).first()


def deck_list(*, user: Any, filters: Mapping[str, Any]) -> QuerySet[Deck]:
    """The caller's own decks, or with ``public=1`` a game's public decks (never unlisted).

    Filters: ``game`` (slug), ``legal=1`` (legal decks only), ``card`` (decks with that card
    code), ``player`` (public browse only: that player's public decks).
    """
    public = _flag(filters, "public")
    legal = _flag(filters, "legal")
    slug = str(filters.get("game", "")).strip()
    card = str(filters.get("card", "")).strip()
    player = str(filters.get("player", "")).strip()
    game = game_find(slug) if slug else None
    if slug and game is None:
        raise ValidationError({"game": [errors.UNKNOWN_GAME]})
    if public:
        if game is None:
            raise ValidationError({"game": [errors.GAME_REQUIRED]})
        return public_decks(
            game=game, legal_only=legal, card_code=card or None, player=player or None
        )
    if player:
        raise ValidationError({"player": [errors.PLAYER_NEEDS_PUBLIC]})
    if not getattr(user, "is_authenticated", False):
        raise NotAuthenticated(errors.LOGIN_TO_LIST)
    decks = decks_of_player(owner=user, viewer=user)
    if game is not None:
        decks = decks.filter(game=game)
    if legal:
        decks = decks.filter(is_legal=True)
    if card:
        decks = decks.filter(Exists(DeckEntry.objects.filter(deck=OuterRef("pk"), card__code=card)))
    return decks


def revision_get(*, deck: Deck, number: int) -> DeckRevision | None:
    return DeckRevision.objects.filter(deck=deck, number=number).select_related("author").first()
