"""The supervisor without a broker: how chunks are fed (a few per player, round-robin between
their runs), what its sweep does with expired leases (queue again and say so; fail plainly
after three lost workers), a run the broker refused, and a cancel that stops a worker
mid-chunk. The messages it would send are recorded instead."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.db import OperationalError, connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from simulator import supervisor
from simulator.cost import MAX_CHUNKS, Estimate, chunk_size_for
from simulator.engine.engine import BATCH
from simulator.models import (
    MIN_CHUNK_SIZE,
    ChunkStatus,
    RunChunk,
    RunFailure,
    RunStatus,
    SimulationRun,
)
from simulator.services import (
    RUN_TOO_DEAR,
    RunError,
    run_cancel,
    run_chunk_execute,
    run_create,
)
from simulator.supervisor import MAX_ATTEMPTS, run_supervise_on_read, runs_supervise
from tests.simulator.fake_games._builders import WITH_FAKE_GAMES, countdown_deck, unmatched_deck

Sent = list[tuple[int, int]]


@pytest.fixture(autouse=True)
def fake_games() -> Iterator[None]:
    with WITH_FAKE_GAMES:
        yield


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Sent:
    """The (run, chunk) messages the supervisor sends, in order."""
    settings.SIMULATION_CHUNKS_IN_FLIGHT = 4
    settings.SIMULATION_CHUNKS_QUEUED_AHEAD = 1
    messages: Sent = []
    monkeypatch.setattr(supervisor, "_send", messages.extend)
    return messages


@pytest.fixture
def committed(
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> Callable[[Callable[[], Any]], Any]:
    """Run ``action`` and then what it left for after its commit (the feeding)."""

    def run(action: Callable[[], Any]) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return action()

    return run


def new_run(owner: Any, games: int = 1_000) -> SimulationRun:
    return run_create(
        owner=owner,
        deck=countdown_deck(owner),
        engine_slug="countdown",
        params={},
        games=games,
        seed=3,
        chunk_size=100,
    )


def chunk(run: SimulationRun, index: int) -> RunChunk:
    return RunChunk.objects.get(run=run, index=index)


def expire(run: SimulationRun, index: int, status: str, attempts: int = 1) -> None:
    RunChunk.objects.filter(run=run, index=index).update(
        status=status,
        attempts=attempts,
        worker="gone@node/1",
        lease_until=timezone.now() - timedelta(seconds=1),
    )


pytestmark = pytest.mark.django_db


def test_each_player_has_one_chunk_waiting_and_their_runs_take_turns(
    owner: Any, stranger: Any, sent: Sent, committed: Callable[..., Any]
) -> None:
    big = committed(lambda: new_run(owner))
    assert sent == [(big.pk, 0)]

    small = committed(lambda: new_run(owner, games=200))
    assert sent == [(big.pk, 0)]  # the player already has a chunk waiting

    committed(lambda: run_chunk_execute(run_id=big.pk, index=0, worker="w"))
    # claiming big #0 freed the player's place in the queue: the run with no chunk out gets it
    assert sent[1:] == [(small.pk, 0)]

    other = committed(lambda: new_run(stranger))
    # another player's run waits behind one chunk per player, whatever this one has going
    assert sent[2:] == [(other.pk, 0)]
    assert chunk(small, 1).status == ChunkStatus.PENDING


def test_a_player_never_has_more_chunks_out_than_their_share_of_the_workers(
    owner: Any, sent: Sent, committed: Callable[..., Any]
) -> None:
    run = committed(lambda: new_run(owner))
    RunChunk.objects.filter(run=run, index__in=[0, 1, 2]).update(
        status=ChunkStatus.RUNNING, lease_until=timezone.now() + timedelta(seconds=10)
    )
    committed(lambda: runs_supervise())
    assert sent == [(run.pk, 0), (run.pk, 3)]  # three running, one waiting: four out

    RunChunk.objects.filter(run=run, index=3).update(status=ChunkStatus.RUNNING)
    committed(lambda: runs_supervise())
    assert sent == [(run.pk, 0), (run.pk, 3)]  # four running: the player's share is full


def test_a_chunk_whose_worker_is_gone_is_queued_again_and_the_page_says_so(
    owner: Any, owner_client: Client, sent: Sent, committed: Callable[..., Any]
) -> None:
    run = committed(lambda: new_run(owner))
    expire(run, 0, ChunkStatus.RUNNING)
    sent.clear()

    committed(lambda: run_supervise_on_read(run))

    assert chunk(run, 0).status == ChunkStatus.QUEUED
    assert sent == [(run.pk, 0)]
    run.refresh_from_db()
    assert (run.status, run.recoveries) == (RunStatus.QUEUED, 1)
    html = owner_client.get(run.get_absolute_url()).content.decode()
    assert 'id="run-recovered"' in html and "A worker was lost; resuming." in html


def test_a_queued_chunk_whose_message_was_lost_is_queued_again_quietly(
    owner: Any, sent: Sent, committed: Callable[..., Any]
) -> None:
    run = committed(lambda: new_run(owner))
    expire(run, 0, ChunkStatus.QUEUED, attempts=0)
    sent.clear()

    assert committed(lambda: runs_supervise()) == 1

    assert sent == [(run.pk, 0)]
    run.refresh_from_db()
    assert (run.recoveries, run.recovered_at) == (0, None)


def test_leases_not_yet_expired_are_left_alone(
    owner: Any, sent: Sent, committed: Callable[..., Any]
) -> None:
    run = committed(lambda: new_run(owner))
    RunChunk.objects.filter(run=run, index=1).update(
        status=ChunkStatus.RUNNING, lease_until=timezone.now() + timedelta(seconds=5)
    )
    sent.clear()

    assert committed(lambda: runs_supervise()) == 0
    assert sent == []
    assert chunk(run, 1).status == ChunkStatus.RUNNING


def test_a_chunk_that_lost_its_worker_three_times_fails_the_run_plainly_with_a_retry(
    owner: Any, owner_client: Client, sent: Sent, committed: Callable[..., Any]
) -> None:
    run = committed(lambda: new_run(owner))
    expire(run, 1, ChunkStatus.RUNNING, attempts=MAX_ATTEMPTS - 1)
    committed(lambda: runs_supervise())
    assert SimulationRun.objects.get(pk=run.pk).status == RunStatus.QUEUED

    expire(run, 1, ChunkStatus.RUNNING, attempts=MAX_ATTEMPTS)
    committed(lambda: runs_supervise())

    run.refresh_from_db()
    assert (run.status, run.failure) == (RunStatus.FAILED, RunFailure.WORKER_LOST)
    assert set(RunChunk.objects.filter(run=run).values_list("status", flat=True)) == {
        ChunkStatus.SKIPPED
    }
    html = owner_client.get(run.get_absolute_url()).content.decode()
    assert "A worker stopped while playing part of this run, again and again." in html
    assert 'id="run-retry"' in html


def test_a_run_the_broker_refused_says_so_plainly_and_never_shows_its_address(
    owner: Any, owner_client: Client, monkeypatch: pytest.MonkeyPatch, committed: Any
) -> None:
    def refuse(messages: Sent) -> None:
        raise OperationalError("Error 111 connecting to redis://:hunter2@broker.internal:6379")

    monkeypatch.setattr(supervisor, "_send", refuse)
    run = committed(lambda: new_run(owner))

    run.refresh_from_db()
    assert (run.status, run.failure) == (RunStatus.FAILED, RunFailure.NOT_QUEUED)
    html = owner_client.get(run.get_absolute_url()).content.decode()
    assert "The simulation could not be queued." in html and 'id="run-retry"' in html
    assert "broker.internal" not in html and "hunter2" not in html
    api = owner_client.get(reverse("simulator-api:run-detail", args=[run.public_id]))
    assert "broker.internal" not in api.content.decode()


#: how long a test waits for the heartbeat thread to do what it must (a bound on a hang, not a
#: speed to meet: the waits end as soon as it has)
HEARTBEAT_PATIENCE = 30.0


def wait_until(condition: Callable[[], bool]) -> bool:
    deadline = time.monotonic() + HEARTBEAT_PATIENCE
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


@pytest.mark.django_db(transaction=True)
def test_a_cancel_stops_a_worker_in_the_middle_of_its_chunk(
    owner: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(supervisor, "_send", lambda messages: None)
    monkeypatch.setattr(supervisor, "HEARTBEAT_SECONDS", 0.05)
    run = run_create(
        owner=owner,
        deck=unmatched_deck(owner),
        engine_slug="unmatched",
        params={},
        games=100_000,
        seed=5,
        chunk_size=100_000,
    )
    # The engine reports its progress every thousand games (the lease's check). The first
    # report waits for the cancel and for the heartbeat's next turn, so the order is fixed
    # whatever the machine's speed: a thousand games in, cancelled, noticed, stopped.
    checks: list[int] = []
    noticed: list[bool] = []
    mid_chunk, cancelled = threading.Event(), threading.Event()
    original_check = supervisor._Heartbeat.check

    def check(beat: Any, played: int) -> None:
        checks.append(played)
        if len(checks) == 1:
            mid_chunk.set()
            cancelled.wait(HEARTBEAT_PATIENCE)
            noticed.append(wait_until(lambda: beat.lost))
        original_check(beat, played)

    monkeypatch.setattr(supervisor._Heartbeat, "check", check)
    outcome: list[bool] = []

    def play() -> None:
        try:
            outcome.append(run_chunk_execute(run_id=run.pk, index=0, worker="w"))
        finally:
            connection.close()

    worker = threading.Thread(target=play)
    worker.start()
    assert mid_chunk.wait(HEARTBEAT_PATIENCE), "the worker never reported progress"
    assert chunk(run, 0).status == ChunkStatus.RUNNING
    assert run_cancel(run=run)
    cancelled.set()
    worker.join()

    # the heartbeat saw the cancel, and the very next check stopped the chunk: one thousand
    # of its 100,000 games played, nothing stored, the chunk skipped rather than running
    assert noticed == [True]
    assert checks == [BATCH]
    assert outcome == [False]
    stopped = chunk(run, 0)
    assert (stopped.status, stopped.metrics) == (ChunkStatus.SKIPPED, None)
    run.refresh_from_db()
    assert (run.status, run.chunks_done, run.results) == (RunStatus.CANCELLED, 0, None)


def test_a_run_is_bounded_by_its_estimated_worker_time_measured_on_earlier_runs(
    owner: Any, sent: Sent
) -> None:
    earlier = new_run(owner, games=10_000)
    # measured here: 10,000 games in 10 s of worker time, so 1,000 games a second
    SimulationRun.objects.filter(pk=earlier.pk).update(
        status=RunStatus.SUCCEEDED, worker_seconds=10.0, finished_at=timezone.now()
    )
    deck = countdown_deck(owner)
    values = {"deck": deck, "engine_slug": "countdown", "params": {}, "seed": 1}

    with pytest.raises(RunError) as refused:
        run_create(owner=owner, games=600_001, **values)
    assert refused.value.errors == {
        "games": [
            RUN_TOO_DEAR % {"minutes": "10", "max": "10", "games": "600,000"},
        ]
    }
    within = run_create(owner=owner, games=600_000, **values)
    assert within.estimated_seconds == pytest.approx(600.0)


@pytest.mark.parametrize(
    ("seconds_for_10_000", "games", "chunk_size"),
    [
        # 8 chunks (a player's chunks in flight), or a multiple of 8 of at most 0.5 s each
        (0.1, 100_000, 12_500),  # 100,000 games/s: 1 s in 8 chunks
        (0.4, 100_000, 12_500),  # 25,000 games/s: 4 s, 8 chunks of 0.5 s
        (0.4, 1_000_000, 12_500),  # 40 s: 80 chunks of 0.5 s
        (0.1, 1_000_000, 41_667),  # 10 s: 24 chunks of 0.42 s
        (10.0, 100_000, 500),  # 1,000 games/s: 100 s in 200 chunks
        (0.01, 1_000_000, 125_000),  # 1,000,000 games/s: 1 s in 8 chunks
        # too short for 8 chunks of 0.1 s: fewer chunks, a power of two
        (0.1, 10_000, 10_000),  # 0.1 s: one chunk
        (0.1, 50_000, 12_500),  # 0.5 s: four chunks of 0.125 s (five would not halve)
    ],
)
def test_chunks_are_sized_by_the_engines_measured_speed_and_spread_over_the_workers(
    owner: Any,
    sent: Sent,
    settings: Any,
    seconds_for_10_000: float,
    games: int,
    chunk_size: int,
) -> None:
    settings.SIMULATION_CHUNKS_IN_FLIGHT = 8
    earlier = new_run(owner, games=10_000)
    SimulationRun.objects.filter(pk=earlier.pk).update(
        status=RunStatus.SUCCEEDED, worker_seconds=seconds_for_10_000, finished_at=timezone.now()
    )
    values = {"deck": countdown_deck(owner), "engine_slug": "countdown", "params": {}, "seed": 1}
    run = run_create(owner=owner, games=games, **values)
    assert run.chunk_size == chunk_size
    assert run.chunks_total == -(-games // chunk_size)
    # a size asked for is kept
    assert run_create(owner=owner, games=games, chunk_size=7_000, **values).chunk_size == 7_000


def test_chunks_sized_by_cost_stay_within_the_bounds_and_divide_among_the_workers() -> None:
    ten_thousand = Estimate(1.0, 10_000.0, 0)  # games a second
    assert chunk_size_for(ten_thousand, 1_000, 8) == 1_000  # 0.1 s: one chunk
    assert chunk_size_for(ten_thousand, 40_000, 1) == 5_000  # one worker: 8 chunks of 0.5 s
    assert chunk_size_for(ten_thousand, 40_000, 10) == 4_000  # ten workers: ten chunks
    assert chunk_size_for(ten_thousand, 40_000, 40) == 1_000  # forty: forty of 0.1 s
    assert chunk_size_for(ten_thousand, 40_000, 80) == 1_250  # not under 0.1 s: 32 chunks
    # too short for a chunk per worker: a power of two, so 2 or 4 workers share it evenly
    assert chunk_size_for(Estimate(1.0, 1_800_000.0, 0), 1_000_000, 8) == 250_000
    assert chunk_size_for(Estimate(1.0, 2_000.0, 0), 100_000, 8) == 962  # 104 of 0.48 s
    slow = Estimate(seconds=500.0, games_per_second=10.0, max_games=6_000)
    assert chunk_size_for(slow, 5_000, 8) == MIN_CHUNK_SIZE
    assert chunk_size_for(slow, 1_000_001, 8) == 1_001  # at most MAX_CHUNKS chunks
    assert MAX_CHUNKS == 1_000


@pytest.mark.django_db(transaction=True)
def test_only_a_chunks_own_transaction_commits_without_waiting_for_the_disk() -> None:
    """A chunk's bookkeeping may be lost in a crash (its lease brings it back); a bigger
    transaction it is part of, such as a run being created, keeps waiting for the disk."""
    from django.db import connection, transaction

    def setting() -> str:
        with connection.cursor() as cursor:
            cursor.execute("SHOW synchronous_commit")
            return str(cursor.fetchone()[0])

    if connection.vendor != "postgresql":
        pytest.skip("synchronous_commit is PostgreSQL's")
    with supervisor.chunk_transaction():
        assert setting() == "off"
    assert setting() == "on"
    with transaction.atomic(), supervisor.chunk_transaction():
        assert setting() == "on"


def test_the_form_says_what_a_run_costs_before_it_starts(owner: Any, owner_client: Client) -> None:
    earlier = new_run(owner, games=10_000)
    SimulationRun.objects.filter(pk=earlier.pk).update(
        status=RunStatus.SUCCEEDED, worker_seconds=4.0, finished_at=timezone.now()
    )
    deck = countdown_deck(owner)

    html = owner_client.get(reverse("simulator:simulate", args=[deck.public_id])).content
    text = " ".join(html.decode().split())

    assert 'id="run-estimate"' in text
    assert "about 2,500 games a second" in text
    assert "10,000 games take about 4.0 s of worker time" in text
    assert "at most 10 minutes of worker time (about 1,500,000 games)" in text


@contextmanager
def reads_that_never_block_a_writer() -> Iterator[None]:
    """SQLite's shared-cache test database refuses a write to a table that another connection
    is reading, and the heartbeat stops at its first refused write: there, this connection's
    reads take no such lock while the block runs (PostgreSQL's readers never block a writer)."""
    if connection.vendor != "sqlite":
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA read_uncommitted = 1")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA read_uncommitted = 0")


class Clock:
    """The supervisor's ``timezone.now()``, moved only when the test says: every lease is
    then an exact timestamp the test knows."""

    def __init__(self) -> None:
        self.current = timezone.now()

    def now(self) -> datetime:
        return self.current


@pytest.mark.django_db(transaction=True)
def test_a_worker_keeps_its_lease_while_it_plays_a_long_chunk(
    owner: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(supervisor, "_send", lambda messages: None)
    monkeypatch.setattr(supervisor, "HEARTBEAT_SECONDS", 0.02)
    clock = Clock()
    monkeypatch.setattr(supervisor, "timezone", clock)
    run = run_create(
        owner=owner,
        deck=unmatched_deck(owner),
        engine_slug="unmatched",
        params={},
        games=10_000,
        seed=5,
        chunk_size=10_000,
    )
    step = supervisor.RUN_LEASE - timedelta(seconds=5)
    steps = 4  # 40 s on the clock: more than two whole leases, so only renewals keep it
    leases: list[Any] = []
    renewed: list[bool] = []
    put_back: list[int] = []
    original_check = supervisor._Heartbeat.check

    def lease() -> Any:
        return RunChunk.objects.filter(run=run, index=0).values_list("lease_until", flat=True)[0]

    def check(beat: Any, played: int) -> None:
        # at each of the first reports: the clock moves on, the heartbeat must renew the lease
        # from the new time, and a sweep at that time must leave the chunk to its worker
        if len(renewed) < steps and all(renewed):
            clock.current += step
            renewed.append(wait_until(lambda: lease() == clock.current + supervisor.RUN_LEASE))
            leases.append(lease())
            put_back.append(runs_supervise(run_ids=[run.pk]))
        original_check(beat, played)

    monkeypatch.setattr(supervisor._Heartbeat, "check", check)
    claimed_at = clock.current

    with reads_that_never_block_a_writer():
        assert run_chunk_execute(run_id=run.pk, index=0, worker="w") is True

    assert renewed == [True] * steps
    assert leases == [claimed_at + step * n + supervisor.RUN_LEASE for n in range(1, steps + 1)]
    assert leases[-1] > claimed_at + 2 * supervisor.RUN_LEASE  # the first lease is long gone
    assert put_back == [0] * steps
    assert not [r for r in caplog.records if "could not renew" in r.getMessage()]
    done = chunk(run, 0)
    assert (done.status, done.attempts, done.lease_until) == (ChunkStatus.DONE, 1, None)
    run.refresh_from_db()
    assert (run.status, run.recoveries) == (RunStatus.SUCCEEDED, 0)


@pytest.fixture
def inline() -> Iterator[None]:
    """Celery's inline mode (a demo's CELERY_TASK_ALWAYS_EAGER): tasks run where queued."""
    from decklab.celery import app

    saved = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = saved


@pytest.mark.usefixtures("inline")
def test_in_the_inline_mode_a_run_plays_to_the_end_one_chunk_after_another(
    owner: Any, committed: Callable[..., Any]
) -> None:
    # 300 chunks: a chunk queueing the next by recursion would overflow the stack
    run = committed(
        lambda: run_create(
            owner=owner,
            deck=countdown_deck(owner),
            engine_slug="countdown",
            params={},
            games=30_000,
            seed=3,
            chunk_size=100,
        )
    )

    run.refresh_from_db()
    assert (run.status, run.chunks_done, run.chunks_total) == (RunStatus.SUCCEEDED, 300, 300)
