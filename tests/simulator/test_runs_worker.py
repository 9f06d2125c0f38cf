"""A worker killed in the middle of a run loses nothing: a real ``celery worker`` process
plays an Unmatched run and is killed (SIGKILL, its whole process group) while it plays a
chunk. That chunk keeps its worker's lease, so neither the broker's redelivery (after the
visibility timeout) nor anyone else may play it until the lease lapses; then the sweep that
reading the run does puts it back, and a second worker plays it: attempt two, one recovery.
The results equal an undisturbed run's.

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
# The workers play the Python batch path: a compiled chunk of 3,000 games takes 2 ms, too short
# for a kill to land inside it, and the recovery under test is the same on both paths (the
# results are compared with the compiled path's in this process).
ENV = {"CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT), "DECKLAB_COMPILED": "0"}
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
    seen_running: set[int] | None = None

    def chunk_just_claimed() -> RunChunk | None:
        """Once three chunks are in: a chunk that was not running at the previous look (20 ms
        ago) and is now, so the worker is near the start of its 0.15-0.4 s when it is killed."""
        nonlocal seen_running
        running = {c.pk: c for c in chunks.filter(status=ChunkStatus.RUNNING)}
        before, seen_running = seen_running, set(running)
        if before is None or chunks.filter(status=ChunkStatus.DONE).count() < 3:
            return None
        fresh = [c for pk, c in running.items() if pk not in before]
        return fresh[0] if fresh else None

    claimed = wait_for(
        "three chunks and a fourth just claimed", chunk_just_claimed, 90, [first.log]
    )
    first.kill()
    # A killed backend's last statements finish on the server before the lost chunks are read.
    time.sleep(1)
    lost = chunks.get(pk=claimed.pk)
    assert (lost.status, lost.attempts) == (ChunkStatus.RUNNING, 1), "killed mid-chunk"
    assert lost.worker.startswith("killme@")
    assert lost.lease_until is not None
    # one pool process: the chunk just claimed is the only one the kill lost
    assert list(chunks.filter(status=ChunkStatus.RUNNING)) == [lost]
    done_at_kill = chunks.filter(status=ChunkStatus.DONE).count()

    # The killed worker's unacknowledged message comes back after the visibility timeout; a
    # worker starting after that restores it as it connects, and must not play the chunk
    # while its lease holds.
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
    # recovered through its lease, exactly once: put back by the sweep after the lease lapsed
    # (not before: a redelivered message found it leased), and played again by the second
    # worker, its second attempt
    replayed = chunks.get(pk=lost.pk)
    assert replayed.status == ChunkStatus.DONE
    assert replayed.attempts == 2, replayed.attempts
    assert replayed.worker.startswith("second@"), replayed.worker
    assert replayed.finished_at is not None and replayed.finished_at > lost.lease_until
    assert run.recoveries == 1 and run.recovered_at is not None
    assert run.recovered_at >= lost.lease_until
    # every other chunk was played once
    assert set(chunks.exclude(pk=lost.pk).values_list("attempts", flat=True)) == {1}
    print(
        f"\nkilled after {done_at_kill}/{run.chunks_total} chunks; chunk {replayed.index} "
        f"recovered at {run.recovered_at:%H:%M:%S.%f} (lease until {lost.lease_until:%H:%M:%S.%f})"
    )
