"""Mattsan's compiled batch kernel (games/mattsan/kernel.py) against the state API, the
reference: game by game (one row of measures per game, ``kernel.per_game``) on 10,000 seeds
per parameter set, on edge decks (1 and 3 cards, deck-out, turn limits, opening larger than
the deck) and on random parameter sets drawn from the engine's ParamSpec; then the totals:
``play_games`` compiled == the Python batch path (``DECKLAB_COMPILED=0``) == the state API's
``record_game``, however a run is cut; and the fallback's log line."""

from __future__ import annotations

import logging
import random
from typing import Any

import pytest

from games.mattsan import kernel
from games.mattsan.engine import ENGINE, python_batch
from games.mattsan.golden import GOLDEN_DECK
from games.mattsan.metrics import OUTCOMES
from games.mattsan.prepared import MattsanPrepared
from games.mattsan.state import MattsanState
from simulator.engine import compiled
from simulator.engine.cards import SimDeck
from simulator.engine.engine import run_games
from simulator.engine.metrics import Metrics
from simulator.engine.rng import game_rng
from tests.games.mattsan.test_engine import CARDS, deck_of

SEEDS = 10_000

#: every choice and switch of the ParamSpec away from its default at least once
PARAM_SETS = [
    pytest.param({}, id="defaults"),
    pytest.param(
        {"dummy_damage": 5, "dummy_hp_4": 9, "soul_draw": 2, "unit_order": "lowest_hp"},
        id="hits-back-lowest",
    ),
    pytest.param(
        {"trump_damage": 3, "trump_target": "whole_field", "replace_from": "hand"}, id="whole"
    ),
    pytest.param(
        {"trump_damage": 2, "trump_target": "enemy_field", "dummy_soul": 4, "dummy_deck": 6},
        id="enemy-field",
    ),
    pytest.param(
        {
            "soul_charge_from": "hand",
            "soul_untaps": False,
            "opening_without_unit": "wait",
            "opening": 2,
            "fill_bench": False,
            "dummy_deck": 4,
        },
        id="hand-wait",
    ),
    pytest.param(
        {
            "soul_charge": 3,
            "trump_damage": 5,
            "dummy_damage": 9,
            "dummy_hp_1": 40,
            "dummy_hp_2": 0,
            "dummy_hp_3": 30,
            "max_turns": 6,
            "soul_draw": 3,
        },
        id="long-fight",
    ),
    pytest.param({"dummy_hp_1": 60, "dummy_hp_2": 60, "max_turns": 8}, id="turn-limit"),
]


def state_row(state: MattsanState) -> list[int]:
    """A finished state's measures in the kernel's row layout (read from the state itself,
    not through the kernel's code)."""
    turns = state.prepared.max_turns
    row = [0] * kernel.row_width(turns)
    row[kernel.R_OUTCOME] = OUTCOMES.index(state.outcome)
    row[kernel.R_SIMULTANEOUS] = int(state.simultaneous)
    row[kernel.R_TURN] = state.turn
    row[kernel.R_FIRST_TRUMP] = state.first_trump
    row[kernel.R_DEFEATED] = state.dummy_defeated
    row[kernel.R_DRAWN] = state.drawn
    row[kernel.R_SOUL_DRAWN] = state.soul_drawn
    for turn in state.no_unit_turns:
        row[kernel.R_TURNS + turn - 1] = 1
    for offset, values in ((turns, state.souls), (2 * turns, state.casts)):
        padded = values + [values[-1]] * (turns - len(values))
        row[kernel.R_TURNS + offset : kernel.R_TURNS + offset + turns] = padded
    return row


def state_api_rows(p: MattsanPrepared, run_seed: int, count: int) -> list[list[int]]:
    """Games 0 .. count - 1 through the state API alone (new_game, choose, apply)."""
    rows = []
    for index in range(count):
        state = ENGINE.new_game(p, {}, game_rng(run_seed, index))
        while not state.is_over():
            state.apply(ENGINE.choose(state))
        rows.append(state_row(state))
    return rows


def assert_same_games(p: MattsanPrepared, run_seed: int, count: int) -> None:
    got = kernel.per_game(p.tables, run_seed, 0, count).tolist()
    want = state_api_rows(p, run_seed, count)
    for index, (one, other) in enumerate(zip(got, want, strict=True)):
        assert one == other, f"game {index} of run {run_seed}: kernel {one} != state API {other}"


def state_api_metrics(p: MattsanPrepared, run_seed: int, start: int, count: int) -> Metrics:
    metrics = Metrics(games=count)
    for index in range(start, start + count):
        state = ENGINE.new_game(p, {}, game_rng(run_seed, index))
        while not state.is_over():
            state.apply(ENGINE.choose(state))
        ENGINE.record(state, metrics)
    return metrics


# --- game by game ------------------------------------------------------------------------------


@pytest.mark.parametrize("params", PARAM_SETS)
def test_the_kernel_plays_the_state_apis_games_for_10000_seeds(params: dict[str, Any]) -> None:
    assert_same_games(ENGINE.prepare(GOLDEN_DECK, params), 31, SEEDS)


def test_the_parameter_sets_reach_every_outcome_and_rule() -> None:
    """The sets above are worth their seeds: between them every outcome happens, and the
    rare rules (simultaneous loss, soul draws, no unit in hand, trumps) show in the rows."""
    seen: set[str] = set()
    for case in PARAM_SETS:
        params: dict[str, Any] = case.values[0]  # type: ignore[assignment]
        rows = kernel.per_game(ENGINE.prepare(GOLDEN_DECK, params).tables, 31, 0, SEEDS)
        seen |= {OUTCOMES[o] for o in set(rows[:, kernel.R_OUTCOME].tolist())}
        if rows[:, kernel.R_SIMULTANEOUS].any():
            seen.add("simultaneous")
        if rows[:, kernel.R_SOUL_DRAWN].any():
            seen.add("soul draw")
        if rows[:, kernel.R_TURNS].any():
            seen.add("no unit on turn 1")
    assert seen == {*OUTCOMES, "simultaneous", "soul draw", "no unit on turn 1"}


EDGE_DECKS = [
    pytest.param(["Pika"], {}, id="1-card"),
    pytest.param(["Screw", "Peel", "Free"], {"opening": 1}, id="3-card"),
    pytest.param(["Junker", "Ray", "Base"], {"opening": 10, "soul_charge": 3}, id="3-card-all-in"),
    pytest.param(
        ["Giant", "Boss", "Chief", "Sale", "Peel"],
        {"dummy_hp_1": 99, "dummy_hp_2": 99, "dummy_deck": 60, "max_turns": 60},
        id="deck-out",
    ),
    pytest.param(
        ["Giant", "Junker", "Dash", "Peel"] * 5,
        {"dummy_hp_1": 99, "dummy_deck": 60, "max_turns": 4, "soul_charge": 0},
        id="turn-limit",
    ),
    pytest.param(["Boss", "Free", "Peel"] * 4, {"max_turns": 1}, id="one-turn"),
    pytest.param(
        ["Screw", "Screw", "Pika", "Free", "Peel", "Base"] * 3,
        {
            "dummy_damage": 1,
            "soul_charge_from": "hand",
            "opening_without_unit": "wait",
            "opening": 1,
            "replace_from": "hand",
        },
        id="screws-wait",
    ),
    pytest.param(
        ["Giant", "Screw", "Ray", "Sale", "Free", "Dash"] * 4,
        {
            "trump_damage": 15,
            "trump_target": "whole_field",
            "dummy_soul": 9,
            "soul_draw": 3,
            "dummy_deck": 2,
        },
        id="simultaneous",
    ),
    pytest.param(
        ["Chief", "Boss", "Pika", "Junker", "Peel"] * 3,
        {"dummy_damage": 30, "dummy_deck": 0, "soul_draw": 0, "dummy_soul": 0},
        id="dummy-empty-deck",
    ),
]


@pytest.mark.parametrize(("order", "params"), EDGE_DECKS)
def test_the_kernel_plays_the_state_apis_games_on_edge_decks(
    order: list[str], params: dict[str, Any]
) -> None:
    assert_same_games(ENGINE.prepare(deck_of(order), params), 7, 1_000)


def random_params(rng: random.Random) -> dict[str, Any]:
    """Any values the ParamSpec allows (its bounds and choices)."""
    out: dict[str, Any] = {}
    for param in ENGINE.params.params:
        if param.kind == "int":
            assert param.minimum is not None and param.maximum is not None
            top = min(param.maximum, 12) if param.name.startswith("dummy_hp") else param.maximum
            out[param.name] = rng.randint(int(param.minimum), int(top))
        elif param.kind == "bool":
            out[param.name] = rng.random() < 0.5
        else:
            out[param.name] = rng.choice([value for value, _label in param.choices])
    return out


def random_deck(rng: random.Random) -> SimDeck:
    names = sorted(CARDS)
    units = [n for n in names if CARDS[n][0] == "unit"]
    order = [rng.choice(units)] + [rng.choice(names) for _ in range(rng.randint(0, 29))]
    rng.shuffle(order)
    return deck_of(order)


def test_the_kernel_plays_the_state_apis_games_for_random_decks_and_parameters() -> None:
    rng = random.Random(2026)
    for case in range(300):
        deck, params = random_deck(rng), random_params(rng)
        p = ENGINE.prepare(deck, params)
        got = kernel.per_game(p.tables, case, 0, 40).tolist()
        assert got == state_api_rows(p, case, 40), (case, params, deck.pile())


# --- totals ------------------------------------------------------------------------------------


@pytest.mark.parametrize("params", PARAM_SETS)
def test_play_games_compiled_equals_the_python_batch_and_the_state_api_however_cut(
    params: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    p = ENGINE.prepare(GOLDEN_DECK, params)
    clean = ENGINE.params.clean(params)
    reference = state_api_metrics(p, 17, 0, 1_500).to_json()
    for cuts in ((1_500,), (1, 999, 500), (700, 1, 1, 798)):
        for switch in ("1", "0"):
            monkeypatch.setenv("DECKLAB_COMPILED", switch)
            total, start = Metrics(), 0
            for count in cuts:
                total.merge(ENGINE.play_games(p, clean, 17, start, count))
                start += count
            assert total.to_json() == reference, (cuts, switch)


def test_run_games_gives_the_same_metrics_on_either_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DECKLAB_COMPILED", "1")
    fast = run_games(ENGINE, GOLDEN_DECK, {}, run_seed=3, start=5, count=2_345)
    monkeypatch.setenv("DECKLAB_COMPILED", "0")
    slow = run_games(ENGINE, GOLDEN_DECK, {}, run_seed=3, start=5, count=2_345)
    assert fast.to_json() == slow.to_json()
    assert fast.games == 2_345


def test_an_empty_batch_is_empty_metrics_on_either_path() -> None:
    p = ENGINE.prepare(GOLDEN_DECK, {})
    assert python_batch(p, 1, 0, 0).to_json() == Metrics().to_json()
    assert ENGINE.play_games(p, {}, 1, 0, 0).to_json() == Metrics().to_json()


def test_the_fallback_says_so_once_in_the_log(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("DECKLAB_COMPILED", "0")
    monkeypatch.setattr(compiled, "_noticed", set())
    p = ENGINE.prepare(GOLDEN_DECK, {})
    with caplog.at_level(logging.INFO, logger="simulator.engine.compiled"):
        ENGINE.play_games(p, {}, 1, 0, 10)
        ENGINE.play_games(p, {}, 1, 10, 10)
    notices = [r for r in caplog.records if "mattsan" in r.getMessage()]
    assert len(notices) == 1
    assert "Python batch path" in notices[0].getMessage()


def test_the_compiled_path_logs_no_fallback(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("DECKLAB_COMPILED", "1")
    monkeypatch.setattr(compiled, "_noticed", set())
    with caplog.at_level(logging.INFO, logger="simulator.engine.compiled"):
        ENGINE.play_games(ENGINE.prepare(GOLDEN_DECK, {}), {}, 1, 0, 10)
    assert not caplog.records


def test_warm_compiles_the_kernel_and_the_prepared_deck_keeps_its_arrays() -> None:
    ENGINE.warm()
    p = ENGINE.prepare(GOLDEN_DECK, {})
    assert p.tables.pile.tolist() == list(p.pile)
    assert kernel.play_batch.signatures  # type: ignore[attr-defined]  # compiled or loaded
