"""Reads: who may see which deck, entries in few queries, public deck listings."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Exists, OuterRef, QuerySet
from django.http import Http404

from catalog.models import Game
from decks.legality.facts import DeckFacts, EntryFacts
from decks.legality.load import card_facts_for, printing_facts
from decks.models import Deck, DeckEntry, DeckRevision
from decks.snapshots import printing_label

Viewer = AbstractBaseUser | AnonymousUser


def _is_owner(deck: Deck, user: Viewer) -> bool:
    return bool(user.is_authenticated and deck.owner_id == user.pk)


def deck_get_for_viewer(*, public_id: str, user: Viewer) -> Deck:
    """The deck behind a link. Private decks are 404 to all but their owner; unlisted and
    public decks are readable by anyone who has the link."""
    deck = (
        Deck.objects.select_related("game", "owner", "cloned_from", "source_product")
        .filter(public_id=public_id)
        .first()
    )
    if deck is None or (deck.visibility == Deck.Visibility.PRIVATE and not _is_owner(deck, user)):
        raise Http404
    return deck


def deck_get_for_owner(*, public_id: str, user: Viewer) -> Deck:
    """A deck the user may change: anyone else gets 404 (we do not confirm it exists)."""
    deck = deck_get_for_viewer(public_id=public_id, user=user)
    if not _is_owner(deck, user):
        raise Http404
    return deck


def deck_entries(*, deck: Deck) -> list[DeckEntry]:
    return list(
        DeckEntry.objects.filter(deck=deck)
        .select_related("card__game", "printing__card_set")
        .order_by("zone", "card__card_type", "card__name_en", "id")
    )


def deck_facts(*, deck: Deck, entries: list[DeckEntry] | None = None) -> DeckFacts:
    """The deck as the legality checker sees it (two queries when entries are given)."""
    entries = deck_entries(deck=deck) if entries is None else entries
    cards = card_facts_for(e.card for e in entries)
    return DeckFacts(
        game=deck.game.slug,
        variant=deck.variant,
        extras=deck.extras,
        entries=tuple(
            EntryFacts(
                card=cards[e.card_id],
                zone=e.zone,
                quantity=e.quantity,
                printing=printing_facts(e.printing) if e.printing else None,
            )
            for e in entries
        ),
    )


def deck_snapshot(*, deck: Deck, entries: list[DeckEntry]) -> dict[str, Any]:
    """What a revision keeps: enough to show, diff and restore the deck without the catalog."""
    return {
        "version": 1,
        "game": deck.game.slug,
        "name": deck.name,
        "description": deck.description,
        "visibility": deck.visibility,
        "variant": deck.variant,
        "extras": deck.extras,
        "entries": [
            {
                "zone": e.zone,
                "card": e.card.code,
                "name_en": e.card.name_en,
                "name_ja": e.card.name_ja,
                "printing": printing_label(
                    e.printing.card_set.code, e.printing.collector_number, e.printing.variant
                )
                if e.printing
                else "",
                "quantity": e.quantity,
            }
            for e in entries
        ],
    }


def deck_revisions(*, deck: Deck) -> QuerySet[DeckRevision]:
    return DeckRevision.objects.filter(deck=deck).select_related("author").order_by("-number")


def decks_of_player(*, owner: Any, viewer: Viewer) -> QuerySet[Deck]:
    """A profile's decks: all of them for their owner, the public ones for anyone else."""
    decks = Deck.objects.filter(owner=owner).select_related("game", "owner")
    if not (viewer.is_authenticated and viewer.pk == owner.pk):
        decks = decks.filter(visibility=Deck.Visibility.PUBLIC)
    return decks.order_by("-updated_at")


def public_decks(
    *,
    game: Game,
    legal_only: bool = False,
    card_code: str | None = None,
    player: str | None = None,
) -> QuerySet[Deck]:
    """Public decks of a game for the deck browser (never unlisted or private ones)."""
    decks = Deck.objects.filter(game=game, visibility=Deck.Visibility.PUBLIC).select_related(
        "game", "owner"
    )
    if legal_only:
        decks = decks.filter(is_legal=True)
    if card_code:
        decks = decks.filter(
            Exists(DeckEntry.objects.filter(deck=OuterRef("pk"), card__code=card_code))
        )
    if player:
        decks = decks.filter(owner__username__iexact=player)
    return decks.order_by("-updated_at")


__all__ = [
    "deck_entries",
    "deck_facts",
    "deck_get_for_owner",
    "deck_get_for_viewer",
    "deck_revisions",
    "deck_snapshot",
    "decks_of_player",
    "public_decks",
]
