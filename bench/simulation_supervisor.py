"""Benchmark: simulation runs that always finish, share the workers and start at once.

    .venv/bin/python bench/simulation_supervisor.py [--brokers embedded redis rabbitmq] [--big N]

For each broker (embedded: SQLite and kombu's filesystem broker in a temporary folder, as
``scripts/run`` sets them up; redis: PostgreSQL and a ``redis-server`` of its own on a free
port; rabbitmq: PostgreSQL and BENCH_AMQP_URL, default the local RabbitMQ's "/"), with one
worker node of one process, as ``scripts/run`` starts it:

- **full speed**: a 100,000-game Unmatched run (Medusa) end to end against its worker time
  (target: wall <= 1.3 x worker time);
- **fair start**: another player's 10,000-game run started while a --big (1,000,000) game run
  is going: its wait until its first chunk starts (target <= 2 s), then how long the big run's
  cancel takes to leave the worker free;
- **recovery**: the worker node SIGKILLed (main process and pool) mid-run and a new one
  started; the time from the kill until the lost chunks are played again, with the run read
  once a second as its page does (target <= 60 s; the Redis visibility timeout stays 3,600 s).
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from _bench import ROOT, django_on, machine, throwaway_database, verdict

CELERY = Path(sys.executable).parent / "celery"
SEED = 20_261_123
FULL_RATIO = 1.3
FAIR_WAIT = 2.0
RECOVERY = 60.0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Node:
    def __init__(self, name: str, env: dict[str, str], log: Path) -> None:
        self._log = log.open("ab")
        command = [str(CELERY), "-A", "decklab", "worker", "-c", "1", "--pool", "prefork"]
        command += ["-n", f"{name}@%h", "-l", "warning", "--without-gossip", "--without-mingle"]
        self.process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, sig)
            self.process.wait(timeout=30)
        self._log.close()


@contextmanager
def broker_setup(kind: str, work: Path) -> Iterator[tuple[str, str]]:
    """(database URL, broker URL) for the kind of setup, torn down afterwards."""
    if kind == "embedded":
        os.environ["DECKLAB_VAR_DIR"] = str(work / "var")
        yield f"sqlite:///{work / 'bench.sqlite3'}", "filesystem://"
        return
    if kind == "rabbitmq":
        with throwaway_database("simsup") as url:
            yield url, os.environ.get("BENCH_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672//")
        return
    server = shutil.which("redis-server")
    assert server, "redis-server is not on the PATH"
    port = _free_port()
    redis = subprocess.Popen(
        [
            server,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(work),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(0.5)
    try:
        with throwaway_database("simsup") as url:
            yield url, f"redis://127.0.0.1:{port}/0"
    finally:
        redis.kill()
        redis.wait()


def node_env(database_url: str, broker: str) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",  # no collectstatic manifest needed
        "SECRET_KEY": "bench-only-secret-key",
        "DEBUG": "false",
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": broker,
        "CELERY_VISIBILITY_TIMEOUT": "3600",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }


def deck_and_players() -> tuple[Any, Any, Any]:
    from django.contrib.auth import get_user_model

    from catalog.importers.service import bundles_from_path, import_bundles
    from catalog.models import Product
    from decks.services import deck_from_product
    from games import registry

    import_bundles(bundles_from_path(registry.get("unmatched").catalog_file))
    users = get_user_model().objects
    first = users.create_user(username="first", password="bench-only")
    second = users.create_user(username="second", password="bench-only")
    deck = deck_from_product(product=Product.objects.get(code="medusa"), user=first)
    deck.visibility = "public"
    deck.save(update_fields=["visibility"])
    return first, second, deck


def start(owner: Any, deck: Any, games: int) -> Any:
    from simulator.services import run_create

    return run_create(
        owner=owner, deck=deck, engine_slug="unmatched", params={}, games=games, seed=SEED
    )


def read(run_id: int) -> Any:
    from simulator.models import SimulationRun

    run = SimulationRun.objects.get(pk=run_id)
    try:
        from simulator.supervisor import run_supervise_on_read
    except ImportError:  # the code before the supervisor (a worktree, for comparisons)
        return run
    return run_supervise_on_read(run)


def wait(what: str, check: Any, timeout: float, every: float = 0.01) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(every)
    raise RuntimeError(f"gave up waiting {timeout} s for {what}")


def bench(kind: str, big: int, parts: list[str]) -> bool:
    work = Path(tempfile.mkdtemp(prefix=f"simsup_{kind}_"))
    ok = True
    with broker_setup(kind, work) as (database_url, broker):
        os.environ["CELERY_BROKER_URL"] = broker
        django_on(database_url)
        from simulator.models import ChunkStatus, RunChunk, SimulationRun

        first, second, deck = deck_and_players()
        env = node_env(database_url, broker)
        where = machine() if kind != "embedded" else f"SQLite, Python {sys.version.split()[0]}"
        print(f"\n{kind}: {where}; load {os.getloadavg()[0]:.2f}")
        node = Node("bench", env, work / "worker.log")
        try:
            warm = start(first, deck, 10_000)
            wait("the warm-up", lambda: read(warm.pk).is_finished, 120)

            # full speed
            if "full" in parts:
                began = time.perf_counter()
                run = start(first, deck, 100_000)
                run = wait("the run", lambda: (r := read(run.pk)).is_finished and r, 300)
                wall = time.perf_counter() - began
                ratio = wall / run.worker_seconds
                ok &= ratio <= FULL_RATIO
                print(
                    f"  100,000 games: {wall:.2f} s end to end for {run.worker_seconds:.2f} s of "
                    f"worker time: {ratio:.2f}x (target <= {FULL_RATIO}x: "
                    f"{verdict(ratio <= FULL_RATIO)}); {run.chunks_total} chunks"
                )

            # fair start
            if "fair" in parts:
                going = start(first, deck, big)
                wait("the big run going", lambda: read(going.pk).chunks_done >= 3, 120)
                small = start(second, deck, 10_000)
                small = wait("the small run", lambda: (r := read(small.pk)).is_finished and r, 120)
                waited = (small.started_at - small.created_at).total_seconds()
                took = (small.finished_at - small.created_at).total_seconds()
                ok &= waited <= FAIR_WAIT
                print(
                    f"  a 10,000-game run beside a {big:,}-game run: first chunk after "
                    f"{waited:.2f} s (target <= {FAIR_WAIT} s: {verdict(waited <= FAIR_WAIT)}), "
                    f"done after {took:.2f} s"
                )
                from simulator.services import run_cancel

                cancelled = time.perf_counter()
                run_cancel(run=SimulationRun.objects.get(pk=going.pk))
                probe = start(second, deck, 5_000)
                wait("the worker free", lambda: read(probe.pk).started_at, 60)
                freed = time.perf_counter() - cancelled
                left = RunChunk.objects.filter(run=going).exclude(status="done")
                states = sorted(set(left.values_list("status", flat=True)))
                print(
                    f"  cancel of the big run: the next run's chunk started {freed:.2f} s later; "
                    f"its unplayed chunks: {states}"
                )
                wait("the probe", lambda: read(probe.pk).is_finished, 60)

            # recovery
            if "recovery" in parts:
                run = start(first, deck, 100_000)

                def in_play() -> list[int]:
                    if read(run.pk).chunks_done < 3:
                        return []
                    chunks = RunChunk.objects.filter(run=run, status=ChunkStatus.RUNNING)
                    return list(chunks.values_list("index", flat=True))

                running = wait("a chunk in play after three stored", in_play, 120, every=0.002)
                node.kill()
                killed = time.perf_counter()
                node = Node("bench2", env, work / "worker.log")
                lost = [
                    i for i in running if RunChunk.objects.get(run=run, index=i).status != "done"
                ]

                def replayed() -> bool:
                    read(run.pk)
                    return (
                        not RunChunk.objects.filter(run=run, index__in=lost)
                        .exclude(status="done")
                        .exists()
                    )

                wait("the lost chunks", replayed, 120, every=1.0)
                recovery = time.perf_counter() - killed
                run = wait("the run", lambda: (r := read(run.pk)).is_finished and r, 120)
                ok &= recovery <= RECOVERY and run.status == "succeeded"
                print(
                    f"  SIGKILL of the worker node: lost chunks {lost} played again after "
                    f"{recovery:.1f} s (target <= {RECOVERY:.0f} s: "
                    f"{verdict(recovery <= RECOVERY)}), run {run.status}, "
                    f"{run.recoveries} recovery noted"
                )
        finally:
            node.kill(signal.SIGTERM)
            from _bench import _close_django_connections

            _close_django_connections()
    print(f"  logs: {work}")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--brokers", nargs="+", default=["embedded", "redis", "rabbitmq"])
    parser.add_argument("--big", type=int, default=1_000_000)
    parser.add_argument("--parts", nargs="+", default=["full", "fair", "recovery"])
    args = parser.parse_args()
    if len(args.brokers) > 1:  # one Django set-up per process: one broker per run
        again = [sys.executable, __file__, "--big", str(args.big), "--parts", *args.parts]
        return max(subprocess.call([*again, "--brokers", kind]) for kind in args.brokers)
    return 0 if bench(args.brokers[0], args.big, args.parts) else 1


if __name__ == "__main__":
    sys.exit(main())
