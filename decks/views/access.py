"""Fetch-and-check, once: every deck view gets its deck through here."""

from __future__ import annotations

from django.http import HttpRequest

from decks.models import Deck
from decks.selectors import deck_get_for_owner, deck_get_for_viewer


def get_deck_for_user(request: HttpRequest, public_id: str, *, owner: bool = False) -> Deck:
    """The deck behind the link, or 404: private decks to anyone but their owner and, with
    ``owner=True``, every deck to anyone but its owner (we never confirm a deck exists)."""
    if owner:
        return deck_get_for_owner(public_id=public_id, user=request.user)
    return deck_get_for_viewer(public_id=public_id, user=request.user)


def is_owner(request: HttpRequest, deck: Deck) -> bool:
    return bool(request.user.is_authenticated and deck.owner_id == request.user.pk)


def is_htmx(request: HttpRequest) -> bool:
    """An htmx request that wants a fragment (not a boosted link or a history restore)."""
    htmx = getattr(request, "htmx", None)
    if not htmx:
        return False
    return not htmx.boosted and not htmx.history_restore_request
