"""Mattsan's goals (games/mattsan/goals.py): the compiled kernel's per-game values
(``MattsanEngine.goal_values``) against the reference, each game played alone
(``values_by_play``), game by game; then each goal's read at its boundaries, on games whose
deck order the test builds (``InOrder``: the opening hand is the first 5 cards, then each
turn draws one card and soul-charges the next one from the top of the deck)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from games.mattsan import goals, kernel
from games.mattsan.engine import ENGINE, MattsanEngine
from games.mattsan.golden import GOLDEN_DECK
from games.mattsan.metrics import OUTCOMES
from simulator.engine import compiled
from simulator.engine.goals import HIGHER, LOWER, Goal, goal_by_code, turn_limit, values_by_play
from simulator.engine.i18n import in_english
from simulator.engine.metrics import Metrics
from tests.games.mattsan.test_engine import DIGEST, InOrder, deck_of

GAMES = 2_000

#: parameter sets that reach every outcome between them: the defaults (mostly wins at turn
#: 6), a dummy that hits back (losses with no unit to re-place or by deck-out, soul draws), a
#: short game whose line-up often outlasts the turn limit (unfinished games, turns past the
#: limit), and a dummy deck short enough that a quarter of the wins are its deck-out
PARAM_SETS = [
    pytest.param({}, id="defaults"),
    pytest.param(
        {"dummy_damage": 6, "soul_draw": 2, "opening_without_unit": "wait", "opening": 3},
        id="hits-back",
    ),
    pytest.param(
        {"max_turns": 5, "dummy_hp_1": 9, "soul_charge_from": "hand", "trump_damage": 2},
        id="turn-limit",
    ),
    pytest.param({"dummy_deck": 5, "dummy_soul": 1, "trump_damage": 3}, id="dummy-deck-out"),
]

#: the turns each goal is compared at: early, its default, and one past the shortest limit
TURNS: dict[str, tuple[int | None, ...]] = {
    goals.WIN: (None,),
    goals.DEFEAT_TURN: (None,),
    goals.TRUMP_BY_TURN: (1, 3, 7),
    goals.NO_UNIT_IN_HAND: (1, 2, 7),
}


def goal(code: str) -> Goal:
    found = goal_by_code(ENGINE.goals, code)
    assert found is not None
    return found


# --- the kernel's values == the reference's, game by game -------------------------------------


def test_every_goal_has_turns_to_be_compared_at() -> None:
    assert set(TURNS) == {g.code for g in ENGINE.goals}


@pytest.mark.parametrize("params", PARAM_SETS)
def test_goal_values_equal_values_by_play_game_by_game(
    params: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DECKLAB_COMPILED", "1")
    assert compiled.available()
    p = ENGINE.prepare(GOLDEN_DECK, params)
    clean = ENGINE.params.clean(params)
    for g in ENGINE.goals:
        for turn in TURNS[g.code]:
            got = ENGINE.goal_values(p, clean, g, turn, 41, 3, GAMES)
            want = values_by_play(ENGINE, p, clean, g, turn, 41, 3, GAMES)
            assert got.dtype == np.int64 and got.shape == (GAMES,)
            differ = np.flatnonzero(got != want)
            assert not differ.size, f"{g.code} at {turn}: games {differ[:10] + 3} differ"


def test_the_comparison_is_worth_its_games() -> None:
    """Between them the parameter sets reach every outcome, and give each goal both of its
    values, or several."""
    outcomes: set[int] = set()
    for case in PARAM_SETS:
        params: dict[str, Any] = case.values[0]  # type: ignore[assignment]
        rows = kernel.per_game(ENGINE.prepare(GOLDEN_DECK, params).tables, 41, 3, GAMES)
        outcomes |= set(rows[:, kernel.R_OUTCOME].tolist())
    assert outcomes == set(range(len(OUTCOMES)))
    for g in ENGINE.goals:
        for turn in TURNS[g.code]:
            seen: set[int] = set()
            for case in PARAM_SETS:
                p = ENGINE.prepare(GOLDEN_DECK, case.values[0])  # type: ignore[arg-type]
                seen |= set(ENGINE.goal_values(p, {}, g, turn, 41, 3, GAMES).tolist())
            assert len(seen) >= 2, (g.code, turn, seen)


def test_goal_values_are_cut_anywhere_without_a_change() -> None:
    p = ENGINE.prepare(GOLDEN_DECK, {})
    whole = ENGINE.goal_values(p, {}, goal(goals.DEFEAT_TURN), None, 9, 0, 20_000)
    parts = [
        ENGINE.goal_values(p, {}, goal(goals.DEFEAT_TURN), None, 9, start, count)
        for start, count in ((0, 1), (1, 8_191), (8_192, 8_193), (16_385, 3_615))
    ]
    assert np.array_equal(whole, np.concatenate(parts))


def test_without_the_kernel_goal_values_plays_each_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DECKLAB_COMPILED", "0")
    p = ENGINE.prepare(GOLDEN_DECK, {})
    got = ENGINE.goal_values(p, {}, goal(goals.TRUMP_BY_TURN), 2, 5, 0, 300)
    assert np.array_equal(
        got, values_by_play(ENGINE, p, {}, goal(goals.TRUMP_BY_TURN), 2, 5, 0, 300)
    )


def test_a_goal_of_another_engine_is_played_game_by_game() -> None:
    stranger = Goal("drawn", "Cards drawn", HIGHER, "mean", lambda m, _t: m.sums["cards_drawn"])
    p = ENGINE.prepare(GOLDEN_DECK, {})
    got = ENGINE.goal_values(p, {}, stranger, None, 5, 0, 50)
    assert np.array_equal(got, values_by_play(ENGINE, p, {}, stranger, None, 5, 0, 50))
    assert got.min() >= 6  # the opening hand and turn 1's draw at least


def test_negative_seeds_and_game_indexes_are_refused() -> None:
    p = ENGINE.prepare(GOLDEN_DECK, {})
    with pytest.raises(ValueError, match="not negative"):
        ENGINE.goal_values(p, {}, goal(goals.WIN), None, 5, -1, 10)


# --- the goals as declared ----------------------------------------------------------------------


def test_the_engine_offers_four_goals_each_citing_its_digest_line() -> None:
    assert MattsanEngine.goals is goals.GOALS
    assert [g.code for g in ENGINE.goals] == [
        "win",
        "defeat_turn",
        "trump_by_turn",
        "no_unit_in_hand",
    ]
    lines = DIGEST.read_text(encoding="utf-8").splitlines()
    for g in ENGINE.goals:
        name, line = g.cite.split(":")
        assert name == "mattsan.md" and lines[int(line) - 1].strip(), g.code
        assert g.help and g.label
        assert ("%(turn)s" in g.label) == g.at_turn
        if g.at_turn:
            assert g.turn is not None and 1 <= g.turn <= turn_limit(ENGINE, {})
            assert "turn 3" in in_english(g.label, {"turn": 3})
    assert "castable by turn" in " ".join(lines[54:56])
    assert "Win:" in lines[16]


def test_directions_and_kinds() -> None:
    assert (goal(goals.WIN).direction, goal(goals.WIN).kind) == (HIGHER, "rate")
    assert (goal(goals.DEFEAT_TURN).direction, goal(goals.DEFEAT_TURN).kind) == (LOWER, "mean")
    assert goal(goals.TRUMP_BY_TURN).direction == HIGHER
    assert goal(goals.NO_UNIT_IN_HAND).direction == LOWER
    assert "turn limit + 1" in goal(goals.DEFEAT_TURN).help


# --- each read at its boundaries, on games built card by card -----------------------------------


def one_game(order: Sequence[str], **params: Any) -> Metrics:
    """The measures of the one game dealt exactly as ``order`` (top first)."""
    metrics = Metrics(games=1)
    ENGINE.play(ENGINE.prepare(deck_of(order), params), params, InOrder(), metrics)
    return metrics


def read(code: str, metrics: Metrics, turn: int | None = None) -> int:
    return goal(code).read(metrics, turn)


UNITS = ["Boss"] * 30
#: the dummy's 3 units of 6 HP fall to 2 attacks of 3 each: the last at turn 6
HOLDS_OUT = {"dummy_hp_1": 99, "dummy_deck": 60}


def test_a_line_up_defeated_at_turn_6_is_a_win_at_turn_6() -> None:
    m = one_game(UNITS)
    assert read(goals.WIN, m) == 1
    assert read(goals.DEFEAT_TURN, m) == 6


def test_a_line_up_standing_at_the_turn_limit_counts_as_the_limit_plus_one() -> None:
    m = one_game(UNITS, max_turns=5)  # one turn short of the defeat
    assert read(goals.WIN, m) == 0
    assert read(goals.DEFEAT_TURN, m) == 6
    m = one_game(UNITS, max_turns=6)
    assert (read(goals.WIN, m), read(goals.DEFEAT_TURN, m)) == (1, 6)


def test_a_win_by_the_dummys_deck_out_is_a_win_but_no_defeat_of_the_line_up() -> None:
    m = one_game(UNITS, dummy_deck=0)  # it cannot draw at its first turn
    assert read(goals.WIN, m) == 1
    assert read(goals.DEFEAT_TURN, m) == 31  # the default limit, 30, + 1


def test_our_deck_out_is_no_win() -> None:
    m = one_game(["Boss"] * 6, **HOLDS_OUT)  # turn 2 draws from an empty deck
    assert read(goals.WIN, m) == 0
    assert read(goals.DEFEAT_TURN, m) == 31


def test_an_opening_without_a_unit_loses_and_has_no_unit_in_hand_at_turn_1_only() -> None:
    m = one_game(["Peel"] * 6 + ["Boss"] * 24)
    assert (read(goals.WIN, m), read(goals.DEFEAT_TURN, m)) == (0, 31)
    assert read(goals.NO_UNIT_IN_HAND, m) == 1  # the default turn, 1
    assert read(goals.NO_UNIT_IN_HAND, m, 1) == 1
    assert read(goals.NO_UNIT_IN_HAND, m, 2) == 0  # the game is over: no hand looked at


def test_a_unit_drawn_at_turn_1_is_a_unit_in_hand() -> None:
    m = one_game(["Peel"] * 5 + ["Boss"] * 25)
    assert read(goals.NO_UNIT_IN_HAND, m, 1) == 0


def test_a_unit_on_the_field_is_not_a_unit_in_hand() -> None:
    # turn 1 places the only unit; turn 2 draws a trap (position 7), turn 3 a unit (9)
    m = one_game(["Boss"] + ["Peel"] * 8 + ["Boss"] * 21)
    assert [read(goals.NO_UNIT_IN_HAND, m, t) for t in (1, 2, 3)] == [0, 1, 0]


def test_waiting_for_a_unit_counts_each_turn_without_one() -> None:
    # turns 1 and 2 draw traps (positions 5, 7); turn 3 draws the first unit (position 9)
    m = one_game(["Peel"] * 9 + ["Boss"] * 21, opening_without_unit="wait")
    assert [read(goals.NO_UNIT_IN_HAND, m, t) for t in (1, 2, 3)] == [1, 1, 0]


def test_a_trump_cast_at_turn_2_is_cast_by_turn_2_not_by_turn_1() -> None:
    # Dash (cost 1) at position 7: turn 2's draw
    m = one_game(["Boss"] + ["Peel"] * 6 + ["Dash"] + ["Boss"] * 22)
    assert [read(goals.TRUMP_BY_TURN, m, t) for t in (1, 2, 3, 30)] == [0, 1, 1, 1]


def test_a_trump_costing_4_waits_for_the_fourth_soul_charge() -> None:
    # Ray (cost 4) in the opening hand; 1 soul charge a turn: payable from turn 4
    m = one_game(["Boss", "Ray"] + ["Peel"] * 28)
    assert [read(goals.TRUMP_BY_TURN, m, t) for t in (1, 3, 4)] == [0, 0, 1]
    assert read(goals.TRUMP_BY_TURN, m) == 0  # the default turn, 3


def test_a_turn_past_the_limit_reads_the_last_turn_played() -> None:
    m = one_game(["Boss", "Ray"] + ["Peel"] * 28, max_turns=4)
    assert read(goals.TRUMP_BY_TURN, m, 9) == 1
    assert read(goals.NO_UNIT_IN_HAND, m, 9) == 0
    m = one_game(["Boss", "Ray"] + ["Peel"] * 28, max_turns=3)
    assert read(goals.TRUMP_BY_TURN, m, 9) == 0


def test_a_game_over_before_its_trump_keeps_its_last_value() -> None:
    # no unit: lost at turn 1 before its main phase, so the free trump is never cast
    m = one_game(["Free"] + ["Peel"] * 28 + ["Boss"])
    assert [read(goals.TRUMP_BY_TURN, m, t) for t in (1, 5)] == [0, 0]


@pytest.mark.parametrize("code", [goals.TRUMP_BY_TURN, goals.NO_UNIT_IN_HAND])
def test_a_turn_before_turn_1_is_refused(code: str) -> None:
    m = one_game(UNITS)
    with pytest.raises(ValueError, match="from turn 1 on"):
        read(code, m, 0)
    p = ENGINE.prepare(GOLDEN_DECK, {})
    with pytest.raises(ValueError, match="from turn 1 on"):
        ENGINE.goal_values(p, {}, goal(code), 0, 1, 0, 10)
