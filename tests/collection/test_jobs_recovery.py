"""A big import's job survives its worker: a real ``celery worker`` process starts a preview,
is SIGKILLed (its whole process group) while the job runs, and a second worker, with beat
running the sweep, takes the job up again and finishes it with nobody reading its page or the
API. The broker's visibility timeout is an hour, so only the sweep can meet the bound. The
preview stores exactly one batch, and the second worker's log holds no error.

Needs PostgreSQL (the workers share the test database) and a Redis broker."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from catalog.models import Printing
from collection.interchange.dialects import BY_CODE
from collection.interchange.write import export_items
from collection.jobs import collection_job_submit
from collection.models import CollectionItem, CollectionJob, ImportBatch
from tests.celery_process import StartCelery, wait_for, worker_arguments
from tests.collection.conftest import Shelf

ROOT = Path(settings.BASE_DIR)
CELERY = Path(sys.executable).parent / "celery"
BROKER = settings.CELERY_BROKER_URL
#: rows of the file: a preview of a few seconds, so the kill lands while it runs
ROWS = 30_000
LEASE_SECONDS = 2
RECOVERY_BOUND = 90.0

pytestmark = [
    pytest.mark.worker,
    pytest.mark.skipif(
        not BROKER.startswith(("redis://", "rediss://")), reason="needs a Redis broker"
    ),
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith("postgres"),
        reason="needs PostgreSQL (DATABASE_URL): the worker processes share the test database",
    ),
]


ENV = {
    "CELERY_VISIBILITY_TIMEOUT": "3600",
    "COLLECTION_JOB_LEASE_SECONDS": str(LEASE_SECONDS),
    "COLLECTION_JOB_SWEEP_SECONDS": "1",
}


def _big_file(shelf: Shelf, rows: int) -> str:
    """``rows`` distinct items (three printings, many binders) as DeckLab CSV, written from
    unsaved items: nothing of it is in the database."""
    printings = list(Printing.objects.filter(pk__in=[p.pk for p in shelf.base_printings]))
    printings = [
        Printing.objects.select_related("card__game", "card_set").get(pk=p.pk) for p in printings
    ]
    items = (
        CollectionItem(
            printing=printings[i % 3],
            quantity=1 + i % 3,
            language="ja",
            binder=f"box {i:06d}",
        )
        for i in range(rows)
    )
    return export_items(items, BY_CODE["decklab"]).content


@pytest.mark.django_db(transaction=True)
def test_a_job_whose_worker_is_killed_is_finished_by_another_with_nobody_reading(
    owner: Any, shelf: Shelf, celery_processes: StartCelery, tmp_path: Path
) -> None:
    content = _big_file(shelf, ROWS)
    first = celery_processes("killme", *worker_arguments("killme"), env=ENV)
    job = collection_job_submit(
        owner=owner, kind=CollectionJob.Kind.PREVIEW, content=content, params={"game": "mattsan"}
    )
    jobs = CollectionJob.objects.filter(pk=job.pk)

    def running() -> bool:
        return jobs.filter(status="running").exists()

    wait_for("the first worker to take the job", running, 60, [first.log])
    time.sleep(0.5)
    first.kill()
    assert jobs.get().status == "running"  # cut off mid-preview: no outcome was written
    assert not ImportBatch.objects.exists()

    schedule = tmp_path / "second.schedule"
    second = celery_processes(
        "second", *worker_arguments("second", beat_schedule=schedule), env=ENV
    )
    began = time.monotonic()

    def finished() -> CollectionJob | None:
        # read from the database only: no page or API sweeps it
        found = jobs.get()
        return found if found.is_finished else None

    done = wait_for("the job to finish", finished, RECOVERY_BOUND, [first.log, second.log])
    took = time.monotonic() - began
    assert done.status == "succeeded", done.problems
    assert done.attempts == 2 and done.worker.startswith("second@")
    assert ImportBatch.objects.filter(owner=owner).count() == 1
    assert done.result["new_items"] == ROWS
    second.kill()
    log = second.log.read_text(errors="replace")
    assert "ERROR" not in log and "Traceback" not in log, log[-3000:]
    print(f"\nrecovered and finished {took:.1f} s after the kill")
