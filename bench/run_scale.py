"""Benchmark: big simulation runs end to end on real workers, as a player starts them.

    .venv/bin/python bench/run_scale.py [--part all|pg|embedded] [--repeat 2]
                                        [--unmatched-games 1000000] [--other-games 100000]
                                        [--games unmatched recharge ...]

Targets (issue 22):

- **pg**: PostgreSQL + Redis. A 1,000,000-game Unmatched run (the Medusa deck, default
  parameters) with 1 and with 2 worker processes (``celery worker -c 1`` each): at most 5 s end
  to end with 2, and 2 workers at least 1.7x as fast as 1 (on a quiet machine: the figure
  says the load average). Then a 100,000-game run of every other game with an engine (its
  first legal product of the game's catalog.json), on 2 workers, at most 5 s each.
- **embedded**: the default setup (SQLite and the filesystem broker under a throwaway
  DECKLAB_VAR_DIR), one worker: the 1,000,000-game Unmatched run within 1.3x its worker time
  (the CPU time its chunks took).

Chunks are sized by the cost model, as for a player: before the timed runs, each worker set
plays two smaller runs of the game (20,000 and 200,000 games), whose measured speed sizes the
big run's chunks. Workers warm their engines as they start (their log line is printed); the
runs are timed from ``run_create`` to the finished run, each configuration ``--repeat``
times, alternating, the best time its figure. The run's results must be identical whatever
the number of workers.

Needs the local PostgreSQL (a throwaway database, bench/_bench.py) and Redis
(BENCH_REDIS_URL, default redis://127.0.0.1:6379/12, emptied first).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _bench import ROOT, django_on, machine, throwaway_database, verdict

REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/12")
CELERY = Path(sys.executable).parent / "celery"
SEED = 20_261_127
TEACHING_RUNS = (20_000, 200_000)
TARGET_SECONDS = 5.0
TARGET_SPEEDUP = 1.7
TARGET_EMBEDDED_RATIO = 1.3


class Workers:
    """``count`` worker nodes of one process each, started with ``env`` and ready once each
    has logged "ready." (after its engines' warm-up)."""

    def __init__(self, count: int, env: dict[str, str], log_dir: Path) -> None:
        self.logs: list[Path] = []
        self.processes: list[subprocess.Popen[bytes]] = []
        for n in range(count):
            name = f"scale{n}_{os.getpid()}_{int(time.time() * 1000) % 100_000}"
            log = log_dir / f"{name}.log"
            self.logs.append(log)
            command = [str(CELERY), "-A", "decklab", "worker", "-c", "1", "--pool", "prefork"]
            command += ["-n", f"{name}@%h", "-l", "info", "--without-gossip", "--without-mingle"]
            command += ["-Q", "simulation"]
            with log.open("wb") as out:
                self.processes.append(
                    subprocess.Popen(
                        command,
                        cwd=ROOT,
                        env=env,
                        stdout=out,
                        stderr=subprocess.STDOUT,
                        start_new_session=True,
                    )
                )

    def wait_ready(self, timeout: float = 600) -> list[str]:
        """The workers' warm-up lines, once every worker is ready."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            texts = [log.read_text(errors="replace") for log in self.logs]
            if all(" ready." in text for text in texts):
                return [
                    line.split("] ", 1)[-1]
                    for text in texts
                    for line in text.splitlines()
                    if "engines warmed" in line
                ]
            if any(p.poll() is not None for p in self.processes):
                raise RuntimeError(f"a worker stopped; see {self.logs}")
            time.sleep(0.1)
        raise RuntimeError(f"workers not ready within {timeout} s; see {self.logs}")

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def worker_env(**extra: str) -> dict[str, str]:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "decklab.settings",
        "SECRET_KEY": "bench-only-secret-key-" + "x" * 40,
        "ALLOWED_HOSTS": "localhost",
        "DEBUG": "false",
        "EMAIL_ALLOW_CONSOLE": "1",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    env.update(extra)
    return env


def decks(slugs: list[str]) -> tuple[Any, dict[str, Any]]:
    """One player and, per game, a deck of its first legal prebuilt product (Unmatched:
    Medusa), the catalogs imported from each game's catalog.json."""
    from django.contrib.auth import get_user_model

    from catalog.importers.service import bundles_from_path, import_bundles
    from catalog.models import Product
    from decks.services import deck_from_product
    from games import registry

    user = get_user_model().objects.create_user(username="scale", password="bench-only")
    found: dict[str, Any] = {}
    for slug in slugs:
        catalog = registry.get(slug).catalog_file
        assert catalog is not None, f"{slug} has no catalog.json"
        try:
            import_bundles(bundles_from_path(catalog))
        except Exception as exc:  # a game whose catalog this checkout cannot load: said, left out
            print(f"  {slug}: not measured, its catalog did not load ({type(exc).__name__}: {exc})")
            continue
        products = Product.objects.filter(game__slug=slug, items__isnull=False).distinct()
        for product in sorted(products, key=lambda p: (p.code != "medusa", p.code)):
            deck = deck_from_product(product=product, user=user)
            if deck.is_legal:
                found[slug] = deck
                break
        else:
            raise SystemExit(f"{slug}: no legal prebuilt product to play")
    return user, found


def timed_run(user: Any, deck: Any, slug: str, games: int) -> tuple[float, Any]:
    from simulator.models import SimulationRun
    from simulator.services import run_create

    started = time.perf_counter()
    run = run_create(owner=user, deck=deck, engine_slug=slug, params={}, games=games, seed=SEED)
    deadline = time.monotonic() + 900
    # a light poll (the status alone): the workers share the machine's cores with this loop
    status = SimulationRun.objects.filter(pk=run.pk).values_list("status", flat=True)
    while time.monotonic() < deadline and status.first() in ("queued", "running"):
        time.sleep(0.01)
    elapsed = time.perf_counter() - started
    run = SimulationRun.objects.get(pk=run.pk)
    if run.status != "succeeded":
        raise RuntimeError(f"{slug} run {run.status}: {run.error}")
    return elapsed, run


def teach(user: Any, deck: Any, slug: str) -> None:
    """Smaller runs first, so the cost model knows the engine's speed on these workers."""
    for games in TEACHING_RUNS:
        timed_run(user, deck, slug, games)


def described(elapsed: float, run: Any, workers: int) -> str:
    return (
        f"{elapsed:.2f} s end to end ({run.games / elapsed:,.0f} games/s); {run.chunks_total} "
        f"chunks of {run.chunk_size:,}; worker CPU {run.worker_seconds:.2f} s "
        f"(wall/CPU {elapsed * workers / run.worker_seconds:.2f} per worker); first chunk "
        f"after {(run.started_at - run.created_at).total_seconds():.2f} s; "
        f"load {os.getloadavg()[0]:.1f}"
    )


def part_pg(args: argparse.Namespace) -> bool:
    os.environ["CELERY_BROKER_URL"] = REDIS_URL
    with throwaway_database("runscale") as url:
        django_on(url)
        from decklab.celery import app
        from games import registry

        slugs = args.games or list(registry.engines())
        user, found = decks(slugs)
        app.control.purge()
        env = worker_env(DATABASE_URL=url, CELERY_BROKER_URL=REDIS_URL, DATABASE_POOL_MAX="2")
        log_dir = Path(tempfile.mkdtemp(prefix="run_scale_pg_"))
        print(f"PostgreSQL + Redis; machine: {machine()}; load {os.getloadavg()[0]:.2f}")
        ok = True
        best: dict[int, float] = {}
        results: dict[int, Any] = {}
        for attempt in range(1, args.repeat + 1):
            for count in (2, 1):
                workers = Workers(count, env, log_dir)
                try:
                    lines = workers.wait_ready()
                    if attempt == 1:
                        print("\n".join(f"    worker: {line}" for line in lines))
                    if "unmatched" in found:
                        teach(user, found["unmatched"], "unmatched")
                        elapsed, run = timed_run(
                            user, found["unmatched"], "unmatched", args.unmatched_games
                        )
                        best[count] = min(elapsed, best.get(count, elapsed))
                        results.setdefault(count, run.results)
                        print(
                            f"  #{attempt} unmatched, {args.unmatched_games:,} games, {count} "
                            f"worker{'s' if count > 1 else ''}: {described(elapsed, run, count)}"
                        )
                    if count == 2 and attempt == 1:
                        for slug, deck in found.items():
                            if slug == "unmatched":
                                continue
                            teach(user, deck, slug)
                            elapsed, run = timed_run(user, deck, slug, args.other_games)
                            ok &= elapsed <= TARGET_SECONDS
                            print(
                                f"  {slug}, {args.other_games:,} games, 2 workers: "
                                f"{described(elapsed, run, 2)} "
                                f"(target <= {TARGET_SECONDS:.0f} s: "
                                f"{verdict(elapsed <= TARGET_SECONDS)})"
                            )
                finally:
                    workers.stop()
        if 2 in best:
            ok &= best[2] <= TARGET_SECONDS
            print(
                f"unmatched, 2 workers, best of {args.repeat}: {best[2]:.2f} s "
                f"(target <= {TARGET_SECONDS:.0f} s: {verdict(best[2] <= TARGET_SECONDS)})"
            )
        if 1 in best and 2 in best:
            speedup = best[1] / best[2]
            ok &= speedup >= TARGET_SPEEDUP
            print(
                f"speed-up 1 -> 2 workers: {speedup:.2f}x (target >= {TARGET_SPEEDUP}x: "
                f"{verdict(speedup >= TARGET_SPEEDUP)}; load {os.getloadavg()[0]:.1f})"
            )
        if len(results) > 1:
            same = all(r == results[1] for r in results.values())
            ok &= same
            print(f"identical results with 1 and 2 workers: {'yes' if same else 'NO'}")
        print(f"worker logs: {log_dir}")
        return ok


def part_embedded(args: argparse.Namespace) -> bool:
    var = Path(tempfile.mkdtemp(prefix="run_scale_embedded_"))
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ.pop("REDIS_URL", None)
    os.environ["DECKLAB_VAR_DIR"] = str(var)
    # the kernels' disk cache stays the machine's, not the throwaway directory's
    os.environ.setdefault("NUMBA_CACHE_DIR", str(ROOT / "var" / "numba"))
    url = f"sqlite:///{var / 'decklab.sqlite3'}"
    django_on(url)
    user, found = decks(["unmatched"])
    env = worker_env(DATABASE_URL=url, DECKLAB_VAR_DIR=str(var))
    env.pop("CELERY_BROKER_URL", None)
    env.pop("REDIS_URL", None)
    print(f"embedded (SQLite, filesystem broker in {var}); load {os.getloadavg()[0]:.2f}")
    ratios = []
    for attempt in range(1, args.repeat + 1):
        workers = Workers(1, env, var)
        try:
            lines = workers.wait_ready()
            if attempt == 1:
                print("\n".join(f"    worker: {line}" for line in lines))
            teach(user, found["unmatched"], "unmatched")
            elapsed, run = timed_run(user, found["unmatched"], "unmatched", args.unmatched_games)
        finally:
            workers.stop()
        ratios.append(elapsed / run.worker_seconds)
        games = f"{args.unmatched_games:,} games"
        print(f"  #{attempt} unmatched, {games}: {described(elapsed, run, 1)}")
    ratio = min(ratios)
    print(
        f"embedded, 1 worker: wall / worker time {ratio:.2f} (best of {args.repeat}; target "
        f"<= {TARGET_EMBEDDED_RATIO}: {verdict(ratio <= TARGET_EMBEDDED_RATIO)})"
    )
    return ratio <= TARGET_EMBEDDED_RATIO


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=("all", "pg", "embedded"), default="all")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--unmatched-games", type=int, default=1_000_000)
    parser.add_argument("--other-games", type=int, default=100_000)
    parser.add_argument("--games", nargs="*", help="the games of the pg part (default: all)")
    args = parser.parse_args()
    print(f"bench/run_scale.py at {time.strftime('%Y-%m-%d %H:%M:%S %Z')}")
    if args.part == "all":
        # each part sets Django up on its own database, so each runs in a process of its own
        status = 0
        for part in ("pg", "embedded"):
            command = [sys.executable, __file__, "--part", part, "--repeat", str(args.repeat)]
            command += ["--unmatched-games", str(args.unmatched_games)]
            command += ["--other-games", str(args.other_games)]
            if args.games:
                command += ["--games", *args.games]
            status |= subprocess.run(command, check=False).returncode
        return status
    ok = part_pg(args) if args.part == "pg" else part_embedded(args)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
