"""Reads of the contributions app: the review queue, a player's proposals, a card's history.

Each is a fixed number of queries whatever the number of rows (tests/contributions/
test_selectors.py counts them)."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, Q

from catalog.models import Card, Game
from contributions.models import CatalogChange, Proposal, ProposalEvent
from contributions.services import require_editor


def review_queue(*, game: Game, editor: Any) -> list[Proposal]:
    """A game's proposals waiting for an editor, oldest first (uses index proposal_queue)."""
    require_editor(editor)
    return list(
        Proposal.objects.filter(game=game, state=Proposal.State.OPEN)
        .select_related("author", "game")
        .order_by("created_at", "id")
    )


def proposals_of(*, user: Any) -> list[Proposal]:
    """A player's proposals, newest first, each with its events (what the editor said)."""
    return list(
        Proposal.objects.filter(author=user)
        .select_related("game", "decided_by")
        .prefetch_related(
            Prefetch("events", queryset=ProposalEvent.objects.select_related("actor"))
        )
        .order_by("-created_at", "-id")
    )


def card_history(*, card: Card) -> list[CatalogChange]:
    """The changes of a card and of its printings, newest first, with who proposed and who
    approved each and its proposal (uses index change_object)."""
    return list(
        CatalogChange.objects.filter(game_id=card.game_id)
        .filter(
            Q(object_kind="card", object_code=card.code)
            | Q(object_kind="printing", object_code__startswith=f"{card.code}/")
        )
        .select_related("proposed_by", "approved_by", "proposal")
        .order_by("-at", "-id")
    )
