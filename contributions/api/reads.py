"""Reads of the contributions API that the pages' selectors do not cover: a player's proposals
filtered and paged in the database, and one proposal with everything its answer shows.

Each is a fixed number of queries (tests/contributions/test_api.py counts the list)."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet

from catalog.models import Card
from contributions.models import Proposal, ProposalEvent

_EVENTS = Prefetch("events", queryset=ProposalEvent.objects.select_related("actor"))


def _with_relations(proposals: QuerySet[Proposal]) -> QuerySet[Proposal]:
    return proposals.select_related("game", "author", "decided_by").prefetch_related(_EVENTS)


def proposal_list(*, user: Any, state: str = "", game_slug: str = "") -> QuerySet[Proposal]:
    """The player's proposals, newest first (index proposal_author), each with its events."""
    found = Proposal.objects.filter(author=user)
    if state:
        found = found.filter(state=state)
    if game_slug:
        found = found.filter(game__slug=game_slug)
    return _with_relations(found).order_by("-created_at", "-id")


def proposal_find(proposal_id: int) -> Proposal | None:
    """One proposal with its game, its people and its events (who may see it is the view's)."""
    return _with_relations(Proposal.objects.filter(pk=proposal_id)).first()


def catalog_card_find(*, game_slug: str, code: str) -> Card | None:
    """A card of the shared catalog (never a player's own card)."""
    return Card.objects.filter(game__slug=game_slug, code=code, owner__isnull=True).first()
