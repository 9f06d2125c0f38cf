"""A deck tuning nobody watches finishes on real workers, even when one of them is killed in
the middle of a round, and ranks exactly as the same tuning played in this process: real
``celery worker`` processes play its rounds, real ``celery beat`` sweeps the lost chunk back,
and nothing reads the tuning or its runs as a page would (that also sweeps them). The workers'
and beat's logs must be clean (``celery_logs``).

Played on the toy game Countdown (the workers load it through ``DECKLAB_EXTRA_GAMES``). Needs
PostgreSQL (the processes share the test database) and a Redis broker."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from simulator.models import ChunkStatus, RunChunk, RunStatus, TuningJob
from simulator.tuning.report import tuning_report
from simulator.tuning.services import tuning_create
from tests.celery_process import StartCelery, wait_for, worker_arguments
from tests.simulator.fake_games._builders import PACKAGES, WITH_FAKE_GAMES
from tests.simulator.test_tuning_jobs import SEED, _candidate, _deck, play

BROKER = settings.CELERY_BROKER_URL
#: the broker would hand a lost chunk out again only after an hour: only the sweep can
VISIBILITY_TIMEOUT = 3600
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


@pytest.fixture(autouse=True)
def _fake_games() -> Any:
    with WITH_FAKE_GAMES:
        yield


def _create(owner: Any, deck: Any) -> TuningJob:
    return tuning_create(
        owner=owner,
        deck=deck,
        goal="damage",
        turn=3,
        source="list",
        cards=["strong", "middling"],
        budget_games=1_500_000,
        seed=SEED,
    )


@pytest.mark.django_db(transaction=True)
def test_a_tuning_nobody_reads_survives_a_killed_worker_with_the_same_ranking(
    owner: Any, tmp_path: Path, celery_processes: StartCelery
) -> None:
    from decklab.celery import app

    app.control.purge()
    env = {
        "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT),
        "DECKLAB_EXTRA_GAMES": PACKAGES[0],
    }
    schedule = str(tmp_path / "celerybeat-schedule")
    beat = celery_processes("beat", "beat", "-l", "info", "-s", schedule, "--pidfile=", env=env)
    doomed = celery_processes("doomed", *worker_arguments("doomed"), env=env)
    deck, _cards = _deck(owner, [1, 4, 5, 6, 7, 2, 8, 9, 3, 6])
    _candidate("strong", 10)
    _candidate("middling", 5)
    job = _create(owner, deck)
    chunks = RunChunk.objects.filter(run__tuning=job)

    def a_chunk_under_way() -> RunChunk | None:
        if chunks.filter(status=ChunkStatus.DONE).count() < 2:
            return None
        return chunks.filter(status=ChunkStatus.RUNNING).first()

    lost = wait_for("two chunks and a third under way", a_chunk_under_way, 90, [doomed.log])
    doomed.kill()
    killed_at = time.monotonic()
    survivor = celery_processes("survivor", *worker_arguments("survivor"), env=env)

    def finished() -> TuningJob | None:
        current = TuningJob.objects.get(pk=job.pk)  # the row only: no sweep on read
        return current if current.is_finished else None

    done = wait_for("the tuning to finish", finished, 240, [beat.log, doomed.log, survivor.log])
    waited = time.monotonic() - killed_at
    assert done.status == RunStatus.SUCCEEDED, done.error
    replayed = chunks.get(pk=lost.pk)
    assert replayed.status == ChunkStatus.DONE

    # the same tuning played in this process, undisturbed: the same race, move for move
    again = play(_create(owner, deck), 1)
    assert again.state == done.state
    ranked = tuning_report(done).rows
    assert [r.index for r in ranked] == [r.index for r in tuning_report(again).rows]
    assert ranked[0].cut is not None and ranked[0].cut.code == "cd-00"
    assert ranked[0].add is not None and ranked[0].add.code == "strong"
    print(
        f"\ntuning finished {waited:.1f} s after the kill; chunk {replayed.index} of round "
        f"{replayed.run_id} by {replayed.worker}, attempt {replayed.attempts}"
    )
