"""Benchmark: a simulation chunk's fixed cost, apart from its games.

    .venv/bin/python bench/chunk_overhead.py [--chunks N] [--games N]

Plays a run's chunks one after another in this process through ``run_chunk_execute`` (claim,
feed, lease, play, store, feed: everything a worker does but the broker round trip) and the
same games through ``run_games`` alone; the difference per chunk is the bookkeeping. Needs
PostgreSQL (a throwaway database, bench/_bench.py); the feeds queue their messages on
BENCH_REDIS_URL (default redis://127.0.0.1:6379/11), which nobody consumes here.
"""

from __future__ import annotations

import argparse
import os
import time

from _bench import django_on, machine, throwaway_database

REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/11")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=50)
    parser.add_argument("--games", type=int, default=1_000, help="games per chunk")
    args = parser.parse_args()
    os.environ["CELERY_BROKER_URL"] = REDIS_URL
    with throwaway_database("chunkcost") as url:
        django_on(url)
        from simulation_run import setup_deck

        from games import registry
        from simulator.decks import sim_deck_for
        from simulator.engine.engine import run_games
        from simulator.services import run_chunk_execute, run_create

        user, deck = setup_deck("unmatched")
        engine, sim_deck = registry.engines()["unmatched"], sim_deck_for(deck)
        print(f"machine: {machine()}; load average {os.getloadavg()[0]:.2f}")
        for attempt in (1, 2):
            run = run_create(
                owner=user,
                deck=deck,
                engine_slug="unmatched",
                params={},
                games=args.chunks * args.games,
                seed=attempt,
                chunk_size=args.games,
            )
            started = time.perf_counter()
            for index in range(args.chunks):
                run_games(
                    engine,
                    sim_deck,
                    {},
                    run_seed=attempt,
                    start=index * args.games,
                    count=args.games,
                )
            play = (time.perf_counter() - started) / args.chunks
            started = time.perf_counter()
            for index in range(args.chunks):
                run_chunk_execute(run_id=run.pk, index=index, worker="bench@here")
            whole = (time.perf_counter() - started) / args.chunks
            print(
                f"  #{attempt}: {args.chunks} chunks of {args.games:,} games: play "
                f"{play * 1000:.1f} ms, whole chunk {whole * 1000:.1f} ms, bookkeeping "
                f"{(whole - play) * 1000:.1f} ms a chunk"
            )


if __name__ == "__main__":
    main()
