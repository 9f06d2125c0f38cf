"""What a chunk costs beyond its games: a fixed number of statements in two transactions (the
claim, which queues the player's next chunk, and the store), one read of the run per worker
and run, the engine's tables prepared once per run rather than once per chunk, and the chunk
measured in CPU time, which a loaded machine does not stretch, so the cost model does not cut
ever smaller chunks under load. The messages the supervisor would send are recorded instead."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import registry
from simulator import run_cache, supervisor
from simulator.engine.engine import run_games
from simulator.models import RunChunk, RunStatus, SimulationRun
from simulator.serialise import sim_deck_from_json
from simulator.services import run_chunk_execute, run_create, run_results
from tests.simulator.fake_games._builders import WITH_FAKE_GAMES, countdown_deck

pytestmark = pytest.mark.django_db(transaction=True)

#: statements a chunk sends after the first of its run on this worker (BEGIN and COMMIT
#: counted): claim (SET LOCAL, UPDATE) + feed (lock, count, pick, UPDATE), store (SET LOCAL,
#: lock, UPDATE chunk, UPDATE run) + look (count). SQLite has no SET LOCAL to send.
STATEMENTS = {"postgresql": 15, "sqlite": 13}
#: the first chunk of a run on a worker also reads the run and marks it running
FIRST_EXTRA = 2


@pytest.fixture(autouse=True)
def fake_games() -> Iterator[None]:
    with WITH_FAKE_GAMES:
        yield


@pytest.fixture(autouse=True)
def nothing_kept() -> Iterator[None]:
    run_cache.run_play_forget()
    yield
    run_cache.run_play_forget()


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    messages: list[tuple[int, int]] = []
    monkeypatch.setattr(supervisor, "_send", messages.extend)
    return messages


def countdown_run(owner: Any, games: int = 600, chunk_size: int = 100) -> SimulationRun:
    return run_create(
        owner=owner,
        deck=countdown_deck(owner),
        engine_slug="countdown",
        params={},
        games=games,
        seed=11,
        chunk_size=chunk_size,
    )


def statements(run: SimulationRun, index: int) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert run_chunk_execute(run_id=run.pk, index=index, worker="w@here")
    return len(queries)


def test_a_chunk_costs_a_fixed_number_of_statements_in_two_transactions(
    owner: Any, sent: list[tuple[int, int]]
) -> None:
    run = countdown_run(owner)
    expected = STATEMENTS[connection.vendor]
    assert statements(run, 0) == expected + FIRST_EXTRA
    assert [statements(run, index) for index in (1, 2, 3, 4)] == [expected] * 4
    # the claims kept the player's queue fed, one chunk ahead, in order
    assert sent == [(run.pk, index) for index in range(6)]
    # the last one has no next chunk to queue (no pick, no UPDATE) and reads the chunks'
    # metrics to finalise the run
    assert statements(run, 5) == expected - 2 + 1
    run.refresh_from_db()
    assert run.status == RunStatus.SUCCEEDED
    assert run.results == run_results(
        run_games(
            registry.engines()["countdown"],
            sim_deck_from_json(run.deck_data),
            run.params,
            run_seed=run.seed,
            start=0,
            count=run.games,
        )
    )


def counting_prepare(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every ``prepare`` of the Countdown engine, by the thread that called it."""
    engine = registry.engines()["countdown"]
    calls: list[int] = []
    original = type(engine).prepare

    def prepare(self: Any, deck: Any, params: dict[str, Any]) -> Any:
        calls.append(threading.get_ident())
        return original(self, deck, params)

    monkeypatch.setattr(type(engine), "prepare", prepare)
    return calls


def test_a_worker_prepares_a_runs_tables_once_for_all_the_chunks_it_plays(
    owner: Any, sent: list[tuple[int, int]], monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = counting_prepare(monkeypatch)
    run = countdown_run(owner)
    for index in (0, 1, 2):
        run_chunk_execute(run_id=run.pk, index=index, worker="w@here")
    assert len(calls) == 1

    # another worker thread builds its own (the tables are never shared by two chunks at once)
    other = threading.Thread(
        target=lambda: [run_chunk_execute(run_id=run.pk, index=i, worker="w@there") for i in (3, 4)]
    )
    other.start()
    other.join()
    connection.close()
    assert len(calls) == 2 and calls[0] != calls[1]

    # a second run is prepared for itself, and each run's results are its own games'
    second = countdown_run(owner, games=300)
    for index in range(3):
        run_chunk_execute(run_id=second.pk, index=index, worker="w@here")
    run_chunk_execute(run_id=run.pk, index=5, worker="w@here")
    assert len(calls) == 3
    for done in (run, second):
        done.refresh_from_db()
        assert done.status == RunStatus.SUCCEEDED
        assert done.results == run_results(
            run_games(
                registry.engines()["countdown"],
                sim_deck_from_json(done.deck_data),
                done.params,
                run_seed=done.seed,
                start=0,
                count=done.games,
            )
        )


def test_a_kept_run_whose_id_now_names_another_run_is_read_again(
    owner: Any, sent: list[tuple[int, int]]
) -> None:
    run = countdown_run(owner)
    run_chunk_execute(run_id=run.pk, index=0, worker="w@here")
    kept = run_cache.run_play_kept(run.pk)
    assert kept is not None
    # what a worker would keep of a run whose id was rolled back and given to this one
    kept.public_id, kept.seed = "another-run", 999
    assert run_chunk_execute(run_id=run.pk, index=1, worker="w@here")
    again = run_cache.run_play_kept(run.pk)
    assert again is not None and again.public_id == run.public_id and again.seed == run.seed


def slowed(monkeypatch: pytest.MonkeyPatch, seconds: float) -> Callable[[], float]:
    """The Countdown engine waits ``seconds`` in every batch, as a chunk on a machine busy with
    other work waits for a core; returns the wall time its batches took so far."""
    engine = registry.engines()["countdown"]
    original = type(engine).play_games
    waited = [0.0]

    def play_games(self: Any, *args: Any) -> Any:
        began = time.perf_counter()
        time.sleep(seconds)
        result = original(self, *args)
        waited[0] += time.perf_counter() - began
        return result

    monkeypatch.setattr(type(engine), "play_games", play_games)
    return lambda: waited[0]


def test_a_chunk_is_measured_in_cpu_time_which_a_busy_machine_does_not_stretch(
    owner: Any, sent: list[tuple[int, int]], monkeypatch: pytest.MonkeyPatch
) -> None:
    wall = slowed(monkeypatch, 0.3)
    run = countdown_run(owner, games=200)
    for index in (0, 1):
        run_chunk_execute(run_id=run.pk, index=index, worker="w@here")
    assert wall() >= 0.6
    seconds = list(RunChunk.objects.filter(run=run).values_list("seconds", flat=True))
    assert all(s is not None and s < 0.1 for s in seconds), seconds
    run.refresh_from_db()
    assert run.worker_seconds < 0.2
