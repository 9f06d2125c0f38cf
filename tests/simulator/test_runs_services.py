"""Runs through their services: what is refused and why (each field named), the per-player
limit, the frozen deck, and how chunks are stored: twice counts once, the last one finalises
the run exactly once, a cancelled run plays nothing more, a failing chunk fails the run."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from decks.models import Deck
from decks.services import deck_create, deck_update
from decks.specs import EntrySpec
from simulator.decks import sim_deck_for
from simulator.engine.engine import run_games
from simulator.models import ChunkStatus, RunChunk, RunStatus, SimulationRun
from simulator.selectors import engine_get
from simulator.serialise import sim_deck_from_json, sim_deck_to_json
from simulator.services import (
    CHUNK_BOUNDS,
    GAMES_BOUNDS,
    MAX_ACTIVE_RUNS,
    PARAM_BOOL,
    PARAM_UNKNOWN,
    PARAM_WHOLE_RANGE,
    SEED_BOUNDS,
    UNKNOWN_ENGINE,
    RunError,
    run_cancel,
    run_chunk_execute,
    run_create,
    run_replay,
    run_results,
)
from tests.catalog.factories import CardFactory, CardSetFactory, GameFactory, PrintingFactory
from tests.simulator.fake_games import countdown
from tests.simulator.fake_games._builders import WITH_FAKE_GAMES, countdown_deck, unmatched_deck

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fake_games() -> Iterator[None]:
    with WITH_FAKE_GAMES:
        yield


def start(owner: Any, deck: Any = None, **kwargs: Any) -> SimulationRun:
    values: dict[str, Any] = {"engine_slug": "countdown", "params": {}, "games": 1_000, "seed": 7}
    values.update(kwargs)
    return run_create(owner=owner, deck=deck or countdown_deck(owner), **values)


def play_all(run: SimulationRun, order: list[int] | None = None) -> SimulationRun:
    for index in order if order is not None else range(run.chunks_total):
        run_chunk_execute(run_id=run.pk, index=index, worker="test")
    run.refresh_from_db()
    return run


def reference(run: SimulationRun) -> dict[str, Any]:
    """The run's results played in one go, in this process."""
    engine = engine_get(run.engine)
    assert engine is not None
    deck = sim_deck_from_json(run.deck_data)
    metrics = run_games(engine, deck, run.params, run_seed=run.seed, start=0, count=run.games)
    return run_results(metrics)


# --- creating ---------------------------------------------------------------------------------


def frozen_deck(owner: Any) -> Deck:
    """Three units written out here, so the frozen deck below can be written out too: made
    out of name order, one pinned to a printing, one printed twice but left unpinned."""
    game = GameFactory(slug="countdown")
    first, second = (CardSetFactory(game=game, code=code) for code in ("CDA", "CDB"))
    bear = CardFactory(
        game=game, code="CD-1", name_en="Cinder Bear", attributes={"hp": 3, "soul": 2}
    )
    fox = CardFactory(game=game, code="CD-2", name_en="Ash Fox", attributes={"hp": 1, "soul": 1})
    wolf = CardFactory(game=game, code="CD-3", name_en="Dune Wolf", attributes={"hp": 2, "soul": 0})
    pinned = PrintingFactory(card=bear, card_set=first, collector_number="012")
    PrintingFactory(card=fox, card_set=first, collector_number="030")
    PrintingFactory(card=fox, card_set=second, collector_number="101")
    entries = [
        EntrySpec(bear, "main", 2, pinned),
        EntrySpec(fox, "main", 2, None),
        EntrySpec(wolf, "main", 1, None),
    ]
    return deck_create(owner=owner, game=game, name="Frozen", entries=entries)


#: ``frozen_deck`` as a run keeps it: in English name order, each card with its attributes
#: and every printing of it (set, number, variant, the printing's own attributes)
FROZEN_DECK_DATA = {
    "format": 2,
    "game": "countdown",
    "draw_zone": "main",
    "cards": [
        {
            "code": "CD-2",
            "name": "Ash Fox",
            "card_type": "unit",
            "attributes": {"hp": 1, "soul": 1},
            "variant": "",
            "printings": [["CDA", "030", "", {}], ["CDB", "101", "", {}]],
        },
        {
            "code": "CD-1",
            "name": "Cinder Bear",
            "card_type": "unit",
            "attributes": {"hp": 3, "soul": 2},
            "variant": "",
            "printings": [["CDA", "012", "", {}]],
        },
        {
            "code": "CD-3",
            "name": "Dune Wolf",
            "card_type": "unit",
            "attributes": {"hp": 2, "soul": 0},
            "variant": "",
            "printings": [],
        },
    ],
    "zones": [["main", [[0, 2], [1, 2], [2, 1]]]],
    "extras": {},
}


def test_a_run_freezes_the_decks_latest_revision_and_splits_its_games(owner: Any) -> None:
    deck = frozen_deck(owner)
    deck_update(deck=deck, user=owner, expected_version=deck.version, name="Renamed")

    run = start(owner, deck, games=10_500, chunk_size=2_500)

    assert run.status == RunStatus.QUEUED
    assert run.revision is not None and run.revision.number == 2 == run.revision_number
    assert run.deck_data == FROZEN_DECK_DATA
    assert run.deck_name == "Renamed"
    assert (run.engine, run.engine_version, run.seed) == ("countdown", 3, 7)
    assert run.params == {"opponent_hp": 20, "explode": False, "style": "calm"}
    chunks = list(run.chunks.order_by("index").values_list("index", "start", "count"))
    assert chunks == [
        (0, 0, 2500),
        (1, 2500, 2500),
        (2, 5000, 2500),
        (3, 7500, 2500),
        (4, 10000, 500),
    ]
    assert run.chunks_total == 5


def test_a_run_without_a_seed_gets_a_new_one_kept_for_replays(owner: Any) -> None:
    first, second = start(owner, seed=None), start(owner, seed=None)
    assert first.seed > 0 and second.seed > 0 and first.seed != second.seed


def test_every_bad_field_is_named_with_its_reason_at_once(owner: Any) -> None:
    with pytest.raises(RunError) as refused:
        start(
            owner,
            games=0,
            seed=-1,
            chunk_size=5,
            params={"opponent_hp": 500, "explode": "maybe", "colour": "red"},
        )

    errors = refused.value.errors
    assert errors["games"] == [GAMES_BOUNDS % {"min": 1, "max": "1,000,000"}]
    assert errors["seed"] == [SEED_BOUNDS % {"max": 2**63 - 1}]
    assert errors["chunk_size"] == [CHUNK_BOUNDS % {"min": 100, "max": 1_000_000}]
    assert errors["params"] == {
        "opponent_hp": [PARAM_WHOLE_RANGE % {"min": "1", "max": "100"}],
        "explode": [PARAM_BOOL],
        "colour": [PARAM_UNKNOWN],
    }
    assert not SimulationRun.objects.exists()


def test_an_unknown_engine_or_one_of_another_game_is_refused(owner: Any) -> None:
    with pytest.raises(RunError) as unknown:
        start(owner, engine_slug="chess")
    assert unknown.value.errors == {"engine": [UNKNOWN_ENGINE]}

    with pytest.raises(RunError) as other_game:
        start(owner, engine_slug="unmatched")
    assert list(other_game.value.errors) == ["engine"]


def test_a_deck_the_engine_cannot_play_is_refused_with_its_problems(owner: Any) -> None:
    with pytest.raises(RunError) as refused:
        start(owner, countdown_deck(owner, cards=3))
    assert [str(m) for m in refused.value.errors["deck"]] == ["The deck needs at least five cards."]


def test_a_player_has_at_most_three_runs_going_and_cancelling_one_frees_a_place(
    owner: Any, stranger: Any
) -> None:
    deck = countdown_deck(owner)
    runs = [start(owner, deck) for _ in range(MAX_ACTIVE_RUNS)]

    with pytest.raises(RunError) as refused:
        start(owner, deck)
    assert refused.value.code == "too_many_runs"
    assert "3" in str(refused.value.errors["non_field_errors"][0])
    start(stranger, countdown_deck(stranger))  # the limit is per player

    assert run_cancel(run=runs[0])
    start(owner, deck)


def test_a_finished_run_does_not_count_against_the_limit(owner: Any) -> None:
    deck = countdown_deck(owner)
    for _ in range(MAX_ACTIVE_RUNS + 1):
        play_all(start(owner, deck))
    assert SimulationRun.objects.filter(status=RunStatus.SUCCEEDED).count() == 4


# --- chunks -----------------------------------------------------------------------------------


def test_a_chunk_executed_twice_counts_once(owner: Any) -> None:
    run = start(owner, games=1_000, chunk_size=400)

    assert run_chunk_execute(run_id=run.pk, index=1, worker="a") is True
    assert run_chunk_execute(run_id=run.pk, index=1, worker="b") is False

    run.refresh_from_db()
    assert (run.status, run.chunks_done, run.games_done) == (RunStatus.RUNNING, 1, 400)
    chunk = RunChunk.objects.get(run=run, index=1)
    assert (chunk.status, chunk.worker, chunk.attempts) == (ChunkStatus.DONE, "a", 1)
    assert chunk.metrics is not None and chunk.metrics["games"] == 400


def test_the_last_chunk_finalises_the_run_exactly_once(owner: Any) -> None:
    run = play_all(start(owner, games=1_000, chunk_size=300))

    assert (run.status, run.chunks_done, run.games_done, run.progress) == (
        RunStatus.SUCCEEDED,
        4,
        1_000,
        100,
    )
    assert run.results == reference(run)
    # known without playing: the Countdown deck's ten cards deal 1, 2, 3, 1, 2, 3, 1, 2, 3, 1,
    # so every game draws all ten and deals 19, one short of the opponent's 20 HP
    metrics = run.results["metrics"]
    assert (metrics["games"], metrics["counts"]["fell"]) == (1_000, 0)
    assert metrics["sums"]["cards_drawn"] == 10 * 1_000
    assert metrics["sums"]["damage_by_turn_10"] == 19 * 1_000
    assert run.started_at is not None and run.finished_at is not None
    finished, results = run.finished_at, run.results

    assert [run_chunk_execute(run_id=run.pk, index=i) for i in range(4)] == [False] * 4
    run.refresh_from_db()
    assert (run.finished_at, run.results, run.chunks_done) == (finished, results, 4)


def test_the_results_do_not_depend_on_the_order_the_chunks_are_played_in(owner: Any) -> None:
    deck = countdown_deck(owner)
    in_order = play_all(start(owner, deck, games=2_000, chunk_size=300))
    shuffled = play_all(start(owner, deck, games=2_000, chunk_size=300), [6, 2, 0, 5, 1, 4, 3])
    assert in_order.results == shuffled.results


def test_a_cancelled_run_plays_no_more_chunks(owner: Any) -> None:
    run = start(owner, games=1_000, chunk_size=500)
    run_chunk_execute(run_id=run.pk, index=0)
    assert run_cancel(run=run)

    assert run_chunk_execute(run_id=run.pk, index=1) is False
    run.refresh_from_db()
    assert (run.status, run.chunks_done) == (RunStatus.CANCELLED, 1)
    # never left "pending" (or "running") for good
    assert RunChunk.objects.get(run=run, index=1).status == ChunkStatus.SKIPPED
    assert not run_cancel(run=run)


def test_a_failing_chunk_fails_the_run_with_the_reason(owner: Any) -> None:
    run = start(owner, params={"explode": True})

    with pytest.raises(countdown.Exploded):
        run_chunk_execute(run_id=run.pk, index=0)

    run.refresh_from_db()
    assert run.status == RunStatus.FAILED
    assert "Exploded: asked to fail" in run.error
    assert run_chunk_execute(run_id=run.pk, index=0) is False  # a redelivery does nothing


def test_a_run_whose_engine_changed_since_fails_rather_than_mixing_versions(
    owner: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = start(owner)
    monkeypatch.setattr(countdown.CountdownEngine, "version", 4)

    assert run_chunk_execute(run_id=run.pk, index=0) is False
    run.refresh_from_db()
    assert run.status == RunStatus.FAILED and "v3" in run.error


def test_a_replay_plays_the_same_games_even_after_the_deck_changed(owner: Any) -> None:
    deck = countdown_deck(owner)
    original = play_all(start(owner, deck, games=1_500, chunk_size=500, seed=None))
    card = deck.entries.first()
    assert card is not None
    card.delete()  # the deck changes; the run keeps the deck it played

    again = play_all(run_replay(run=original, owner=owner))

    assert again.pk != original.pk
    assert (again.seed, again.deck_data, again.revision_id) == (
        original.seed,
        original.deck_data,
        original.revision_id,
    )
    assert again.results == original.results


def test_a_deck_survives_the_json_round_trip_exactly(owner: Any) -> None:
    deck = sim_deck_for(unmatched_deck(owner))
    assert sim_deck_from_json(sim_deck_to_json(deck)) == deck
