"""The supervisor of simulation runs: it feeds chunks to the broker a few at a time, and puts
back the chunks whose message or worker was lost. It asks nothing of the broker but to deliver
most messages once; the database says what is left to play.

- **Feeding.** A player has at most ``SIMULATION_CHUNKS_IN_FLIGHT`` chunks queued or running,
  of which at most ``SIMULATION_CHUNKS_QUEUED_AHEAD`` wait in the broker, shared round-robin
  between their active runs; the next chunk is queued as a worker claims one and as it stores
  one. The broker's queue therefore holds about one chunk per player, so a small run starts
  after a chunk or so of anyone else's, never after the whole of a big run, and a cancel
  leaves almost nothing to skip.
- **Leases.** A queued chunk must be claimed by a worker before ``QUEUE_LEASE`` (else its
  message counts as lost: a broker restarted without persistence, a killed embedded worker); a
  claimed chunk's worker renews ``RUN_LEASE`` every ``HEARTBEAT_SECONDS`` from a thread while
  it plays (else the worker counts as gone: SIGKILL, the OOM killer, a lost machine).
- **The sweep** (``runs_supervise``) puts chunks whose lease expired back to pending and feeds
  the players again. It runs from Celery beat every few seconds and, for one run, whenever the
  run's page or API reads it (``run_supervise_on_read``), so recovery needs neither beat nor
  the broker's visibility timeout. A chunk whose workers were lost ``MAX_ATTEMPTS`` times fails
  its run, plainly said, rather than killing workers forever.

A message delivered twice, late or after its chunk was put back costs one query: claiming is a
conditional UPDATE, and storing counts a chunk once (``services._chunk_store``).
"""

from __future__ import annotations

import logging
import os
import threading
from collections import defaultdict, deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import Count, F, Q
from django.utils import timezone

from simulator.models import (
    ACTIVE_STATUSES,
    IN_FLIGHT,
    ChunkStatus,
    RunChunk,
    RunFailure,
    RunStatus,
    SimulationRun,
)

logger = logging.getLogger(__name__)

#: a queued chunk not claimed by then has lost its message (a fed queue is a few chunks deep
#: per player, a few seconds of work, so a live message is claimed well before)
QUEUE_LEASE = timedelta(seconds=20)
#: a running chunk whose worker has not renewed its lease by then has lost its worker
RUN_LEASE = timedelta(seconds=15)
HEARTBEAT_SECONDS = 1.0
#: workers lost on one chunk before its run fails (a chunk that kills its worker, e.g. memory)
MAX_ATTEMPTS = 3
DEFAULT_CHUNKS_IN_FLIGHT = 8
DEFAULT_CHUNKS_QUEUED_AHEAD = 1


def chunks_in_flight() -> int:
    """Chunks a player may have queued or running at once: how many workers one player may
    keep busy."""
    return max(1, int(getattr(settings, "SIMULATION_CHUNKS_IN_FLIGHT", DEFAULT_CHUNKS_IN_FLIGHT)))


def chunks_queued_ahead() -> int:
    """Chunks of a player waiting in the broker's queue: one is enough to keep their workers
    fed (each worker queues the next as it claims one and as it stores one), and another
    player's chunk then waits behind one chunk per player, never behind a run."""
    value = getattr(settings, "SIMULATION_CHUNKS_QUEUED_AHEAD", DEFAULT_CHUNKS_QUEUED_AHEAD)
    return max(1, int(value))


def worker_tag(hostname: str) -> str:
    """Who plays a chunk: the node and the pool process (several share a node's hostname)."""
    return f"{hostname}/{os.getpid()}"


# --- stopping a run ----------------------------------------------------------------------------


def run_stop(*, run_id: int, status: str, failure: str = "", error: str = "") -> bool:
    """End an active run (cancelled or failed) and skip its unplayed chunks, so none stays
    "running" and a worker playing one stops at its next heartbeat. False if it had ended."""
    with transaction.atomic():
        stopped = SimulationRun.objects.filter(pk=run_id, status__in=ACTIVE_STATUSES).update(
            status=status, failure=failure, error=error[:2000], finished_at=timezone.now()
        )
        if stopped:
            RunChunk.objects.filter(run_id=run_id).exclude(status=ChunkStatus.DONE).update(
                status=ChunkStatus.SKIPPED, lease_until=None
            )
    return bool(stopped)


# --- feeding -----------------------------------------------------------------------------------

_eager = threading.local()


def _send(messages: list[tuple[int, int]]) -> None:
    # Imported here: the tasks module imports the services, which import this one.
    from simulator.tasks import simulation_chunk

    if simulation_chunk.app.conf.task_always_eager:  # the inline mode of a demo
        # A chunk played inline feeds the next one: queue it here rather than recursing once
        # per chunk.
        waiting: deque[tuple[int, int]] | None = getattr(_eager, "waiting", None)
        if waiting is not None:
            waiting.extend(messages)
            return
        _eager.waiting = waiting = deque(messages)
        try:
            while waiting:
                simulation_chunk.apply_async(waiting.popleft())
        finally:
            _eager.waiting = None
        return
    # One broker connection for all the messages rather than one per message.
    with simulation_chunk.app.producer_or_acquire() as producer:
        for run_id, index in messages:
            simulation_chunk.apply_async((run_id, index), producer=producer)


@contextmanager
def chunk_transaction() -> Iterator[None]:
    """A transaction for the bookkeeping of chunks whose commit, when it is not part of a
    bigger one, does not wait for the disk (PostgreSQL's ``synchronous_commit`` off for it
    alone). A claim, a feed or a stored chunk lost in a database crash leaves its chunk with a
    lease that lapses, and the sweep plays it again, with the same result; the flushes saved
    are a few ms of a chunk's 15-20 ms of bookkeeping (bench/chunk_overhead.py). Inside a bigger
    transaction (a run being created, a cancel) the caller's durability is kept."""
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL synchronous_commit TO OFF")
        yield


def _pick(owner_id: int, now: datetime) -> list[tuple[int, int]]:
    """Mark the player's next chunks queued, round-robin over their runs."""
    with chunk_transaction():
        # The player's row lock serialises their feeds, so two stores cannot both fill a slot.
        get_user_model().objects.select_for_update().filter(pk=owner_id).first()
        runs = list(
            SimulationRun.objects.filter(owner_id=owner_id, status__in=ACTIVE_STATUSES)
            .order_by("created_at", "pk")
            .values_list("pk", flat=True)
        )
        if not runs:
            return []
        flying: dict[int, int] = defaultdict(int)
        queued = 0
        for run_id, status, count in (
            RunChunk.objects.filter(run_id__in=runs, status__in=IN_FLIGHT)
            .values_list("run_id", "status")
            .annotate(n=Count("pk"))
        ):
            flying[run_id] += count
            queued += count if status == ChunkStatus.QUEUED else 0
        slots = min(chunks_in_flight() - sum(flying.values()), chunks_queued_ahead() - queued)
        if slots <= 0:
            return []
        # the run with the fewest chunks out goes first, so a new run starts at once
        runs.sort(key=lambda run_id: flying.get(run_id, 0))
        waiting = {
            run_id: deque(
                RunChunk.objects.filter(run_id=run_id, status=ChunkStatus.PENDING)
                .order_by("index")
                .values_list("pk", "index")[:slots]
            )
            for run_id in runs
        }
        picked: list[tuple[int, int, int]] = []
        while len(picked) < slots and any(waiting.values()):
            for run_id in runs:
                if waiting[run_id] and len(picked) < slots:
                    pk, index = waiting[run_id].popleft()
                    picked.append((pk, run_id, index))
        RunChunk.objects.filter(pk__in=[pk for pk, _r, _i in picked]).update(
            status=ChunkStatus.QUEUED, lease_until=now + QUEUE_LEASE
        )
        return [(run_id, index) for _pk, run_id, index in picked]


def owner_feed(*, owner_id: int, on_refused: Callable[[], None] | None = None) -> None:
    """Queue the player's next chunks, if they have free slots, once the caller commits. If
    the broker refuses them it is logged (and ``on_refused`` called): their leases expire and
    a later sweep queues them again."""
    messages = _pick(owner_id, timezone.now())
    if not messages:
        return

    def send() -> None:
        try:
            _send(messages)
        except Exception:
            logger.exception("could not queue %s simulation chunks", len(messages))
            if on_refused is not None:
                on_refused()

    # After the caller's commit: a worker must find the chunks it is sent.
    transaction.on_commit(send)


def run_feed_first(*, run_id: int, owner_id: int) -> None:
    """Queue a new run's first chunks (called once it is committed). If the broker cannot be
    reached the run fails at once with a plain message; the detail goes to the log only, as
    it names the broker's address."""

    def refused() -> None:
        run_stop(
            run_id=run_id,
            status=RunStatus.FAILED,
            failure=RunFailure.NOT_QUEUED,
            error="the broker refused the run's first chunks (see the log)",
        )

    owner_feed(owner_id=owner_id, on_refused=refused)


# --- the sweep ---------------------------------------------------------------------------------


def _recover(run_id: int, chunks: list[dict[str, Any]], now: datetime) -> None:
    with transaction.atomic():
        run = SimulationRun.objects.select_for_update().only("status").filter(pk=run_id).first()
        if run is None or run.is_finished:
            return
        lost = [c for c in chunks if c["status"] == ChunkStatus.RUNNING]
        exhausted = [c for c in lost if c["attempts"] >= MAX_ATTEMPTS]
        if exhausted:
            chunk = exhausted[0]
            logger.error(
                "simulation run %s: chunk %s lost its worker %s times (last %s); failing",
                run_id,
                chunk["index"],
                chunk["attempts"],
                chunk["worker"],
            )
            run_stop(
                run_id=run_id,
                status=RunStatus.FAILED,
                failure=RunFailure.WORKER_LOST,
                error=f"chunk {chunk['index']}: worker lost {chunk['attempts']} times "
                f"(last: {chunk['worker']})",
            )
            return
        RunChunk.objects.filter(
            pk__in=[c["pk"] for c in chunks], status__in=IN_FLIGHT, lease_until__lt=now
        ).update(status=ChunkStatus.PENDING, lease_until=None)
        if lost:
            SimulationRun.objects.filter(pk=run_id).update(
                recoveries=F("recoveries") + 1, recovered_at=now
            )
            logger.warning(
                "simulation run %s: worker lost on chunks %s; queued again",
                run_id,
                [c["index"] for c in lost],
            )
        else:
            logger.warning(
                "simulation run %s: messages of chunks %s lost; queued again",
                run_id,
                [c["index"] for c in chunks],
            )


def runs_supervise(*, run_ids: list[int] | None = None) -> int:
    """Put back the chunks whose lease expired and feed every player with an active run (or
    only those of ``run_ids``). Returns how many chunks were put back."""
    now = timezone.now()
    expired = RunChunk.objects.filter(
        status__in=IN_FLIGHT, lease_until__lt=now, run__status__in=ACTIVE_STATUSES
    )
    active = SimulationRun.objects.filter(status__in=ACTIVE_STATUSES)
    if run_ids is not None:
        expired = expired.filter(run_id__in=run_ids)
        active = active.filter(pk__in=run_ids)
    by_run: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for chunk in expired.values("pk", "run_id", "index", "status", "attempts", "worker"):
        by_run[chunk["run_id"]].append(dict(chunk))
    for run_id, chunks in by_run.items():
        _recover(run_id, chunks, now)
    for owner_id in set(active.values_list("owner_id", flat=True)):
        owner_feed(owner_id=owner_id)
    return sum(len(chunks) for chunks in by_run.values())


def run_supervise_on_read(run: SimulationRun) -> SimulationRun:
    """The sweep for one run as its page or the API reads it (one query when all is well):
    recovery then needs no beat process. Returns the run, re-read if the sweep changed it."""
    if run.is_finished:
        return run
    now = timezone.now()
    counts = RunChunk.objects.filter(run=run).aggregate(
        expired=Count("pk", filter=Q(status__in=IN_FLIGHT, lease_until__lt=now)),
        flying=Count("pk", filter=Q(status__in=IN_FLIGHT)),
        pending=Count("pk", filter=Q(status=ChunkStatus.PENDING)),
    )
    if counts["expired"] or (counts["pending"] and not counts["flying"]):
        runs_supervise(run_ids=[run.pk])
        run.refresh_from_db()
    return run


def run_supervise_after_store(*, run_id: int) -> bool:
    """After a worker stores a chunk: sweep the run if one of its leases expired (one query
    otherwise). True if it swept, which fed the player too."""
    expired = RunChunk.objects.filter(
        run_id=run_id, status__in=IN_FLIGHT, lease_until__lt=timezone.now()
    ).exists()
    if expired:
        runs_supervise(run_ids=[run_id])
    return expired


# --- the worker's side -------------------------------------------------------------------------


class ChunkAbandoned(Exception):
    """The chunk is no longer this worker's: its run ended, or the sweep gave it away."""


def chunk_claim(*, chunk_id: int, run_id: int, worker: str) -> bool:
    """Take the chunk unless a live worker has it or it is finished (a conditional UPDATE, so
    of two deliveries one plays). The commit does not wait for the disk: a claim lost in a
    database crash only means the chunk is queued again."""
    now = timezone.now()
    with chunk_transaction():
        claimed = (
            RunChunk.objects.filter(pk=chunk_id)
            .filter(
                Q(status__in=(ChunkStatus.PENDING, ChunkStatus.QUEUED))
                | Q(status=ChunkStatus.RUNNING, lease_until__lt=now)
            )
            .update(
                status=ChunkStatus.RUNNING,
                worker=worker,
                attempts=F("attempts") + 1,
                lease_until=now + RUN_LEASE,
            )
        )
        if claimed:
            SimulationRun.objects.filter(pk=run_id, status=RunStatus.QUEUED).update(
                status=RunStatus.RUNNING, started_at=now
            )
    return bool(claimed)


class _Heartbeat(threading.Thread):
    """Renews the chunk's lease while the engine plays; notices a cancel or a takeover."""

    def __init__(self, chunk_id: int, worker: str) -> None:
        super().__init__(name=f"lease-{chunk_id}", daemon=True)
        self.chunk_id = chunk_id
        self.worker = worker
        self.finished = threading.Event()
        self.lost = False

    def run(self) -> None:
        try:
            while not self.finished.wait(HEARTBEAT_SECONDS):
                renewed = RunChunk.objects.filter(
                    pk=self.chunk_id,
                    status=ChunkStatus.RUNNING,
                    worker=self.worker,
                    run__status__in=ACTIVE_STATUSES,
                ).update(lease_until=timezone.now() + RUN_LEASE)
                if not renewed:
                    self.lost = True
                    return
        except Exception:
            # A database hiccup: the lease may lapse and the chunk be played twice, which
            # costs time but never changes the results.
            logger.exception("could not renew the lease of simulation chunk %s", self.chunk_id)
        finally:
            connection.close()  # this thread's own connection

    def check(self, _played: int) -> None:
        """Called by the engine loop every thousand games."""
        if self.lost:
            raise ChunkAbandoned


@contextmanager
def lease_kept(*, chunk_id: int, worker: str) -> Iterator[_Heartbeat]:
    beat = _Heartbeat(chunk_id, worker)
    beat.start()
    try:
        yield beat
    finally:
        beat.finished.set()
        beat.join()
