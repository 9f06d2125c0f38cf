"""What a Monster Hunter deck is tuned for (games/monster_hunter/goals.py): the compiled
kernel's per-game rows (``MonsterHunterEngine.goal_values``) against ``values_by_play`` (each
game played alone by ``play`` and read from its own Metrics) game by game, and each goal's
read at its boundaries, from a finished game's Metrics and from its kernel row alike.

Pure Python and numba; no database. About 15 s once the kernel is in numba's cache."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from games.monster_hunter import engine as mh
from games.monster_hunter import kernel
from games.monster_hunter.constants import LIMIT, RETIRED, WIN
from games.monster_hunter.engine import ENGINE
from games.monster_hunter.goals import GOALS, HR_TURN, ROW_READS, WIN_TURN
from games.monster_hunter.golden import GOLDEN_DECK
from games.monster_hunter.metrics import record_game
from games.monster_hunter.state import MonsterHunterState
from simulator.engine import compiled
from simulator.engine.goals import HIGHER, LOWER, Goal, goal_by_code, turn_limit, values_by_play
from simulator.engine.metrics import Metrics

RULES = Path(__file__).resolve().parents[4] / "shared" / "rules" / "monster-hunter.md"
RUN_SEED = 23
GAMES = 2_000

#: the golden deck under parameters whose games end on many turns: wins from turn 5 to the
#: limit and games stopped at it; games retiring (the 3rd retreat, checked before the HR)
PARAM_SETS: dict[str, dict[str, Any]] = {
    "mixed line-up, 8 turns": {"lineup": "mixed", "max_turns": 8},
    "no discards, 10 turns": {"discard_policy": "none", "max_turns": 10},
    "retirements": {
        "lineup": "uniform",
        "lineup_hp": 1,
        "lineup_attack": 10,
        "lineup_reach": 6,
        "lineup_rank": 0,
        "restock": "all",
        "armor_policy": "never",
        "discard_policy": "dig",
        "approach": 1,
        "same_turn": "retire_first",
        "max_turns": 9,
    },
}


def goal(code: str) -> Goal:
    found = goal_by_code(GOALS, code)
    assert found is not None
    return found


def turns_of(g: Goal, max_turns: int) -> list[int | None]:
    """The turns a goal is compared at: its default, the first and the last turn."""
    return [None] if not g.at_turn else [None, 1, max_turns]


# --- the declarations --------------------------------------------------------------------------


def test_the_engine_offers_its_goals() -> None:
    assert ENGINE.goals is GOALS
    assert [g.code for g in GOALS] == ["hr_win_by", "hr_win_turn", "hr_by_turn"]
    assert set(ROW_READS) == {g.code for g in GOALS}


@pytest.mark.parametrize("g", GOALS, ids=lambda g: g.code)
def test_each_goal_is_labelled_directed_and_cited(g: Goal) -> None:
    assert g.direction in (HIGHER, LOWER) and g.kind in ("rate", "mean")
    assert ("%(turn)s" in g.label) == g.at_turn
    assert g.help
    file, line = g.cite.split(":")
    assert file == RULES.name
    cited = RULES.read_text().splitlines()[int(line) - 1]
    assert re.search(r"HR point", cited), cited


def test_the_default_turns_are_within_the_default_turn_limit() -> None:
    limit = turn_limit(ENGINE, ENGINE.params.clean({}))
    assert all(g.turn is None or 1 <= g.turn <= limit for g in GOALS)


# --- the kernel's rows against play, game by game ------------------------------------------------

needs_numba = pytest.mark.skipif(not compiled.available(), reason="numba is not installed")


@needs_numba
@pytest.mark.parametrize("raw", list(PARAM_SETS.values()), ids=list(PARAM_SETS))
def test_goal_values_from_the_kernel_equal_values_by_play_game_by_game(
    raw: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # rows read in slices of an odd size, so a slice boundary falls inside the games
    monkeypatch.setattr(mh, "GOAL_ROWS", 777)
    p = ENGINE.prepare(GOLDEN_DECK, raw)
    for g in GOALS:
        for turn in turns_of(g, p.max_turns):
            got = ENGINE.goal_values(p, raw, g, turn, RUN_SEED, 3, GAMES)
            expected = values_by_play(ENGINE, p, raw, g, turn, RUN_SEED, 3, GAMES)
            assert got.dtype == np.int64 and got.shape == (GAMES,)
            wrong = np.flatnonzero(got != expected)
            assert not wrong.size, (g.code, turn, [(3 + i, expected[i], got[i]) for i in wrong[:5]])


@needs_numba
def test_the_comparison_sees_wins_limits_and_retirements() -> None:
    """The parameter sets reach every way a game ends, so the comparison means something."""
    outcomes: set[int] = set()
    ends: set[int] = set()
    for raw in PARAM_SETS.values():
        rows = kernel.per_game(ENGINE.prepare(GOLDEN_DECK, raw).tables, RUN_SEED, 3, GAMES)
        outcomes.update(rows[:, kernel.R_OUTCOME].tolist())
        ends.update(rows[rows[:, kernel.R_OUTCOME] == kernel.O_WIN, kernel.R_END_TURN].tolist())
    assert outcomes == {kernel.O_WIN, kernel.O_RETIRED, kernel.O_LIMIT}
    assert {5, 6, 7, 8} <= ends


def test_without_numba_goal_values_plays_each_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DECKLAB_COMPILED", "0")
    raw = PARAM_SETS["mixed line-up, 8 turns"]
    p = ENGINE.prepare(GOLDEN_DECK, raw)
    g = goal("hr_by_turn")
    got = ENGINE.goal_values(p, raw, g, 4, RUN_SEED, 0, 40)
    assert got.tolist() == values_by_play(ENGINE, p, raw, g, 4, RUN_SEED, 0, 40).tolist()


@needs_numba
def test_no_games_have_no_values() -> None:
    p = ENGINE.prepare(GOLDEN_DECK, {})
    assert ENGINE.goal_values(p, {}, goal("hr_win_turn"), None, RUN_SEED, 0, 0).shape == (0,)


# --- each read at its boundaries ---------------------------------------------------------------


def finished(outcome: str, hr_by_turn: list[int], max_turns: int = 8) -> MonsterHunterState:
    """A game ended by ``outcome`` on turn ``len(hr_by_turn)``, its HR at the end of each
    turn as given (``_end`` and ``_result`` fill the series the same way)."""
    p = ENGINE.prepare(GOLDEN_DECK, {"max_turns": max_turns})
    state = MonsterHunterState(p, [], RUN_SEED)
    state.over = True
    state.outcome = outcome
    state.turn = state.end_turn = len(hr_by_turn)
    state.hr = hr_by_turn[-1]
    state.hr_hist = list(hr_by_turn)
    state.placed_hist = [min(t + 1, 4) for t in range(len(hr_by_turn))]
    return state


def both_reads(g: Goal, state: MonsterHunterState, turn: int | None) -> int:
    """The goal read from the game's Metrics, checked against its read off the kernel row."""
    metrics = Metrics(games=1)
    record_game(state, metrics)
    value = g.read(metrics, turn)
    row = np.asarray([kernel.state_row(state)], dtype=np.int64)
    assert ROW_READS[g.code](row, state.prepared.max_turns, turn).tolist() == [value]
    return value


WON_ON_6 = [2, 5, 9, 14, 19, 24]
LIMIT_AT_8 = [1, 3, 5, 7, 9, 11, 13, 15]
RETIRED_ON_4 = [2, 5, 9, 13]


@pytest.mark.parametrize(
    ("turn", "expected"), [(0, 0), (5, 0), (6, 1), (7, 1), (8, 1), (9, 1), (None, 1)]
)
def test_a_win_counts_from_its_turn_on(turn: int | None, expected: int) -> None:
    assert WIN_TURN == 6
    assert both_reads(goal("hr_win_by"), finished(WIN, WON_ON_6), turn) == expected


@pytest.mark.parametrize("turn", [1, 4, 8, 30, None])
def test_games_without_a_win_never_count_as_one(turn: int | None) -> None:
    g = goal("hr_win_by")
    assert both_reads(g, finished(LIMIT, LIMIT_AT_8), turn) == 0
    assert both_reads(g, finished(RETIRED, RETIRED_ON_4), turn) == 0


def test_the_win_turn_is_the_turn_of_the_win_else_the_limit_plus_one() -> None:
    g = goal("hr_win_turn")
    assert both_reads(g, finished(WIN, WON_ON_6), None) == 6
    assert both_reads(g, finished(WIN, WON_ON_6, max_turns=6), None) == 6
    assert both_reads(g, finished(LIMIT, LIMIT_AT_8), None) == 9
    # a game retired on turn 4 of 8 counts as never won: 9, not 5
    assert both_reads(g, finished(RETIRED, RETIRED_ON_4), None) == 9
    assert both_reads(g, finished(RETIRED, RETIRED_ON_4, max_turns=30), None) == 31
    # the turn a goal is read at does not change it
    assert both_reads(g, finished(WIN, WON_ON_6), 3) == 6


@pytest.mark.parametrize(
    ("turn", "expected"),
    [(0, 0), (1, 2), (5, 19), (6, 24), (7, 24), (8, 24), (9, 24), (60, 24), (None, 19)],
)
def test_hr_by_turn_keeps_the_last_value_after_the_end(turn: int | None, expected: int) -> None:
    assert HR_TURN == 5
    assert both_reads(goal("hr_by_turn"), finished(WIN, WON_ON_6), turn) == expected


@pytest.mark.parametrize(("turn", "expected"), [(1, 1), (8, 15), (9, 15), (100, 15)])
def test_hr_by_turn_past_the_limit_reads_the_limit(turn: int, expected: int) -> None:
    assert both_reads(goal("hr_by_turn"), finished(LIMIT, LIMIT_AT_8), turn) == expected
