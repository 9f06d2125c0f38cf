"""Staff uploads as jobs: submit a file, then run its import stage by stage with progress.

The import itself is ``import_bundles`` (all-or-nothing, in one transaction). Progress is
written with queryset updates *outside* that transaction, so each stage is committed at once
and the status page sees it while the worker is still busy; a failed import rolls back the
catalog but the job row keeps the outcome and every problem.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from catalog.importers.bundle import CatalogImportError, ImportProblem
from catalog.importers.service import bundles_from_text, import_bundles
from catalog.importers.validate import validate_bundle
from catalog.models import CatalogImportJob

logger = logging.getLogger(__name__)

Stage = CatalogImportJob.Stage
Status = CatalogImportJob.Status

#: how far the bar has moved when each stage starts
STAGE_PROGRESS = {
    Stage.QUEUED: 0,
    Stage.PARSING: 10,
    Stage.VALIDATING: 35,
    Stage.WRITING: 70,
    Stage.DONE: 100,
}

TOO_BIG = _("The file is larger than the catalog import limit.")
INTERNAL_ERROR = _("The import stopped on an internal error; nothing was written.")


def catalog_import_job_submit(
    *,
    user: AbstractBaseUser | AnonymousUser,
    file_name: str,
    content: str,
    game: str = "",
    language: str = "",
) -> CatalogImportJob:
    """Store the upload as a queued job and hand it to a worker once the row is committed.

    ``language`` (the uploader's, e.g. "ja") is the one the worker reports problems in; by
    default the site's.
    """
    job = CatalogImportJob.objects.create(
        uploaded_by=user if isinstance(user, User) else None,
        file_name=file_name,
        content=content,
        game=game,
        language=language or settings.LANGUAGE_CODE,
    )
    # Imported here: catalog.tasks imports this module for the worker side.
    from catalog.tasks import run_catalog_import_job

    # After commit, or a fast worker could look for a job row that is not there yet.
    transaction.on_commit(lambda: run_catalog_import_job.delay(job.pk))
    return job


def _advance(job: CatalogImportJob, **fields: Any) -> None:
    """Record a step of the job; an update() outside the import transaction commits at once."""
    for name, value in fields.items():
        setattr(job, name, value)
    CatalogImportJob.objects.filter(pk=job.pk).update(**fields)


def _stage(job: CatalogImportJob, stage: Stage) -> None:
    _advance(job, stage=stage, progress=STAGE_PROGRESS[stage])


def _file_order(problem: ImportProblem) -> tuple[str, int]:
    """'cards.csv:12' -> ('cards.csv', 12); a JSON path keeps its place (line 0), stably."""
    name, _colon, line = problem.where.rpartition(":")
    return (name, int(line)) if line.isdigit() else (problem.where.split(":")[0], 0)


def _finish(
    job: CatalogImportJob, *, problems: list[ImportProblem] | None = None, summary: str = ""
) -> None:
    # The parser's problems come before the validator's; staff read them in file order.
    problems = sorted(problems or [], key=_file_order)
    _advance(
        job,
        status=Status.FAILED if problems else Status.SUCCEEDED,
        stage=Stage.DONE,
        progress=100,
        summary=summary,
        problems=[{"where": p.where, "message": p.message} for p in problems],
        finished_at=timezone.now(),
    )


def _too_big(content: str) -> bool:
    return len(content.encode("utf-8")) > settings.CATALOG_UPLOAD_MAX_BYTES


def _import(job: CatalogImportJob) -> None:
    _stage(job, Stage.PARSING)
    if _too_big(job.content):
        _finish(job, problems=[ImportProblem(job.file_name, str(TOO_BIG))])
        return
    bundles = bundles_from_text(job.content, name=job.file_name, game=job.game or None)

    _stage(job, Stage.VALIDATING)
    # One file is one bundle: checking it before the write transaction lets the page show
    # "validating" and "writing" as separate steps. import_bundles checks again inside its
    # transaction, so a catalog changed in between is still caught.
    if len(bundles) == 1:
        problems = validate_bundle(bundles[0])
        if problems:
            _finish(job, problems=problems)
            return

    _stage(job, Stage.WRITING)
    try:
        report = import_bundles(bundles)
    except CatalogImportError as exc:
        _finish(job, problems=exc.problems)
        return
    _finish(job, summary=report.summary())


def catalog_import_job_run(*, job_id: int) -> CatalogImportJob | None:
    """Run a queued job to its end. A finished job is left alone (a redelivered message)."""
    job = CatalogImportJob.objects.filter(pk=job_id).first()
    if job is None:
        logger.warning("Catalog import job %s no longer exists", job_id)
        return None
    if job.is_finished:
        return job
    # A job already "running" was cut off (worker lost); the import is all-or-nothing and
    # idempotent, so running it again from the start is safe.
    _advance(job, status=Status.RUNNING, started_at=timezone.now())
    # Problems are rendered once, as they are found: in the uploader's language.
    with translation.override(job.language or settings.LANGUAGE_CODE):
        try:
            _import(job)
        except Exception:
            # The catalog transaction has rolled back; the job must still end, not spin forever.
            logger.exception("Catalog import job %s failed", job_id)
            _finish(job, problems=[ImportProblem(job.file_name, str(INTERNAL_ERROR))])
    return job
