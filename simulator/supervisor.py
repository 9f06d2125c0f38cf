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

A message delivered twice, late or after its chunk was put back costs a query or three:
claiming is a conditional UPDATE (and a worker that kept the run reads it once more to be
sure), and storing counts a chunk once (``services._chunk_store``).
"""

from __future__ import annotations

import logging
import os
import threading
from collections import defaultdict, deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import Count, Exists, F, Q
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
            # a round of a deck tuning ends its tuning with it (one UPDATE, by the runs' key)
            from simulator.tuning.services import tuning_stopped

            tuning_stopped(run_id=run_id, status=status, failure=failure, error=error)
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


@dataclass
class _Load:
    """A player's chunks out and waiting, by run (their active runs with such chunks)."""

    flying: dict[int, int] = field(default_factory=dict)
    pending: dict[int, int] = field(default_factory=dict)
    queued: int = 0
    #: runs with a chunk out whose lease has expired (the sweep's business)
    expired: set[int] = field(default_factory=set)

    def slots(self) -> int:
        """How many more chunks the player may have queued now."""
        out = sum(self.flying.values())
        return min(chunks_in_flight() - out, chunks_queued_ahead() - self.queued)

    def shares(self, slots: int) -> dict[int, int]:
        """``slots`` chunks dealt round-robin, the run with the fewest chunks out first (so a
        new run starts at once), as far as each run has chunks pending."""
        order = sorted(self.pending, key=lambda run_id: (self.flying.get(run_id, 0), run_id))
        taken = dict.fromkeys(order, 0)
        while slots > 0 and any(taken[r] < self.pending[r] for r in order):
            for run_id in order:
                if slots > 0 and taken[run_id] < self.pending[run_id]:
                    taken[run_id] += 1
                    slots -= 1
        return {run_id: n for run_id, n in taken.items() if n}


def _load(owner_id: int, now: datetime) -> _Load:
    """One query: the player's pending, queued and running chunks, counted by run."""
    load = _Load()
    rows = (
        RunChunk.objects.filter(
            run__owner_id=owner_id,
            run__status__in=ACTIVE_STATUSES,
            status__in=(ChunkStatus.PENDING, *IN_FLIGHT),
        )
        .order_by()
        .values_list("run_id", "status")
        .annotate(n=Count("pk"), expired=Count("pk", filter=Q(lease_until__lt=now)))
    )
    for run_id, status, count, expired in rows:
        if status == ChunkStatus.PENDING:
            load.pending[run_id] = count
            continue
        load.flying[run_id] = load.flying.get(run_id, 0) + count
        load.queued += count if status == ChunkStatus.QUEUED else 0
        if expired:
            load.expired.add(run_id)
    return load


def _feed(
    owner_id: int,
    now: datetime,
    *,
    look_first: bool,
    on_refused: Callable[[], None] | None = None,
) -> _Load:
    """Mark the player's next chunks queued, inside the caller's transaction, and send them
    once it commits (``_send_on_commit``). Returns what it counted (its runs with expired
    leases are for the caller's sweep).

    ``look_first``: count without the lock first and stop there when the player has no free
    slot or nothing pending, as after most stores. That look cannot miss a slot: whoever frees
    one (a claim, a store, the sweep) feeds after its own change in the same transaction, and
    the last of them to take the lock sees every change committed before it."""
    if look_first:
        seen = _load(owner_id, now)
        if seen.slots() <= 0 or not seen.pending:
            return seen
    # The player's row lock serialises their feeds, so two of them cannot both fill a slot.
    get_user_model().objects.select_for_update().filter(pk=owner_id).first()
    load = _load(owner_id, now)
    slots = load.slots()
    if slots <= 0 or not load.pending:
        return load
    picked = [
        (pk, run_id, index)
        for run_id, count in load.shares(slots).items()
        for pk, index in RunChunk.objects.filter(run_id=run_id, status=ChunkStatus.PENDING)
        .order_by("index")
        .values_list("pk", "index")[:count]
    ]
    if picked:
        RunChunk.objects.filter(pk__in=[pk for pk, _r, _i in picked]).update(
            status=ChunkStatus.QUEUED, lease_until=now + QUEUE_LEASE
        )
        _send_on_commit([(run_id, index) for _pk, run_id, index in picked], on_refused)
    return load


def _send_on_commit(
    messages: list[tuple[int, int]], on_refused: Callable[[], None] | None = None
) -> None:
    """Send the messages once the caller commits (a worker must find the chunks it is sent).
    If the broker refuses them it is logged (and ``on_refused`` called): their leases expire
    and a later sweep queues them again."""

    def send() -> None:
        try:
            _send(messages)
        except Exception:
            logger.exception("could not queue %s simulation chunks", len(messages))
            if on_refused is not None:
                on_refused()

    transaction.on_commit(send)


def owner_feed(*, owner_id: int, on_refused: Callable[[], None] | None = None) -> None:
    """Queue the player's next chunks, if they have free slots, once the caller commits."""
    with chunk_transaction():
        _feed(owner_id, timezone.now(), look_first=False, on_refused=on_refused)


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


# --- the worker's side -------------------------------------------------------------------------


class ChunkAbandoned(Exception):
    """The chunk is no longer this worker's: its run ended, or the sweep gave it away."""


def chunk_claim(
    *, run_id: int, public_id: str, index: int, worker: str, owner_id: int, start_run: bool
) -> bool:
    """Take the chunk unless a live worker has it, it is finished or its run has ended (one
    conditional UPDATE, so of two deliveries one plays), and fill the place in the player's
    queue the claim emptied, in the same transaction. ``public_id`` is the run the worker
    means (an id rolled back and given again is another run). ``start_run``: the run may still
    be queued, so mark it running (a worker asks once per run; its row is locked first, in the
    order a cancel locks). The commit does not wait for the disk: a claim lost in a database
    crash only means the chunk is queued again."""
    now = timezone.now()
    with chunk_transaction():
        if start_run:
            SimulationRun.objects.filter(pk=run_id, status=RunStatus.QUEUED).update(
                status=RunStatus.RUNNING, started_at=now
            )
        claimed = (
            RunChunk.objects.filter(run_id=run_id, index=index)
            .filter(
                Q(status__in=(ChunkStatus.PENDING, ChunkStatus.QUEUED))
                | Q(status=ChunkStatus.RUNNING, lease_until__lt=now)
            )
            .filter(
                Exists(
                    SimulationRun.objects.filter(
                        pk=run_id, public_id=public_id, status__in=ACTIVE_STATUSES
                    )
                )
            )
            .update(
                status=ChunkStatus.RUNNING,
                worker=worker,
                attempts=F("attempts") + 1,
                lease_until=now + RUN_LEASE,
            )
        )
        if claimed:
            _feed(owner_id, now, look_first=False)
    return bool(claimed)


def feed_after_store(*, owner_id: int) -> set[int]:
    """In the transaction that stores a chunk: queue the player's next chunk if the store
    freed a slot (one query when it did not). Returns the player's runs with an expired
    lease, which the caller sweeps once it has committed."""
    return _feed(owner_id, timezone.now(), look_first=True).expired


class _Heartbeat(threading.Thread):
    """Renews the chunk's lease while the engine plays; notices a cancel or a takeover."""

    def __init__(self, run_id: int, index: int, worker: str) -> None:
        super().__init__(name=f"lease-{run_id}-{index}", daemon=True)
        self.run_id = run_id
        self.index = index
        self.worker = worker
        self.finished = threading.Event()
        self.lost = False

    def run(self) -> None:
        try:
            while not self.finished.wait(HEARTBEAT_SECONDS):
                renewed = RunChunk.objects.filter(
                    run_id=self.run_id,
                    index=self.index,
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
            logger.exception(
                "could not renew the lease of simulation chunk %s#%s", self.run_id, self.index
            )
        finally:
            connection.close()  # this thread's own connection

    def check(self, _played: int) -> None:
        """Called by the engine loop every thousand games."""
        if self.lost:
            raise ChunkAbandoned


@contextmanager
def lease_kept(*, run_id: int, index: int, worker: str) -> Iterator[_Heartbeat]:
    beat = _Heartbeat(run_id, index, worker)
    beat.start()
    try:
        yield beat
    finally:
        beat.finished.set()
        beat.join()
