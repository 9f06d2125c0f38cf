"""Tunings for the tuning page and API tests: an Unmatched deck a player may tune (custom:
its cards were printed for no hero deck, unmatched.md:17), and its rounds played in-process
(no worker), the way a worker plays a run's chunks."""

from __future__ import annotations

from typing import Any

from decks.models import Deck
from simulator.models import ACTIVE_STATUSES, SimulationRun, TuningJob, TuningSource
from simulator.services import run_chunk_execute
from simulator.tuning.services import MIN_BUDGET, tuning_create
from tests.simulator.fake_games._builders import unmatched_deck

#: a tuning's rounds at most (simulator/engine/tuning.py MAX_ROUNDS is 12)
MAX_ROUNDS = 13


def tunable_deck(owner: Any, *, visibility: str = Deck.Visibility.PRIVATE) -> Deck:
    return unmatched_deck(owner, visibility=visibility)


def new_tuning(owner: Any, deck: Deck | None = None, **kwargs: Any) -> TuningJob:
    """A small tuning: every card of the game as candidates, the least budget, a fixed seed."""
    values: dict[str, Any] = {
        "source": TuningSource.ALL,
        "budget_games": MIN_BUDGET,
        "seed": 7,
    }
    values.update(kwargs)
    return tuning_create(owner=owner, deck=deck or tunable_deck(owner), **values)


def finish(job: TuningJob) -> TuningJob:
    """Play the tuning's rounds until its race is over."""
    for _round in range(MAX_ROUNDS):
        job.refresh_from_db()
        if job.is_finished:
            return job
        run = (
            SimulationRun.objects.filter(tuning=job, status__in=ACTIVE_STATUSES)
            .order_by("-pk")
            .first()
        )
        assert run is not None, "a running tuning has a round in play"
        for index in range(run.chunks_total):
            run_chunk_execute(run_id=run.pk, index=index)
    job.refresh_from_db()
    assert job.is_finished
    return job
