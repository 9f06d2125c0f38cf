"""Runs always finish: real ``celery worker`` processes play an Unmatched run while a whole
worker node is SIGKILLed, or while the broker (a Redis without persistence, started here on a
free port) is restarted and forgets every queued message. The supervisor queues the lost
chunks again within 60 s although the broker's visibility timeout is an hour, and the run's
results equal an undisturbed run's of the same seed.

Needs PostgreSQL (the workers share the test database) and ``redis-server`` on the PATH."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from games.unmatched.engine import ENGINE
from simulator.decks import sim_deck_for
from simulator.engine.engine import run_games
from simulator.models import ChunkStatus, RunChunk, RunStatus, SimulationRun
from simulator.services import run_create, run_results
from simulator.supervisor import run_supervise_on_read
from tests.celery_logs import CeleryLogs
from tests.celery_process import test_database_url, wait_for
from tests.simulator.fake_games._builders import unmatched_deck

GAMES = 60_000
CHUNK = 3_000
SEED = 515_151
#: the broker's own recovery would take an hour: only the supervisor can meet the bound
VISIBILITY_TIMEOUT = 3600
RECOVERY_BOUND = 60.0
ROOT = Path(settings.BASE_DIR)
CELERY = Path(sys.executable).parent / "celery"
REDIS_SERVER = shutil.which("redis-server")

pytestmark = [
    pytest.mark.worker,
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith("postgres"),
        reason="needs PostgreSQL (DATABASE_URL): the worker processes share the test database",
    ),
    pytest.mark.skipif(REDIS_SERVER is None, reason="needs redis-server on the PATH"),
]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class RedisServer:
    """A Redis of our own that keeps nothing on disk: a restart forgets every message."""

    def __init__(self, directory: Path) -> None:
        self.port = _free_port()
        self.directory = directory
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        command = [str(REDIS_SERVER), "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no", "--dir", str(self.directory)]
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()  # no shutdown save: every queued message is gone
            self.process.wait(timeout=10)
        self.process = None


class Node:
    """A worker node: the main process and its prefork pool in their own process group.

    ``restart``: started again whenever it exits, as a process manager does in production
    (README, "Scaling out": systemd's ``Restart=always``); ``restarts`` counts those."""

    def __init__(self, name: str, broker: str, log: Path, *, restart: bool = False) -> None:
        self.name, self.broker = name, broker
        self.log = log
        self._log_file = log.open("wb")
        self.restarts = 0
        self._stopping = threading.Event()
        self.process = self._spawn()
        self._watcher: threading.Thread | None = None
        if restart:
            self._watcher = threading.Thread(target=self._keep_running, daemon=True)
            self._watcher.start()

    def _keep_running(self) -> None:
        while not self._stopping.wait(0.2):
            if self.process.poll() is not None and not self._stopping.is_set():
                self.restarts += 1
                self.process = self._spawn()

    def _spawn(self) -> subprocess.Popen[bytes]:
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "tests.settings",
            "DATABASE_URL": test_database_url(),
            "CELERY_BROKER_URL": self.broker,
            "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT),
            "PYTHONPATH": str(ROOT),
        }
        command = [str(CELERY), "-A", "decklab", "worker", "-c", "2", "--pool", "prefork"]
        command += ["-n", f"{self.name}@%h", "-l", "info", "--without-gossip", "--without-mingle"]
        return subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=self._log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def kill(self) -> None:
        self._stopping.set()
        if self._watcher is not None:
            self._watcher.join(timeout=10)
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
        self._log_file.close()


@contextmanager
def on_broker(url: str) -> Iterator[None]:
    """This process queues the run's first chunks: on the test's own broker."""
    from decklab.celery import app

    saved = app.conf.broker_write_url, app.conf.broker_transport_options
    app.conf.broker_write_url = url
    app.conf.broker_transport_options = {"visibility_timeout": VISIBILITY_TIMEOUT}
    app._pool = app.amqp._producer_pool = None
    try:
        yield
    finally:
        app.pool.force_close_all()
        app.conf.broker_write_url, app.conf.broker_transport_options = saved
        app._pool = app.amqp._producer_pool = None


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path)
    yield server
    server.stop()


@pytest.fixture
def nodes(tmp_path: Path, celery_logs: CeleryLogs) -> Iterator[Callable[..., Node]]:
    started: list[Node] = []

    def start(name: str, broker: str, *, restart: bool = False) -> Node:
        node = Node(name, broker, celery_logs.watch(tmp_path / f"{name}.log"), restart=restart)
        started.append(node)
        return node

    yield start
    for node in started:
        node.kill()


def _start_run(owner: Any) -> tuple[SimulationRun, Any]:
    deck = unmatched_deck(owner)
    run = run_create(
        owner=owner,
        deck=deck,
        engine_slug="unmatched",
        params={},
        games=GAMES,
        seed=SEED,
        chunk_size=CHUNK,
    )
    return run, deck


def _undisturbed(deck: Any) -> dict[str, Any]:
    params = ENGINE.params.clean({})
    return run_results(
        run_games(ENGINE, sim_deck_for(deck), params, run_seed=SEED, start=0, count=GAMES)
    )


def _read(run: SimulationRun) -> SimulationRun:
    """The run as its page reads it every second (which sweeps it)."""
    return run_supervise_on_read(SimulationRun.objects.get(pk=run.pk))


def _done(run: SimulationRun) -> int:
    return RunChunk.objects.filter(run=run, status=ChunkStatus.DONE).count()


@pytest.mark.django_db(transaction=True)
def test_a_run_finishes_exactly_when_a_whole_worker_node_is_killed_mid_run(
    owner: Any, redis_server: RedisServer, nodes: Callable[..., Node]
) -> None:
    with on_broker(redis_server.url):
        doomed = nodes("doomed", redis_server.url)
        run, deck = _start_run(owner)
        wait_for("three chunks stored", lambda: _done(run) >= 3, 90, [doomed.log])
        running = list(
            RunChunk.objects.filter(run=run, status=ChunkStatus.RUNNING).values_list(
                "index", flat=True
            )
        )
        doomed.kill()
        killed_at = time.monotonic()
        survivor = nodes("survivor", redis_server.url)

        lost = [i for i in running if RunChunk.objects.get(run=run, index=i).status != "done"]

        def lost_ones_played() -> bool:
            _read(run)
            return all(
                RunChunk.objects.get(run=run, index=i).status == ChunkStatus.DONE for i in lost
            )

        wait_for("the lost chunks played again", lost_ones_played, 90, [survivor.log])
        recovery = time.monotonic() - killed_at
        finished = wait_for(
            "the run to finish", lambda: (r := _read(run)).is_finished and r, 120, [survivor.log]
        )

    assert finished.status == RunStatus.SUCCEEDED, finished.error
    assert finished.results == _undisturbed(deck)
    assert recovery <= RECOVERY_BOUND, recovery
    if lost:
        assert finished.recoveries >= 1
    print(f"\nSIGKILL of a node: lost chunks {lost}, played again after {recovery:.1f} s")


@pytest.mark.django_db(transaction=True)
def test_a_run_finishes_exactly_when_its_broker_restarts_and_forgets_the_queue(
    owner: Any, redis_server: RedisServer, nodes: Callable[..., Node], celery_logs: CeleryLogs
) -> None:
    # the broker is stopped on purpose: a worker may fail to reach it meanwhile, and may stop
    # on kombu's known error (README, "Scaling out") before the node is started again
    celery_logs.allow(
        r"ERROR/MainProcess\] consumer: Cannot connect to redis://",
        r"CRITICAL/MainProcess\] Unrecoverable error: AttributeError",
        # the same kombu bug met again while the dying worker stops its event loop
        r"ERROR/MainProcess\] Error on stopping Hub: AttributeError",
        # a task finished while the broker is down: its ack is lost with the broker's memory,
        # which forgets the message anyway (the chunk's lease is what brings it back)
        r"CRITICAL/MainProcess\] Couldn't ack '[0-9a-f-]+', reason:network:ConnectionError",
    )
    with on_broker(redis_server.url):
        # kept running as in production: kombu may stop a worker on a broker restart
        node = nodes("steady", redis_server.url, restart=True)
        run, deck = _start_run(owner)

        def waiting_in_the_broker() -> list[int]:
            if _done(run) < 3:
                return []
            queued = RunChunk.objects.filter(run=run, status=ChunkStatus.QUEUED)
            return list(queued.values_list("index", flat=True))

        # the chunks whose messages the broker holds (or has just handed to the worker)
        lost = wait_for("a chunk waiting after three stored", waiting_in_the_broker, 90, [node.log])
        redis_server.stop()  # every message it held is gone
        restarted_at = time.monotonic()
        redis_server.start()

        def progressed() -> bool:
            _read(run)
            done = RunChunk.objects.filter(run=run, index__in=lost, status=ChunkStatus.DONE)
            return done.count() == len(lost)

        wait_for("the lost chunks played", progressed, 90, [node.log])
        recovery = time.monotonic() - restarted_at
        finished = wait_for(
            "the run to finish", lambda: (r := _read(run)).is_finished and r, 120, [node.log]
        )

    assert finished.status == RunStatus.SUCCEEDED, finished.error
    assert finished.results == _undisturbed(deck)
    assert recovery <= RECOVERY_BOUND, recovery
    print(
        f"\nbroker restart: lost messages of chunks {lost} played after {recovery:.1f} s"
        f" (worker node started again {node.restarts} times)"
    )
