"""Reads: the engines a run may use; runs: their owner's, and readable by anyone with the
link when their deck is public or unlisted; deck tunings, their owner's alone."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet
from django.http import Http404

from decks.models import Deck
from games import registry
from simulator.engine.engine import Engine
from simulator.models import SimulationRun, TuningJob

Viewer = AbstractBaseUser | AnonymousUser
#: a run on a deck of these may be read by anyone with its link
SHARED_VISIBILITIES = (Deck.Visibility.PUBLIC, Deck.Visibility.UNLISTED)


def engines_all() -> dict[str, Engine[Any, Any]]:
    """Every engine by its slug (the slug of the game it plays), sorted by slug."""
    return dict(sorted(registry.engines().items()))


def engine_get(slug: str) -> Engine[Any, Any] | None:
    return engines_all().get(slug)


def run_get_for_owner(*, public_id: str, user: Viewer) -> SimulationRun:
    """A run is private to its owner: everyone else gets 404 (we do not confirm it exists)."""
    # Not the revision: its snapshot is bulky and the run keeps the revision's number.
    run = SimulationRun.objects.select_related("deck").filter(public_id=public_id).first()
    if run is None or not user.is_authenticated or run.owner_id != user.pk:
        raise Http404
    return run


def run_get_for_viewer(*, public_id: str, user: Viewer) -> SimulationRun:
    """A run's page: its owner, and anyone with its link when its deck is public or unlisted
    (the results say no more than the deck does). A private deck's run, or one whose deck is
    gone, stays its owner's alone: everyone else gets 404."""
    run = SimulationRun.objects.select_related("deck").filter(public_id=public_id).first()
    if run is None:
        raise Http404
    if user.is_authenticated and run.owner_id == user.pk:
        return run
    if run.deck is None or run.deck.visibility not in SHARED_VISIBILITIES:
        raise Http404
    return run


def runs_of_owner(*, user: Any) -> QuerySet[SimulationRun]:
    """A player's runs, newest first, without the bulky JSON columns. A tuning's rounds are
    left out: they are read on the tuning's page, as parts of it."""
    return (
        SimulationRun.objects.filter(owner=user, tuning__isnull=True)
        .select_related("deck")
        .defer("deck_data", "results")
        .order_by("-created_at")
    )


def tuning_get_for_owner(*, public_id: str, user: Viewer) -> TuningJob:
    """A tuning is private to its owner, as a run is: everyone else gets 404."""
    job = TuningJob.objects.select_related("deck").filter(public_id=public_id).first()
    if job is None or not user.is_authenticated or job.owner_id != user.pk:
        raise Http404
    return job


def tunings_of_deck(*, deck: Deck, user: Viewer) -> QuerySet[TuningJob]:
    """The player's tunings of a deck, newest first (the index ``tuning_owner_deck``), without
    the bulky JSON columns the list does not show."""
    if not user.is_authenticated:
        return TuningJob.objects.none()
    return (
        TuningJob.objects.filter(owner_id=user.pk, deck=deck)
        .defer("deck_data", "state", "moves", "spec")
        .order_by("-created_at")
    )
