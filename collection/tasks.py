"""Celery tasks of the collection: thin wrappers that take an id and call a service.

A job's task is safe to run twice (``collection/jobs.py`` claims a job with a conditional
update and writes its outcome with its work), so it is acknowledged only after it ran
(acks_late) and given back to the broker when its worker dies (reject_on_worker_lost). The
sweep does not count on either: a job whose worker or message is lost is queued again by it.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task

from collection.jobs import collection_job_run, collection_jobs_sweep


@shared_task(
    bind=True,
    name="collection.run_job",
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
)
def run_collection_job(self: Any, job_id: int) -> None:
    collection_job_run(job_id=job_id, worker=self.request.hostname or "")


@shared_task(name="collection.jobs_sweep", ignore_result=True, soft_time_limit=50, time_limit=60)
def collection_jobs_sweep_task() -> None:
    collection_jobs_sweep()
