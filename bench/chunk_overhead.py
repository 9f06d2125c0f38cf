"""Benchmark: a simulation chunk's fixed cost, apart from its games.

    .venv/bin/python bench/chunk_overhead.py [--chunks N] [--games N] [--outside-chunks N]

Two figures, each taken twice:

- **in process**: a run's chunks played one after another in this process through
  ``run_chunk_execute`` (claim, feed, lease, play, store, feed: everything a worker does but
  the broker's round trip and the task around it), and the same games through ``run_games``
  alone; the difference per chunk is the bookkeeping. The statements each chunk sends to the
  database are counted too.
- **from outside**: one real worker (``celery -A decklab worker -c 1``, prefork, the
  production settings) plays a run of ``--outside-chunks`` chunks of ``--games`` games; the
  wall time from ``run_create`` to the finished run, less the same games played alone, divided
  by the chunks is what a chunk costs beyond its games as a player sees it (the task, the
  broker's round trip, the reconnect, the bookkeeping).

Needs PostgreSQL (a throwaway database, bench/_bench.py) and Redis (BENCH_REDIS_URL, default
redis://127.0.0.1:6379/11, emptied first). To compare two checkouts, run this same file in each
(copy it into the other's bench/), alternately: it uses only ``run_create``,
``run_chunk_execute`` and ``run_games``.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from _bench import django_on, machine, throwaway_database

REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/11")
os.environ["BENCH_REDIS_URL"] = REDIS_URL  # simulation_run's workers use the same one


def in_process(user: Any, deck: Any, chunks: int, games: int, seed: int) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games import registry
    from simulator.decks import sim_deck_for
    from simulator.engine.engine import run_games
    from simulator.services import run_chunk_execute, run_create

    engine, sim_deck = registry.engines()["unmatched"], sim_deck_for(deck)
    run = run_create(
        owner=user,
        deck=deck,
        engine_slug="unmatched",
        params={},
        games=chunks * games,
        seed=seed,
        chunk_size=games,
    )
    started = time.perf_counter()
    for index in range(chunks):
        run_games(engine, sim_deck, {}, run_seed=seed, start=index * games, count=games)
    play = (time.perf_counter() - started) / chunks
    started = time.perf_counter()
    with CaptureQueriesContext(connection) as queries:
        for index in range(chunks):
            run_chunk_execute(run_id=run.pk, index=index, worker="bench@here")
    whole = (time.perf_counter() - started) / chunks
    print(
        f"  in process, {chunks} chunks of {games:,} games: play {play * 1000:.1f} ms, whole "
        f"chunk {whole * 1000:.1f} ms, bookkeeping {(whole - play) * 1000:.1f} ms a chunk, "
        f"{len(queries) / chunks:.1f} statements a chunk"
    )


def outside(user: Any, deck: Any, chunks: int, games: int, url: str, seed: int) -> None:
    from simulation_run import Workers, engine_alone, purge_broker, timed_run

    purge_broker()
    try:  # the kernels compiled here first, so the worker loads them from the disk cache
        from simulator.warmup import engines_warm

        engines_warm()
    except ImportError:  # a checkout from before the warm-up
        pass
    log_dir = Path(tempfile.mkdtemp(prefix="chunk_overhead_"))
    workers = Workers(1, url, log_dir, one_node=False)
    try:
        workers.wait_ready(timeout=600)
        timed_run(user, deck, 10 * games, games, "unmatched")  # the worker's first tasks
        elapsed, run = timed_run(user, deck, chunks * games, games, "unmatched")
    finally:
        workers.stop()
    alone = engine_alone(deck, chunks * games, "unmatched")
    print(
        f"  from outside, 1 worker, {run.chunks_total} chunks of {games:,} games: "
        f"{elapsed:.2f} s end to end, {alone:.2f} s for the games alone, "
        f"{(elapsed - alone) / run.chunks_total * 1000:.1f} ms a chunk beyond its games "
        f"(load {os.getloadavg()[0]:.1f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=50)
    parser.add_argument("--games", type=int, default=1_000, help="games per chunk")
    parser.add_argument("--outside-chunks", type=int, default=100, help="0: skip that part")
    args = parser.parse_args()
    os.environ["CELERY_BROKER_URL"] = REDIS_URL
    with throwaway_database("chunkcost") as url:
        django_on(url)
        from simulation_run import setup_deck

        user, deck = setup_deck("unmatched")
        print(f"machine: {machine()}; load average {os.getloadavg()[0]:.2f}")
        for attempt in (1, 2):
            print(f"#{attempt}")
            in_process(user, deck, args.chunks, args.games, seed=attempt)
            if args.outside_chunks:
                outside(user, deck, args.outside_chunks, args.games, url, seed=attempt)


if __name__ == "__main__":
    main()
