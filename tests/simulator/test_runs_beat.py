"""A run nobody looks at still finishes after its worker is lost: real ``celery beat`` sends the
supervisor's sweep every few seconds, and the sweep queues the lost chunk again. Nothing here
reads the run as its page or API does (that also sweeps it): the test only polls the row.

The broker's own recovery is out of reach (a visibility timeout of an hour), so only beat's
sweep can finish the run; and the beat and worker logs must be clean (``celery_logs``): a
schedule entry beat cannot send (``Couldn't apply scheduled task``) fails the test even when
something else rescued the run.

Needs PostgreSQL (the processes share the test database) and a Redis broker."""

from __future__ import annotations

import os
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
from simulator.supervisor import RUN_LEASE
from simulator.tasks import simulation_supervise
from tests.celery_process import StartCelery, wait_for, worker_arguments
from tests.simulator.fake_games._builders import unmatched_deck

GAMES = 60_000
CHUNK = 3_000
SEED = 737_373
#: the broker would hand the lost chunk out again only after an hour
VISIBILITY_TIMEOUT = 3600
BROKER = settings.CELERY_BROKER_URL

pytestmark = [
    pytest.mark.worker,
    pytest.mark.skipif(
        not BROKER.startswith(("redis://", "rediss://")),
        reason="needs a Redis broker (CELERY_BROKER_URL)",
    ),
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith("postgres"),
        reason="needs PostgreSQL (DATABASE_URL): the worker processes share the test database",
    ),
]


def test_every_task_and_every_scheduled_one_can_be_sent_within_its_time_limits() -> None:
    """Celery refuses to send a task whose soft limit exceeds its hard one, and a task given
    only a hard limit keeps the global soft one (25 minutes): beat then logs "Couldn't apply
    scheduled task" every time and never sends it."""
    from decklab.celery import app

    app.loader.import_default_modules()
    ours = {name: task for name, task in app.tasks.items() if not name.startswith("celery.")}
    assert simulation_supervise.name in ours
    for name, task in ours.items():
        soft, hard = task.soft_time_limit, task.time_limit
        assert not (soft and hard and soft > hard), (name, soft, hard)
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        assert entry["task"] in ours, entry


@pytest.mark.django_db(transaction=True)
def test_a_run_nobody_reads_finishes_after_its_worker_is_killed_thanks_to_beat(
    owner: Any, tmp_path: Path, celery_processes: StartCelery
) -> None:
    from decklab.celery import app

    app.control.purge()  # chunks left behind by an interrupted earlier session
    # the Python batch path: a compiled chunk ends before any kill could land inside it
    env = {"CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT), "DECKLAB_COMPILED": "0"}
    schedule = str(tmp_path / "celerybeat-schedule")
    beat = celery_processes("beat", "beat", "-l", "info", "-s", schedule, "--pidfile=", env=env)
    doomed = celery_processes("doomed", *worker_arguments("doomed"), env=env)
    deck = unmatched_deck(owner)
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

    def a_chunk_under_way() -> RunChunk | None:
        if chunks.filter(status=ChunkStatus.DONE).count() < 3:
            return None
        return chunks.filter(status=ChunkStatus.RUNNING).first()

    lost = wait_for("three chunks and a fourth under way", a_chunk_under_way, 90, [doomed.log])
    doomed.kill()
    killed_at = time.monotonic()
    survivor = celery_processes("survivor", *worker_arguments("survivor"), env=env)

    def finished() -> SimulationRun | None:
        # the row only: reading it as the page does would sweep it
        current = SimulationRun.objects.get(pk=run.pk)
        return current if current.is_finished else None

    # the lost chunk's lease lapses, then the next sweep (every 5 s) queues it again
    done = wait_for("the run to finish", finished, 150, [beat.log, doomed.log, survivor.log])
    waited = time.monotonic() - killed_at

    assert done.status == RunStatus.SUCCEEDED, done.error
    undisturbed = run_games(
        ENGINE, sim_deck_for(deck), ENGINE.params.clean({}), run_seed=SEED, start=0, count=GAMES
    )
    assert done.results == run_results(undisturbed)
    replayed = chunks.get(pk=lost.pk)
    if replayed.worker.startswith("survivor@"):
        # played again: only a sweep could have put it back within the hour
        assert replayed.attempts == 2
        assert done.recoveries >= 1
        assert waited >= RUN_LEASE.total_seconds()
    assert "Sending due task simulation-supervise" in beat.log.read_text()
    print(
        f"\nrun finished {waited:.1f} s after the kill; chunk {replayed.index} by {replayed.worker}"
    )
