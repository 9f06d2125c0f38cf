"""Catalog test helpers shared by the upload tests: a real in-process Celery worker."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from celery.contrib.testing.worker import start_worker

from catalog.models import CatalogImportJob
from decklab.celery import app as celery_app
from tests.celery_logs import CeleryLogs


@pytest.fixture
def running_worker(celery_logs: CeleryLogs) -> Iterator[None]:
    # The broker comes from CELERY_BROKER_URL (Redis in the test command). The worker logs in
    # this process: anything it logs at ERROR or above fails the test.
    with (
        celery_logs.capture(),
        start_worker(celery_app, perform_ping_check=False, shutdown_timeout=30),
    ):
        yield


def wait_until_finished(job_id: int, timeout: float = 30.0) -> CatalogImportJob:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = CatalogImportJob.objects.get(pk=job_id)
        if job.is_finished:
            return job
        time.sleep(0.1)
    pytest.fail(f"the worker did not finish job {job_id} within {timeout} s")
