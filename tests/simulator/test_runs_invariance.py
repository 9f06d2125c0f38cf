"""A run's results depend only on its seed, never on how it is split or who plays it: the
same Unmatched run with chunks of 1,000, 3,333 and 10,000 games, played by one worker or by
two at once, stores byte-for-byte the same results, equal to all games played in one go."""

from __future__ import annotations

import json
import queue
import threading
import time
from typing import Any

import pytest
from django.db import connection

from games.unmatched.engine import ENGINE
from simulator.decks import sim_deck_for
from simulator.engine.engine import run_games
from simulator.models import RunStatus, SimulationRun
from simulator.services import TRANSIENT_DB_ERRORS, run_chunk_execute, run_create, run_results
from tests.simulator.fake_games._builders import unmatched_deck

GAMES = 12_000
SEED = 20_240_601
PARAMS = {"opponent_hp": 18}
MAX_RETRIES = 200


def _worker(run_id: int, todo: queue.Queue[int], failures: list[BaseException]) -> None:
    retries = 0
    try:
        while True:
            try:
                index = todo.get_nowait()
            except queue.Empty:
                return
            try:
                run_chunk_execute(
                    run_id=run_id, index=index, worker=threading.current_thread().name
                )
            except TRANSIENT_DB_ERRORS:
                # What the task's autoretry does (SQLite's test database refuses a second
                # writer at once instead of waiting): the chunk goes back in the queue.
                retries += 1
                if retries > MAX_RETRIES:
                    raise
                connection.close()
                time.sleep(0.01)
                todo.put(index)
    except BaseException as exc:  # reported by the test, not lost in the thread
        failures.append(exc)
    finally:
        connection.close()


def play(run: SimulationRun, workers: int) -> SimulationRun:
    """Play every chunk with ``workers`` threads taking chunks from one queue, each on its
    own database connection, as Celery workers take tasks from the broker."""
    todo: queue.Queue[int] = queue.Queue()
    for index in range(run.chunks_total):
        todo.put(index)
    failures: list[BaseException] = []
    threads = [
        threading.Thread(target=_worker, args=(run.pk, todo, failures), name=f"w{n}")
        for n in range(workers)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not failures, failures
    run.refresh_from_db()
    return run


@pytest.mark.django_db(transaction=True)
def test_the_results_are_the_same_whatever_the_chunk_size_and_the_number_of_workers(
    owner: Any,
) -> None:
    deck = unmatched_deck(owner)
    played_at_once = run_games(
        ENGINE, sim_deck_for(deck), ENGINE.params.clean(PARAMS), run_seed=SEED, start=0, count=GAMES
    )
    expected = run_results(played_at_once)

    results = {}
    for chunk_size, workers in [(1_000, 1), (3_333, 1), (10_000, 1), (1_000, 2), (3_333, 2)]:
        run = run_create(
            owner=owner,
            deck=deck,
            engine_slug="unmatched",
            params=PARAMS,
            games=GAMES,
            seed=SEED,
            chunk_size=chunk_size,
        )
        run = play(run, workers)
        assert run.status == RunStatus.SUCCEEDED, run.error
        assert run.chunks_done == run.chunks_total == -(-GAMES // chunk_size)
        if workers == 2:
            assert set(run.chunks.values_list("worker", flat=True)) == {"w0", "w1"}
        results[chunk_size, workers] = run.results

    for key, stored in results.items():
        assert stored == expected, f"chunks of {key[0]} with {key[1]} worker(s) differ"
    # Beyond equal values: the same JSON text, as the API serves it.
    assert len({json.dumps(stored) for stored in results.values()}) == 1
