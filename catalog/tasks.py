"""Celery tasks of the catalog: thin wrappers that take an id and call a service."""

from __future__ import annotations

from celery import shared_task

from catalog.importers.jobs import catalog_import_job_run


@shared_task(name="catalog.run_catalog_import_job")
def run_catalog_import_job(job_id: int) -> None:
    catalog_import_job_run(job_id=job_id)
