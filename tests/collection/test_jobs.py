"""Big collection work leaves the web request: above ``COLLECTION_JOB_THRESHOLD`` rows (an
import) or items (an export), a preview, a commit, an undo and an export run on a real Celery
worker, with progress on the page (polled with htmx) and in the API (a job resource). Small
ones stay in the request. The worker's log must hold no error.

The threshold is lowered to a few rows here, so a file of a dozen rows is "big"; the files are
the collection's own DeckLab export of another player's items, so they read back whatever the
readers learn."""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker
from django.test import Client

from collection.imports import collection_export
from collection.interchange.dialects import BY_CODE
from collection.jobs import collection_job_run, collection_job_submit, collection_jobs_sweep
from collection.models import CollectionChange, CollectionItem, CollectionJob, ImportBatch
from decklab.celery import app as celery_app
from tests.collection.conftest import Shelf, add

API = "/api/v1/collection"
THRESHOLD = 5
ITEMS = 12

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


class _Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def running_worker() -> Iterator[None]:
    """A real Celery worker in this process, on the test broker; any error logged while it
    runs (by it or by a request) fails the test."""
    errors = _Errors()
    root = logging.getLogger()
    root.addHandler(errors)
    try:
        with start_worker(celery_app, perform_ping_check=False, shutdown_timeout=30):
            yield
    finally:
        root.removeHandler(errors)
    assert not errors.records, "\n".join(
        f"{r.name}: {r.getMessage()}\n{r.exc_text or ''}" for r in errors.records
    )


@pytest.fixture
def low_threshold(settings: Any) -> None:
    settings.COLLECTION_JOB_THRESHOLD = THRESHOLD


def _source_file(shelf: Shelf, django_user_model: Any, items: int = ITEMS) -> str:
    """Another player's collection of ``items`` distinct items (one printing, many binders),
    exported as DeckLab CSV: a file the import reads cleanly."""
    source = django_user_model.objects.create_user(username="source", password="x")
    for i in range(items):
        add(source, shelf.base_printings[i % 3], 1 + i % 4, binder=f"box {i:03d}")
    return collection_export(owner=source, dialect=BY_CODE["decklab"]).content


def _poll_page(client: Client, job_id: int, timeout: float = 60) -> tuple[bytes, list[str]]:
    """The job's page as htmx polls it, until it is finished; the statuses seen on the way."""
    seen: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        page = client.get(f"/collection/jobs/{job_id}/", HTTP_HX_REQUEST="true")
        assert page.status_code == 200
        status = CollectionJob.objects.get(pk=job_id).status
        seen.append(status)
        if b'hx-trigger="every 1s"' not in page.content:
            return page.content, seen
        time.sleep(0.1)
    pytest.fail(f"job {job_id} did not finish within {timeout} s: {seen[-5:]}")


def _poll_api(client: Client, url: str, timeout: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        body = client.get(url).json()
        assert 0 <= body["progress"] <= 100
        if body["finished"]:
            return body
        time.sleep(0.1)
    pytest.fail(f"{url} did not finish within {timeout} s")


def _job_id(response: Any) -> int:
    assert response.status_code == 302, response.content[:500]
    return int(response["Location"].rstrip("/").rsplit("/", 1)[1])


def test_a_big_import_is_previewed_committed_undone_and_exported_by_a_worker_on_the_page(
    running_worker: None,
    low_threshold: None,
    owner: Any,
    owner_client: Client,
    shelf: Shelf,
    django_user_model: Any,
) -> None:
    text = _source_file(shelf, django_user_model)
    started = owner_client.post("/collection/import/", {"game": "mattsan", "text": text})
    job_id = _job_id(started)
    assert not ImportBatch.objects.filter(owner=owner).exists()  # nothing read in the request
    page, seen = _poll_page(owner_client, job_id)
    assert seen[-1] == "succeeded"
    assert b'data-status="succeeded"' in page and b'aria-valuenow="100"' in page
    assert page.count(b"<tr") == ITEMS + 1  # the header and every planned item
    assert CollectionItem.objects.filter(owner=owner).count() == 0  # a preview writes nothing
    preview = CollectionJob.objects.get(pk=job_id)
    assert (preview.attempts, preview.result["new_items"]) == (1, ITEMS)
    batch = preview.batch
    assert batch is not None and batch.status == ImportBatch.Status.PREVIEWED

    commit_id = _job_id(owner_client.post(f"/collection/imports/{batch.pk}/commit/"))
    page, _seen = _poll_page(owner_client, commit_id)
    assert b'id="job-done"' in page and b'id="import-undo"' in page
    mine = CollectionItem.objects.filter(owner=owner)
    theirs = CollectionItem.objects.exclude(owner=owner)
    assert sorted(mine.values_list("binder", "quantity")) == sorted(
        theirs.values_list("binder", "quantity")
    )
    assert CollectionChange.objects.filter(batch=batch).count() == ITEMS

    undo_id = _job_id(owner_client.post(f"/collection/imports/{batch.pk}/undo/"))
    page, _seen = _poll_page(owner_client, undo_id)
    assert b'data-status="succeeded"' in page
    assert not mine.exists()
    batch.refresh_from_db()
    assert batch.status == ImportBatch.Status.UNDONE

    # an export of a big collection: the page reads nothing, a POST starts the job
    owner_client.post("/collection/import/", {"game": "mattsan", "text": text})
    job = CollectionJob.objects.filter(owner=owner, kind="preview").first()
    assert job is not None
    _poll_page(owner_client, job.pk)
    job.refresh_from_db()
    assert job.batch is not None
    _poll_page(
        owner_client, _job_id(owner_client.post(f"/collection/imports/{job.batch_id}/commit/"))
    )
    export_page = owner_client.get("/collection/export/?format=decklab")
    assert b'id="export-job"' in export_page.content
    export_id = _job_id(owner_client.post("/collection/export/job/", {"format": "decklab"}))
    page, _seen = _poll_page(owner_client, export_id)
    assert b'id="job-download"' in page
    download = owner_client.get(f"/collection/jobs/{export_id}/download/")
    assert download["Content-Type"].startswith("text/csv")
    assert download.content.decode().replace("\r\n", "\n").count("\n") == ITEMS + 1


def test_a_big_import_runs_as_a_job_through_the_api_with_progress(
    running_worker: None,
    low_threshold: None,
    owner: Any,
    owner_client: Client,
    shelf: Shelf,
    django_user_model: Any,
) -> None:
    text = _source_file(shelf, django_user_model)
    body = {"content": text, "game": "mattsan"}
    accepted = owner_client.post(
        f"{API}/imports/", json.dumps(body), content_type="application/json"
    )
    assert accepted.status_code == 202, accepted.content
    job = accepted.json()
    assert job["kind"] == "preview" and accepted["Location"] == job["url"]
    done = _poll_api(owner_client, job["url"])
    assert (done["status"], done["progress"], done["problems"]) == ("succeeded", 100, [])
    assert done["result"]["new_items"] == ITEMS and len(done["result"]["items"]) == ITEMS

    commit = owner_client.post(f"{API}/imports/{done['batch']}/commit/")
    assert commit.status_code == 202
    committed = _poll_api(owner_client, commit.json()["url"])
    assert committed["status"] == "succeeded" and committed["result"]["status"] == "committed"
    assert CollectionItem.objects.filter(owner=owner).count() == ITEMS
    # the same commit again: refused plainly by the job, nothing written twice
    again = _poll_api(
        owner_client, owner_client.post(f"{API}/imports/{done['batch']}/commit/").json()["url"]
    )
    assert again["status"] == "failed" and again["problems"][0]["column"] == "batch"
    assert CollectionChange.objects.filter(batch_id=done["batch"]).count() == ITEMS

    exported = owner_client.get(f"{API}/export/?format=decklab")
    assert exported.status_code == 202
    export_job = _poll_api(owner_client, exported.json()["url"])
    assert export_job["result"]["rows"] == ITEMS and export_job["download"]
    csv_text = owner_client.get(export_job["download"]).content.decode()
    assert csv_text.replace("\r\n", "\n").count("\n") == ITEMS + 1

    undo = owner_client.post(f"{API}/imports/{done['batch']}/undo/")
    assert undo.status_code == 202
    assert _poll_api(owner_client, undo.json()["url"])["status"] == "succeeded"
    assert not CollectionItem.objects.filter(owner=owner).exists()


def test_a_small_import_stays_in_the_request(
    owner: Any, owner_client: Client, shelf: Shelf, django_user_model: Any, settings: Any
) -> None:
    settings.COLLECTION_JOB_THRESHOLD = ITEMS
    text = _source_file(shelf, django_user_model)
    body = {"content": text, "game": "mattsan"}
    preview = owner_client.post(
        f"{API}/imports/", json.dumps(body), content_type="application/json"
    )
    assert preview.status_code == 201
    assert owner_client.post(f"{API}/imports/{preview.json()['id']}/commit/").status_code == 200
    assert not CollectionJob.objects.exists()


def test_a_refused_big_file_fails_its_job_with_every_problem_and_stores_nothing(
    running_worker: None, low_threshold: None, owner: Any, owner_client: Client, shelf: Shelf
) -> None:
    header = "game,card,name_en,set,number,quantity,language\n"
    rows = "".join(f"mattsan,NOPE-{i},No Such Card {i},MT1,,1,ja\n" for i in range(8))
    body = {"content": header + rows, "game": "mattsan", "format": "decklab"}
    accepted = owner_client.post(
        f"{API}/imports/", json.dumps(body), content_type="application/json"
    )
    assert accepted.status_code == 202
    done = _poll_api(owner_client, accepted.json()["url"])
    assert done["status"] == "failed" and len(done["problems"]) >= 8
    assert done["batch"] is None
    assert not ImportBatch.objects.exists() and not CollectionItem.objects.exists()


# --- delivered twice, lost, never run ---------------------------------------------------------


def test_a_job_delivered_twice_stores_one_batch(
    owner: Any, shelf: Shelf, django_user_model: Any
) -> None:
    job = collection_job_submit(
        owner=owner,
        kind=CollectionJob.Kind.PREVIEW,
        content=_source_file(shelf, django_user_model),
        params={"game": "mattsan"},
    )
    first = collection_job_run(job_id=job.pk, worker="one")
    second = collection_job_run(job_id=job.pk, worker="two")
    assert first is not None and second is not None
    assert (second.status, second.attempts) == ("succeeded", 1)
    assert ImportBatch.objects.filter(owner=owner).count() == 1


def test_a_job_whose_worker_was_lost_too_often_fails_plainly_on_the_next_sweep(
    owner: Any, owner_client: Client, shelf: Shelf
) -> None:
    job = collection_job_submit(owner=owner, kind=CollectionJob.Kind.EXPORT, params={})
    # three workers took it and vanished: the state a SIGKILL leaves, leases long lapsed
    CollectionJob.objects.filter(pk=job.pk).update(
        status="running", attempts=3, worker="gone@host/1", lease_until="2000-01-01T00:00Z"
    )
    assert collection_jobs_sweep() == 1
    body = owner_client.get(f"{API}/jobs/{job.pk}/").json()
    assert body["status"] == "failed"
    assert "lost 3 times" in body["problems"][0]["message"]


def test_reading_a_job_whose_lease_lapsed_queues_it_again(
    owner: Any, owner_client: Client, shelf: Shelf
) -> None:
    job = collection_job_submit(owner=owner, kind=CollectionJob.Kind.EXPORT, params={})
    CollectionJob.objects.filter(pk=job.pk).update(
        status="running", attempts=1, worker="gone@host/1", lease_until="2000-01-01T00:00Z"
    )
    body = owner_client.get(f"{API}/jobs/{job.pk}/").json()
    assert (body["status"], body["progress"]) == ("queued", 0)


def test_another_players_job_is_404(
    owner: Any, stranger_client: Client, owner_client: Client, shelf: Shelf
) -> None:
    job = collection_job_submit(owner=owner, kind=CollectionJob.Kind.EXPORT, params={})
    assert stranger_client.get(f"{API}/jobs/{job.pk}/").status_code == 404
    assert stranger_client.get(f"/collection/jobs/{job.pk}/").status_code == 404
    assert owner_client.get(f"{API}/jobs/{job.pk}/download/").status_code == 404


def test_an_exports_file_is_kept_a_day(owner: Any, owner_client: Client, shelf: Shelf) -> None:
    job = collection_job_submit(owner=owner, kind=CollectionJob.Kind.EXPORT, params={})
    CollectionJob.objects.filter(pk=job.pk).update(
        status="succeeded", content="game,card\n", finished_at="2000-01-01T00:00Z"
    )
    assert owner_client.get(f"{API}/jobs/{job.pk}/").json()["download"]
    collection_jobs_sweep()
    assert owner_client.get(f"{API}/jobs/{job.pk}/").json()["download"] is None
    assert owner_client.get(f"{API}/jobs/{job.pk}/download/").status_code == 404
    assert b'id="job-expired"' in owner_client.get(f"/collection/jobs/{job.pk}/").content


def test_progress_is_seen_by_the_page_while_the_jobs_write_transaction_is_open(
    owner: Any,
) -> None:
    from django.db import connection, transaction

    from collection.jobs import _claim, _lease_kept, _progress

    job = collection_job_submit(owner=owner, kind=CollectionJob.Kind.EXPORT, params={})
    assert _claim(job.pk, "here")
    job.refresh_from_db()
    seen: list[int] = []

    def read_elsewhere() -> None:
        # another connection, as the page's request would be
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            progress = CollectionJob.objects.get(pk=job.pk).progress
            if progress == 35:
                seen.append(progress)
                break
            time.sleep(0.05)
        connection.close()

    with _lease_kept(job.pk, "here"), transaction.atomic():
        _progress(job, 35)
        reader = threading.Thread(target=read_elsewhere)
        reader.start()
        reader.join()
    assert seen == [35]
