"""Celery tasks of the simulator: thin wrappers that take ids and call a service.

A chunk's task is safe to run twice (the service stores a chunk once), so it is acknowledged
only after it ran (acks_late) and given back to the broker when its worker dies
(reject_on_worker_lost). The supervisor does not count on either: a chunk whose worker or
message is lost is queued again by its sweep (``simulator/supervisor.py``), which beat runs
every few seconds.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task

from simulator.services import TRANSIENT_DB_ERRORS, run_chunk_execute
from simulator.supervisor import runs_supervise

#: the queue of simulation work (chunks and the sweep), apart from catalog imports and other
#: long jobs on the default queue (settings.CELERY_TASK_ROUTES sends these here)
SIMULATION_QUEUE = "simulation"

# A chunk sized by cost takes about half a second; the largest a player may ask for (a million
# games) about 20 s on the slowest compiled engine and some 200 s on its Python path (5,000
# games a second); the limits only stop a runaway. The soft one raises inside the
# chunk, so the run is marked failed; the broker's visibility timeout must stay above both.
CHUNK_SOFT_TIME_LIMIT = 5 * 60
CHUNK_TIME_LIMIT = 6 * 60


@shared_task(
    bind=True,
    name="simulator.simulation_chunk",
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=CHUNK_SOFT_TIME_LIMIT,
    time_limit=CHUNK_TIME_LIMIT,
    autoretry_for=TRANSIENT_DB_ERRORS,
    retry_backoff=True,
    retry_backoff_max=60,
    retry_jitter=True,
    max_retries=5,
    ignore_result=True,
)
def simulation_chunk(self: Any, run_id: int, index: int) -> None:
    run_chunk_execute(run_id=run_id, index=index, worker=self.request.hostname or "")


#: The sweep takes well under a second; its own limits, both of them: a task given only a hard
#: limit keeps the global soft one (25 minutes), and Celery then refuses to send it
#: ("soft_time_limit must be less than or equal to time_limit"), so beat never ran the sweep.
SUPERVISE_SOFT_TIME_LIMIT = 50
SUPERVISE_TIME_LIMIT = 60


@shared_task(
    name="simulator.runs_supervise",
    ignore_result=True,
    soft_time_limit=SUPERVISE_SOFT_TIME_LIMIT,
    time_limit=SUPERVISE_TIME_LIMIT,
)
def simulation_supervise() -> None:
    runs_supervise()
