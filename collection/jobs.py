"""Big collection work as Celery jobs: previews, commits and undos of imports above
``COLLECTION_JOB_THRESHOLD`` rows, and exports above that many items (collection/limits.py).
Small ones stay in the request, so the common case answers at once.

A job wraps the services the request would call (``collection.imports``,
``collection.services``); only where it runs and how its progress is told change.

- **Idempotent.** A job's outcome and its write are one transaction, committed only while the
  job is still this worker's: a preview's batch, a commit or an undo is written once however
  often the message is delivered, and a finished job is left alone.
- **Leases.** A queued job should be claimed before ``QUEUE_LEASE`` (else its message counts
  as lost and is sent again); a running job's worker renews its lease every few seconds from a
  thread (else the worker counts as gone: SIGKILL, the OOM killer). The task is acknowledged
  late and given back when its worker dies, but recovery does not count on the broker:
- **The sweep** (``collection_jobs_sweep``, from beat and whenever a job's page or the API
  reads it) queues again a job whose lease lapsed, and fails it plainly once its worker was
  lost ``MAX_ATTEMPTS`` times (a file that kills its worker must not kill workers forever).
  This is the simulation runs' scheme (simulator/supervisor.py) for one task per job.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from datetime import timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import BooleanField, ExpressionWrapper, F, Q
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from catalog.models import Game, Printing
from collection import errors
from collection.imports import (
    CollectionImportError,
    Preview,
    collection_export,
    collection_import_commit_batch,
    collection_import_preview,
    dialect_or_none,
)
from collection.interchange.read import Problem
from collection.models import CollectionItem, CollectionJob, ImportBatch
from collection.services import collection_import_undo

logger = logging.getLogger(__name__)

Kind = CollectionJob.Kind
Status = CollectionJob.Status
ACTIVE = (Status.QUEUED, Status.RUNNING)

#: a queued job not claimed by then has lost its message (it is sent again: a duplicate finds
#: the job taken and costs one query)
QUEUE_LEASE = timedelta(minutes=5)
#: workers lost on one job before it fails
MAX_ATTEMPTS = 3
#: a job nobody ran for this long fails plainly (no worker, or the broker refuses it)
GIVE_UP_AFTER = timedelta(hours=6)
#: rows of a preview kept for the page and the API (the rest are counted)
PREVIEW_ROWS = 200
#: how long a finished export's file is kept for its download
KEEP_EXPORTS = timedelta(days=1)

WORKER_LOST = _(
    "The worker running this job was lost %(count)d times, so it was stopped; nothing was "
    "changed. Try again in a moment, or split the file."
)
NOT_RUN = _("No worker took this job in time; nothing was changed. Try again in a moment.")
INTERNAL_ERROR = _("The job stopped on an internal error; nothing was changed.")


def run_lease() -> timedelta:
    """A running job's worker renews its lease this often times three (the renewal thread
    beats every third of it), so one slow database answer does not lose it."""
    return timedelta(seconds=int(getattr(settings, "COLLECTION_JOB_LEASE_SECONDS", 60)))


def worker_tag(hostname: str) -> str:
    """Who runs a job: the node and the pool process (several share a node's hostname)."""
    return f"{hostname}/{os.getpid()}"


class JobLost(Exception):
    """The job is no longer this worker's (the sweep gave it away): its write rolls back."""


# --- submitting --------------------------------------------------------------------------------


def _send(job_id: int) -> None:
    # Imported here: the tasks module imports this one.
    from collection.tasks import run_collection_job

    try:
        run_collection_job.delay(job_id)
    except Exception:
        # the queue lease lapses and the sweep sends it again (or fails it, after a while)
        logger.exception("could not queue collection job %s", job_id)


def collection_job_submit(
    *,
    owner: Any,
    kind: str,
    batch: ImportBatch | None = None,
    params: dict[str, Any] | None = None,
    content: str = "",
) -> CollectionJob:
    """Store a queued job and hand its id to a worker once the caller commits. A commit, undo
    or export already waiting or running for the same thing is returned instead of a second
    one (a double click)."""
    params = params or {}
    if kind != Kind.PREVIEW:
        same = CollectionJob.objects.filter(owner=owner, kind=kind, status__in=ACTIVE)
        same = same.filter(batch=batch) if batch is not None else same.filter(params=params)
        found = same.first()
        if found is not None:
            return found
    job = CollectionJob.objects.create(
        owner=owner,
        kind=kind,
        batch=batch,
        params=params,
        content=content,
        language=translation.get_language() or settings.LANGUAGE_CODE,
        lease_until=timezone.now() + QUEUE_LEASE,
    )
    # After commit, or a fast worker could look for a row that is not there yet.
    transaction.on_commit(lambda: _send(job.pk))
    return job


# --- the worker's side -------------------------------------------------------------------------


def _claim(job_id: int, worker: str) -> bool:
    """Take the job unless a live worker has it or it is finished (a conditional UPDATE, so of
    two deliveries one runs it)."""
    now = timezone.now()
    claimed = (
        CollectionJob.objects.filter(pk=job_id)
        .filter(
            Q(status=Status.QUEUED)
            | Q(status=Status.RUNNING, lease_until__lt=now, attempts__lt=MAX_ATTEMPTS)
        )
        .update(
            status=Status.RUNNING,
            worker=worker,
            attempts=F("attempts") + 1,
            lease_until=now + run_lease(),
            started_at=now,
        )
    )
    return bool(claimed)


class _Heartbeat(threading.Thread):
    """Renews the job's lease while the worker works, and writes its progress: on its own
    connection, so the bar moves even while the worker's write transaction is open."""

    def __init__(self, job_id: int, worker: str) -> None:
        super().__init__(name=f"collection-job-{job_id}", daemon=True)
        self.job_id = job_id
        self.worker = worker
        self.finished = threading.Event()
        self.wake = threading.Event()
        self.progress: int | None = None

    def report(self, percent: int) -> None:
        self.progress = percent
        self.wake.set()

    def run(self) -> None:
        beat = run_lease().total_seconds() / 3
        try:
            while not self.finished.is_set():
                self.wake.wait(beat)
                self.wake.clear()
                if self.finished.is_set():
                    return
                fields: dict[str, Any] = {"lease_until": timezone.now() + run_lease()}
                if self.progress is not None:
                    fields["progress"] = self.progress
                renewed = CollectionJob.objects.filter(
                    pk=self.job_id, status=Status.RUNNING, worker=self.worker
                ).update(**fields)
                if not renewed:
                    return
        except Exception:
            # a database hiccup: the lease may lapse and the job run again, which is safe
            logger.warning("could not renew the lease of collection job %s", self.job_id)
        finally:
            connection.close()  # this thread's own connection


_current = threading.local()


@contextmanager
def _lease_kept(job_id: int, worker: str) -> Iterator[None]:
    beat = _Heartbeat(job_id, worker)
    beat.start()
    _current.beat = beat
    try:
        yield
    finally:
        _current.beat = None
        beat.finished.set()
        beat.wake.set()
        beat.join()


def _mine(job: CollectionJob) -> Any:
    return CollectionJob.objects.filter(pk=job.pk, status=Status.RUNNING, worker=job.worker)


def _progress(job: CollectionJob, percent: int) -> None:
    """Move the bar. The heartbeat writes it on its own connection at once, so the page sees
    it while the worker works, even inside the job's write transaction."""
    job.progress = percent
    beat: _Heartbeat | None = getattr(_current, "beat", None)
    if beat is not None:
        beat.report(percent)
    else:
        _mine(job).update(progress=percent)


def _finish(
    job: CollectionJob,
    *,
    failed: bool = False,
    result: dict[str, Any] | None = None,
    problems: list[dict[str, Any]] | None = None,
    content: str = "",
    batch: ImportBatch | None = None,
) -> None:
    """Record the outcome; inside the write's transaction this commits with it. Raises
    ``JobLost`` (rolling the write back) when the job is no longer this worker's."""
    fields: dict[str, Any] = {
        "status": Status.FAILED if failed else Status.SUCCEEDED,
        "progress": 100,
        "result": result or {},
        "problems": problems or [],
        "finished_at": timezone.now(),
        "lease_until": None,
    }
    if content:
        fields["content"] = content
    elif job.kind == Kind.PREVIEW:
        fields["content"] = ""  # the batch keeps the text once it is clean
    if batch is not None:
        fields["batch"] = batch
    if not _mine(job).update(**fields):
        raise JobLost


def _problem_rows(problems: list[Problem]) -> list[dict[str, Any]]:
    return [{"line": p.line, "column": p.column, "message": p.message} for p in problems]


def preview_body(preview: Preview) -> dict[str, Any]:
    """What a clean preview says, for the page and the API alike: counts and the first rows."""
    assert preview.batch is not None and preview.result.dialect is not None
    shown = preview.plan[:PREVIEW_ROWS]
    names = {
        p.pk: str(p)
        for p in Printing.objects.filter(pk__in=[o.spec.printing_id for o in shown]).select_related(
            "card", "card_set"
        )
    }
    return {
        "id": preview.batch.pk,
        "status": preview.batch.status,
        "format": preview.batch.dialect,
        "rows": preview.result.rows,
        "merged_rows": preview.result.merged_rows,
        "new_items": preview.new_items,
        "merged_items": preview.merged_items,
        "copies": preview.copies,
        "items": [
            {
                "printing": names.get(o.spec.printing_id, ""),
                "condition": o.spec.condition,
                "finish": o.spec.finish,
                "language": o.spec.language,
                "binder": o.spec.binder,
                "quantity": o.spec.quantity,
                "before": o.before,
                "after": o.after,
                "merged": o.merged,
            }
            for o in shown
        ],
    }


def _game(slug: str) -> Game | None:
    return Game.objects.filter(slug=slug).first() if slug else None


def _run_preview(job: CollectionJob) -> None:
    _progress(job, 10)
    params = job.params
    with transaction.atomic():
        preview = collection_import_preview(
            owner=job.owner,
            content=job.content,
            game=_game(params.get("game", "")),
            dialect_code=params.get("format", ""),
            file_name=params.get("file_name", ""),
        )
        if preview.batch is None:
            _finish(job, failed=True, problems=_problem_rows(preview.result.problems))
            return
        _finish(job, result=preview_body(preview), batch=preview.batch)


def _batch_result(batch: ImportBatch) -> dict[str, Any]:
    return {
        "id": batch.pk,
        "status": batch.status,
        "rows": batch.row_count,
        "copies": batch.copy_count,
    }


def _refused(job: CollectionJob, exc: Exception) -> None:
    if isinstance(exc, CollectionImportError):
        problems = _problem_rows(exc.problems)
    else:
        assert isinstance(exc, errors.CollectionError)
        problems = [{"line": 0, "column": exc.field, "message": str(exc.message)}]
    _finish(job, failed=True, problems=problems)


def _run_commit(job: CollectionJob) -> None:
    assert job.batch is not None
    _progress(job, 5)
    try:
        with transaction.atomic():
            # reading and checking the file again is about a third of a commit's time
            batch = collection_import_commit_batch(
                batch=job.batch, on_writing=lambda: _progress(job, 35)
            )
            _finish(job, result=_batch_result(batch))
    except (CollectionImportError, errors.CollectionError) as exc:
        _refused(job, exc)


def _run_undo(job: CollectionJob) -> None:
    assert job.batch is not None
    _progress(job, 10)
    try:
        with transaction.atomic():
            batch = collection_import_undo(batch=job.batch)
            _finish(job, result=_batch_result(batch))
    except errors.CollectionError as exc:
        _refused(job, exc)


def _run_export(job: CollectionJob) -> None:
    params = job.params
    dialect = dialect_or_none(params.get("format", "decklab"))
    assert dialect is not None  # checked when the job was submitted
    game = _game(params.get("game", ""))
    items = CollectionItem.objects.filter(owner=job.owner)
    if game is not None:
        # the set each item carries: a count of the game's items joins none to its printing
        items = items.filter(card_set__game=game)
    total = max(1, items.count())

    def moved(done: int) -> None:
        _progress(job, min(95, 5 + 90 * done // total))

    exported = collection_export(owner=job.owner, dialect=dialect, game=game, on_progress=moved)
    result = {
        "format": dialect.code,
        "game": game.slug if game else "",
        "rows": exported.rows,
        "warnings": [str(w) for w in exported.warnings],
    }
    _finish(job, result=result, content=exported.content)


RUNNERS = {
    Kind.PREVIEW: _run_preview,
    Kind.COMMIT: _run_commit,
    Kind.UNDO: _run_undo,
    Kind.EXPORT: _run_export,
}


def collection_job_run(*, job_id: int, worker: str = "") -> CollectionJob | None:
    """Run a job to its end. A finished job, or one a live worker holds, is left alone (a
    message delivered twice)."""
    tag = worker_tag(worker)
    if not _claim(job_id, tag):
        return CollectionJob.objects.filter(pk=job_id).first()
    job = CollectionJob.objects.select_related("owner", "batch").get(pk=job_id)
    with translation.override(job.language or settings.LANGUAGE_CODE), _lease_kept(job_id, tag):
        try:
            RUNNERS[Kind(job.kind)](job)
        except JobLost:
            logger.warning("collection job %s was taken over; this run's work rolled back", job_id)
        except Exception:
            # everything written rolled back; the job must end, not spin until the sweep
            logger.exception("collection job %s failed", job_id)
            with suppress(JobLost):
                _finish(job, failed=True, problems=[{"message": str(INTERNAL_ERROR)}])
    job.refresh_from_db()
    return job


# --- the sweep ---------------------------------------------------------------------------------


def collection_jobs_sweep(*, job_ids: list[int] | None = None) -> int:
    """Queue again the jobs whose lease lapsed, or fail them plainly (worker lost too often,
    or never run). Returns how many it touched."""
    now = timezone.now()
    lapsed = CollectionJob.objects.filter(status__in=ACTIVE, lease_until__lt=now)
    if job_ids is not None:
        lapsed = lapsed.filter(pk__in=job_ids)
    touched = 0
    for job in lapsed.only("pk", "status", "attempts", "lease_until", "created_at", "worker"):
        # conditional on what was read: a heartbeat or a claim in between wins
        same = CollectionJob.objects.filter(
            pk=job.pk, status=job.status, lease_until=job.lease_until
        )
        if job.attempts >= MAX_ATTEMPTS or now - job.created_at > GIVE_UP_AFTER:
            message = (
                WORKER_LOST % {"count": job.attempts} if job.attempts >= MAX_ATTEMPTS else NOT_RUN
            )
            if same.update(
                status=Status.FAILED,
                problems=[{"message": str(message)}],
                finished_at=now,
                lease_until=None,
            ):
                logger.error(
                    "collection job %s failed: %s attempts, last worker %s",
                    job.pk,
                    job.attempts,
                    job.worker,
                )
                touched += 1
            continue
        if same.update(status=Status.QUEUED, lease_until=now + QUEUE_LEASE, progress=0):
            logger.warning(
                "collection job %s: %s lost; queued again",
                job.pk,
                "worker" if job.status == Status.RUNNING else "message",
            )
            transaction.on_commit(partial(_send, job.pk))
            touched += 1
    if job_ids is None:
        # an export's file is kept a day, not forever (its job says it is gone)
        CollectionJob.objects.filter(kind=Kind.EXPORT, finished_at__lt=now - KEEP_EXPORTS).exclude(
            content=""
        ).update(content="")
    return touched


def collection_jobs_of(*, owner_id: int | None) -> Any:
    """A player's jobs without their text (a file of up to 16 MB, read by a page polled every
    second otherwise); ``has_file`` says whether an export's file is kept."""
    return (
        CollectionJob.objects.filter(owner_id=owner_id)
        .defer("content")
        .annotate(has_file=ExpressionWrapper(~Q(content=""), output_field=BooleanField()))
    )


def collection_job_supervise_on_read(job: CollectionJob) -> CollectionJob:
    """The sweep for one job as its page or the API reads it (no query when all is well), so
    recovery needs no beat process. Returns the job, re-read if the sweep changed it."""
    if job.is_finished or job.lease_until is None or job.lease_until >= timezone.now():
        return job
    if collection_jobs_sweep(job_ids=[job.pk]):
        return collection_jobs_of(owner_id=job.owner_id).get(pk=job.pk)
    return job
