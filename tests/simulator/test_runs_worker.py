"""A worker killed in the middle of a run loses nothing: a real ``celery worker`` process
plays an Unmatched run, is killed (SIGKILL, its whole process group) once some chunks are in,
and a second worker finishes the run: the broker hands the killed worker's unacknowledged
chunk out again (after the visibility timeout) or the supervisor queues it again once its lease
lapses, whichever comes first. The results equal an undisturbed run's.

Needs PostgreSQL (the workers share the test database) and Redis (visibility timeouts)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from games.unmatched.engine import ENGINE
from simulator.decks import sim_deck_for
from simulator.engine.engine import run_games
from simulator.models import ChunkStatus, RunChunk, RunStatus, SimulationRun
from simulator.services import run_create, run_results
from simulator.supervisor import run_supervise_on_read
from tests.celery_process import StartCelery, wait_for, worker_arguments
from tests.simulator.fake_games._builders import unmatched_deck

GAMES = 60_000
CHUNK = 3_000  # ~0.15-0.4 s each: a chunk is almost always under way when the kill lands
SEED = 424_242
VISIBILITY_TIMEOUT = 3
ENV = {"CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT)}
ROOT = Path(settings.BASE_DIR)
CELERY = Path(sys.executable).parent / "celery"

BROKER = settings.CELERY_BROKER_URL
DATABASE_URL = os.environ.get("DATABASE_URL", "")
pytestmark = [
    pytest.mark.worker,
    pytest.mark.skipif(
        not BROKER.startswith(("redis://", "rediss://", "amqp://", "pyamqp://")),
        reason="needs a Redis or RabbitMQ broker (CELERY_BROKER_URL)",
    ),
    pytest.mark.skipif(
        not DATABASE_URL.startswith("postgres"),
        reason="needs PostgreSQL (DATABASE_URL): the worker processes share the test database",
    ),
]


@pytest.mark.django_db(transaction=True)
def test_a_run_survives_a_worker_killed_mid_run_with_exactly_the_same_results(
    owner: Any, celery_processes: StartCelery
) -> None:
    deck = unmatched_deck(owner)
    first = celery_processes("killme", *worker_arguments("killme"), env=ENV)
    run = run_create(
        owner=owner,
        deck=deck,
        engine_slug="unmatched",
        params={},
        games=GAMES,
        seed=SEED,
        chunk_size=CHUNK,
    )
    chunks = RunChunk.objects.filter(run=run)

    def chunk_in_flight() -> RunChunk | None:
        """A chunk the first worker is playing, once a few chunks are in."""
        if chunks.filter(status=ChunkStatus.DONE).count() < 3:
            return None
        return chunks.filter(status=ChunkStatus.RUNNING).first()

    in_flight = wait_for("three chunks and a fourth under way", chunk_in_flight, 90, [first.log])
    first.kill()
    done_at_kill = chunks.filter(status=ChunkStatus.DONE).count()
    assert done_at_kill < run.chunks_total

    # The killed worker's unacknowledged chunk is handed out again once the visibility timeout
    # has passed; a worker starting after that restores it as it connects.
    time.sleep(VISIBILITY_TIMEOUT + 1)
    second = celery_processes("second", *worker_arguments("second"), env=ENV)

    def finished() -> SimulationRun | None:
        # read as the run's page reads it, which sweeps it (simulator/supervisor.py)
        current = run_supervise_on_read(SimulationRun.objects.get(pk=run.pk))
        return current if current.is_finished else None

    run = wait_for("the run to finish", finished, 120, [first.log, second.log])

    assert run.status == RunStatus.SUCCEEDED, run.error
    assert (run.chunks_done, run.games_done) == (run.chunks_total, GAMES)
    undisturbed = run_games(
        ENGINE, sim_deck_for(deck), ENGINE.params.clean({}), run_seed=SEED, start=0, count=GAMES
    )
    assert run.results == run_results(undisturbed)

    stored_by = {name.split("@")[0] for name in chunks.values_list("worker", flat=True)}
    assert stored_by == {"killme", "second"}
    replayed = chunks.get(pk=in_flight.pk)
    # Either the kill caught it mid-game and the second worker played it again, or it was
    # stored in the instant before the kill (its redelivery then found it done).
    assert replayed.attempts == 2 or replayed.worker.startswith("killme@"), (
        replayed.attempts,
        replayed.worker,
    )
    print(
        f"\nkilled after {done_at_kill}/{run.chunks_total} chunks; chunk {replayed.index} "
        f"attempts={replayed.attempts}, stored by {replayed.worker}"
    )
