"""Deck tunings as jobs: created from a deck, raced in rounds of runs, the same on one worker
or two, cancellable, their moves kept legal by the decks app's checker, and applied as a new
revision. Played on the toy game Countdown (tests/simulator/fake_games/countdown/), where a
card deals its ``hp`` in damage when drawn, so the best move is known by construction: cut
the weakest card for the strongest candidate."""

from __future__ import annotations

import queue
import threading
import time
from typing import Any

import pytest
from django.db import connection

from catalog.models import Card
from decks.models import Deck, DeckRevision
from decks.services import deck_create
from decks.specs import EntrySpec
from simulator.engine.tuning import Move, RaceState
from simulator.models import ChunkStatus, RunChunk, RunStatus, SimulationRun, TuningJob
from simulator.services import TRANSIENT_DB_ERRORS, RunError, run_cancel, run_chunk_execute
from simulator.tuning.report import CLOSE, DROPPED, LEADER, tuning_report
from simulator.tuning.services import tuning_apply, tuning_cancel, tuning_create
from tests.catalog.factories import CardFactory, GameFactory
from tests.simulator.fake_games._builders import COUNTDOWN, WITH_FAKE_GAMES

pytestmark = pytest.mark.django_db(transaction=True)

SEED = 8_675_309
MAX_RETRIES = 200


@pytest.fixture(autouse=True)
def _fake_games() -> Any:
    with WITH_FAKE_GAMES:
        yield


def _deck(owner: Any, hps: list[int], *, copies: int = 1) -> tuple[Deck, list[Card]]:
    game = GameFactory(slug=COUNTDOWN)
    cards = [
        CardFactory(
            game=game, card_type="unit", code=f"cd-{n:02d}", attributes={"hp": hp, "soul": 1}
        )
        for n, hp in enumerate(hps)
    ]
    entries = [EntrySpec(card, "main", copies, None) for card in cards]
    deck = deck_create(owner=owner, game=game, name="Tuned", entries=entries)
    return deck, cards


def _candidate(code: str, hp: int, name: str = "") -> Card:
    game = GameFactory(slug=COUNTDOWN)
    card: Card = CardFactory(
        game=game,
        card_type="unit",
        code=code,
        name_en=name or code,
        attributes={"hp": hp, "soul": 1},
    )
    return card


def _worker(todo: queue.Queue[tuple[int, int]], failures: list[BaseException]) -> None:
    retries = 0
    try:
        while True:
            try:
                run_id, index = todo.get(timeout=0.5)
            except queue.Empty:
                return
            try:
                run_chunk_execute(
                    run_id=run_id, index=index, worker=threading.current_thread().name
                )
            except TRANSIENT_DB_ERRORS:
                retries += 1
                if retries > MAX_RETRIES:
                    raise
                connection.close()
                time.sleep(0.01)
                todo.put((run_id, index))
    except BaseException as exc:
        failures.append(exc)
    finally:
        connection.close()


def play(job: TuningJob, workers: int) -> TuningJob:
    """Play the job's rounds to the end with ``workers`` threads, each on its own database
    connection, round after round as the workers would (a round is queued by the worker that
    stores the previous round's last chunk)."""
    for _round in range(40):
        job.refresh_from_db()
        if job.is_finished:
            return job
        run = SimulationRun.objects.filter(tuning=job, status__in=["queued", "running"]).get()
        todo: queue.Queue[tuple[int, int]] = queue.Queue()
        for index in range(run.chunks_total):
            todo.put((run.pk, index))
        failures: list[BaseException] = []
        threads = [
            threading.Thread(target=_worker, args=(todo, failures), name=f"w{n}")
            for n in range(workers)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        assert not failures, failures
    raise AssertionError("the tuning did not finish in 40 rounds")


def _ranking(job: TuningJob) -> list[tuple[Any, ...]]:
    report = tuning_report(job)
    return [
        (row.index, row.standing, row.games, row.effect.value, row.effect.low, row.effect.high)
        for row in report.rows
    ]


def test_the_best_move_is_ranked_first_and_the_same_on_one_worker_or_two(owner: Any) -> None:
    deck, _cards = _deck(owner, [1, 4, 5, 6, 7, 2, 8, 9, 3, 6])
    _candidate("strong", 10)
    _candidate("middling", 5)
    results = []
    for workers in (1, 2):
        job = tuning_create(
            owner=owner,
            deck=deck,
            goal="damage",
            turn=3,
            source="list",
            cards=["strong", "middling"],
            budget_games=600_000,
            seed=SEED,
        )
        job = play(job, workers)
        assert job.status == RunStatus.SUCCEEDED, job.error
        report = tuning_report(job)
        best = report.rows[0]
        assert best.standing == LEADER
        assert (best.cut and best.cut.code, best.add and best.add.code) == ("cd-00", "strong")
        assert best.effect.low > 0
        results.append((job.state, _ranking(job)))
    assert results[0] == results[1]


def test_a_race_spends_no_more_than_its_budget_and_saves_games(owner: Any) -> None:
    deck, _cards = _deck(owner, [1, 4, 5, 6, 7, 2, 8, 9, 3, 6])
    _candidate("strong", 10)
    job = tuning_create(
        owner=owner,
        deck=deck,
        goal="damage",
        turn=3,
        source="list",
        cards=["strong"],
        budget_games=200_000,
        seed=SEED,
    )
    job = play(job, 1)
    state = RaceState.from_json(job.state)
    assert state.spent <= job.budget
    assert state.saved() > 0
    rounds = SimulationRun.objects.filter(tuning=job)
    assert rounds.count() == state.rounds
    assert all(run.status == RunStatus.SUCCEEDED for run in rounds)
    # every round's games follow the last: the race plays games 0 .. games - 1 once each
    assert sum(run.games for run in rounds) == state.games
    dropped = [row for row in tuning_report(job).rows if row.standing == DROPPED]
    assert dropped and all(row.games <= state.games for row in dropped)
    assert any(row.games < state.games for row in dropped)


def test_a_move_that_changes_nothing_differs_by_exactly_zero(owner: Any) -> None:
    deck, _cards = _deck(owner, [1, 4, 5, 6, 7, 2, 8, 9, 3, 6])
    job = tuning_create(
        owner=owner,
        deck=deck,
        goal="damage",
        turn=3,
        source="list",
        cards=["cd-04"],
        budget_games=50_000,
        seed=SEED,
    )
    # every card of the deck is a candidate here: "cut cd-04 for cd-04" is not a move, but
    # the same card swapped for a copy of itself elsewhere in the pile is
    moves = [Move(*m) for m in job.moves]
    assert Move("cd-04", "cd-04") not in moves
    job.moves = [["cd-04", "cd-04"], *job.moves]
    state = RaceState.start(len(job.moves), job.budget, 0.01)
    job.state = state.to_json()
    job.save(update_fields=["moves", "state"])
    SimulationRun.objects.filter(tuning=job).update(status=RunStatus.CANCELLED)
    from simulator.selectors import engine_get
    from simulator.tuning.services import _next_round

    _next_round(job, state, engine_get(COUNTDOWN))
    job.save()
    job = play(job, 1)
    row = next(r for r in tuning_report(job).rows if r.index == 0)
    assert (row.effect.value, row.effect.low, row.effect.high) == (0.0, 0.0, 0.0)
    assert row.games >= 200


def test_moves_that_would_break_a_deck_rule_are_left_out(owner: Any) -> None:
    # three copies of each card: a fourth copy of any of them breaks the copy limit (Countdown
    # is built as Mattsan is, mattsan.md), so only the new card may come in
    deck, _cards = _deck(owner, [1, 2, 3], copies=3)
    _candidate("fresh", 5)
    job = tuning_create(
        owner=owner,
        deck=deck,
        goal="damage",
        turn=3,
        source="list",
        cards=["fresh", "cd-01", "cd-02"],
        budget_games=20_000,
        seed=SEED,
    )
    moves = {tuple(m) for m in job.moves}
    assert all(add == "fresh" for _cut, add in moves), moves
    assert moves == {("cd-00", "fresh"), ("cd-01", "fresh"), ("cd-02", "fresh")}
    assert job.spec["illegal"] == 4


def test_pinned_cards_are_never_cut(owner: Any) -> None:
    deck, _cards = _deck(owner, [1, 2, 3, 4, 5])
    _candidate("fresh", 5)
    job = tuning_create(
        owner=owner,
        deck=deck,
        source="list",
        cards=["fresh"],
        pins=["cd-00", "cd-01"],
        budget_games=20_000,
        seed=SEED,
    )
    assert {cut for cut, _add in job.moves} == {"cd-02", "cd-03", "cd-04"}


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"goal": "nope"}, "goal"),
        ({"goal": "damage", "turn": 0}, "turn"),
        ({"goal": "damage", "turn": 61}, "turn"),
        ({"goal": "fall_turn", "turn": 3}, "turn"),
        ({"budget_games": 9_999}, "budget_games"),
        ({"budget_games": 10**9}, "budget_games"),
        ({"budget_seconds": 0.5}, "budget_seconds"),
        ({"budget_seconds": float("nan")}, "budget_seconds"),
        ({"budget_games": 20_000, "budget_seconds": 5}, "budget"),
        ({"seed": -1}, "seed"),
        ({"source": "theirs"}, "source"),
        ({"pins": ["not-in-deck"]}, "pins"),
        ({"cards": []}, "cards"),
        ({"cards": ["x"] * 201}, "cards"),
    ],
)
def test_it_refuses_a_bad_tuning_naming_the_field(
    owner: Any, fields: dict[str, Any], field: str
) -> None:
    deck, _cards = _deck(owner, [1, 2, 3, 4, 5])
    arguments = {"source": "list", "cards": ["cd-01"], **fields}
    with pytest.raises(RunError) as caught:
        tuning_create(owner=owner, deck=deck, **arguments)
    assert field in caught.value.errors, caught.value.errors
    assert not TuningJob.objects.exists()


def test_a_typed_card_that_is_not_found_is_reported_by_line_with_a_suggestion(owner: Any) -> None:
    deck, _cards = _deck(owner, [1, 2, 3, 4, 5])
    _candidate("lance", 5, name="Thunder Lance")
    with pytest.raises(RunError) as caught:
        tuning_create(
            owner=owner, deck=deck, source="list", cards=["Thunder Lance", "", "Thunder Lanse"]
        )
    (message,) = caught.value.errors["cards"]
    assert "Line 3" in str(message) and "Thunder Lanse" in str(message)
    assert "Thunder Lance" in str(message)


def test_a_cancelled_tuning_stops_its_round_and_a_failed_round_ends_its_tuning(
    owner: Any,
) -> None:
    deck, _cards = _deck(owner, [1, 2, 3, 4, 5])
    _candidate("fresh", 5)
    job = tuning_create(
        owner=owner, deck=deck, source="list", cards=["fresh"], budget_games=50_000, seed=SEED
    )
    assert tuning_cancel(job=job)
    assert job.status == RunStatus.CANCELLED
    (run,) = SimulationRun.objects.filter(tuning=job)
    assert run.status == RunStatus.CANCELLED
    assert not RunChunk.objects.filter(run=run).exclude(status=ChunkStatus.SKIPPED).exists()
    assert not tuning_cancel(job=job)

    again = tuning_create(
        owner=owner, deck=deck, source="list", cards=["fresh"], budget_games=50_000, seed=SEED
    )
    (round_run,) = SimulationRun.objects.filter(tuning=again)
    run_cancel(run=round_run)  # cancelled from the runs' own page or API
    again.refresh_from_db()
    assert again.status == RunStatus.CANCELLED and again.finished_at is not None


def test_applying_a_move_makes_a_new_revision_and_refuses_a_stale_one(owner: Any) -> None:
    deck, _cards = _deck(owner, [1, 4, 5, 6, 7])
    _candidate("strong", 10)
    running = tuning_create(
        owner=owner, deck=deck, source="list", cards=["strong"], budget_games=100_000, seed=SEED
    )
    with pytest.raises(RunError) as early:
        tuning_apply(job=running, index=0, user=owner)
    assert "move" in early.value.errors  # not before the ranking stands
    tuning_cancel(job=running)
    job = play(
        tuning_create(
            owner=owner,
            deck=deck,
            goal="damage",
            turn=3,
            source="list",
            cards=["strong"],
            budget_games=100_000,
            seed=SEED,
        ),
        1,
    )
    best = tuning_report(job).rows[0]
    before = DeckRevision.objects.filter(deck=deck).count()
    tuning_apply(job=job, index=best.index, user=owner)
    assert DeckRevision.objects.filter(deck=deck).count() == before + 1
    held = dict(deck.entries.values_list("card__code", "quantity"))
    assert "cd-00" not in held and held["strong"] == 1
    with pytest.raises(RunError) as caught:
        tuning_apply(job=job, index=best.index, user=owner)  # cd-00 is gone now
    assert "move" in caught.value.errors
    with pytest.raises(RunError):
        tuning_apply(job=job, index=len(job.moves), user=owner)


def test_the_report_marks_moves_that_cannot_be_told_apart(owner: Any) -> None:
    # two candidates exactly as strong: the race can never separate them
    deck, _cards = _deck(owner, [1, 4, 5, 6, 7])
    _candidate("twin-a", 10)
    _candidate("twin-b", 10)
    job = play(
        tuning_create(
            owner=owner,
            deck=deck,
            goal="damage",
            turn=3,
            source="list",
            cards=["twin-a", "twin-b"],
            budget_games=100_000,
            seed=SEED,
        ),
        1,
    )
    rows = tuning_report(job).rows
    assert rows[0].standing == LEADER and rows[1].standing == CLOSE
    assert {rows[0].add and rows[0].add.code, rows[1].add and rows[1].add.code} == {
        "twin-a",
        "twin-b",
    }


def test_a_job_on_the_workers_races_exactly_as_the_race_in_one_process(owner: Any) -> None:
    """The rounds as runs (chunks, offsets, stores, the next round queued by the last store)
    give the very race ``simulator.engine.tuning.race`` plays in one process."""
    from simulator.decks import sim_deck_for
    from simulator.engine.tuning import race
    from simulator.selectors import engine_get
    from simulator.tuning.play import new_cards_from_json

    deck, _cards = _deck(owner, [1, 4, 5, 6, 7, 2, 8, 9, 3, 6])
    _candidate("strong", 10)
    _candidate("middling", 5)
    job = play(
        tuning_create(
            owner=owner,
            deck=deck,
            goal="damage",
            turn=3,
            source="list",
            cards=["strong", "middling"],
            sizes=True,
            budget_games=300_000,
            seed=SEED,
        ),
        2,
    )
    engine = engine_get(COUNTDOWN)
    assert engine is not None
    alone = race(
        engine,
        sim_deck_for(deck),
        [Move(*move) for move in job.moves],
        new_cards=new_cards_from_json(job.deck_data["new_cards"]),
        params=job.params,
        goal=engine.goals[0],
        turn=3,
        seed=SEED,
        budget=job.budget,
    )
    assert RaceState.from_json(job.state) == alone.state
    assert alone.state.rounds >= 3
