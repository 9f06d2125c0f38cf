"""What a 央華封神 deck is tuned for (games/ouka_fushin/goals.py): ``OukaEngine.goal_values``
reads the compiled kernel's rows, and every goal's values equal the reference's
(``values_by_play``: each game played alone by ``Engine.play`` and read from its own
``Metrics``), game by game, on the demo product deck and on the golden deck under parameters
that reach the substitute and deck-outs; then each goal's read at its boundaries (shared/rules/
ouka-fushin.md lines 52, 56, 63 and 70), on hand-made rows and on real games. About 8 s."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from games.ouka_fushin import engine as engine_module
from games.ouka_fushin import kernel
from games.ouka_fushin.engine import ENGINE, OukaEngine
from games.ouka_fushin.goals import FIRST_CLIMAX_TURN, GOALS, ROW_READS
from games.ouka_fushin.golden import GOLDEN_DECK
from simulator.engine.cards import SimCard, SimDeck
from simulator.engine.goals import HIGHER, LOWER, Goal, goal_by_code, turn_limit, values_by_play
from tests.games.ouka_fushin.test_kernel import demo_deck, pool_deck

DIGEST = Path(__file__).resolve().parents[4] / "shared" / "rules" / "ouka-fushin.md"
#: (goal, turn) for every goal: the turn goal at the first turn, its default and a later one
CASES = [
    (goal, turn)
    for goal in GOALS
    for turn in ((1, FIRST_CLIMAX_TURN, 6) if goal.at_turn else (None,))
]
CASE_IDS = [f"{goal.code}@{turn}" for goal, turn in CASES]


def goal(code: str) -> Goal:
    found = goal_by_code(GOALS, code)
    assert found is not None
    return found


def assert_equal_game_by_game(
    deck: SimDeck, params: dict[str, Any], g: Goal, turn: int | None, seed: int, start: int, n: int
) -> np.ndarray[Any, np.dtype[np.int64]]:
    p = ENGINE.prepare(deck, params)
    assert kernel.tables(p) is not None  # the kernel's path, not the fallback
    got = ENGINE.goal_values(p, params, g, turn, seed, start, n)
    expected = values_by_play(ENGINE, p, params, g, turn, seed, start, n)
    assert got.dtype == np.int64 and got.shape == (n,)
    differ = np.nonzero(got != expected)[0]
    assert differ.size == 0, (
        f"games {differ[:5] + start}: {got[differ[:5]]} != {expected[differ[:5]]}"
    )
    return got


# --- the kernel's rows against the reference, game by game -----------------------------------


@pytest.mark.parametrize(("g", "turn"), CASES, ids=CASE_IDS)
def test_each_goal_reads_the_same_values_as_the_reference_on_the_demo_deck(
    g: Goal, turn: int | None
) -> None:
    values = assert_equal_game_by_game(demo_deck(), {}, g, turn, 2026, 0, 1500)
    if g.kind == "rate":
        assert set(values.tolist()) <= {0, 1}


@pytest.mark.parametrize(("g", "turn"), CASES, ids=CASE_IDS)
@pytest.mark.parametrize(
    "params",
    [
        {"mirror_match": "lose"},  # the substitute's 50 points and the rebuilt deck
        {"climax_min_points": 400},  # climaxes held until the deck runs out: many deck-outs
        {"hidden_success": "always", "max_turns": 4},  # games stopped at the turn limit
    ],
    ids=["substitute", "deck-outs", "turn-limit"],
)
def test_each_goal_reads_the_same_values_as_the_reference_on_the_golden_deck(
    g: Goal, turn: int | None, params: dict[str, Any]
) -> None:
    values = assert_equal_game_by_game(GOLDEN_DECK, params, g, turn, 7, 1000, 400)
    if g.code == "deck_out" and "climax_min_points" in params:
        assert values.sum() > 50  # the deck-out branch is really taken


def test_without_the_kernel_the_values_are_the_references(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    p = ENGINE.prepare(GOLDEN_DECK, {})
    compiled_values = ENGINE.goal_values(p, {}, goal("points_total"), None, 3, 0, 200)
    monkeypatch.setenv("DECKLAB_COMPILED", "0")

    def no_kernel(*args: object) -> None:
        raise AssertionError("the kernel was used with numba switched off")

    monkeypatch.setattr(kernel, "play_rows", no_kernel)
    assert ENGINE.goal_values(p, {}, goal("points_total"), None, 3, 0, 200).tolist() == (
        compiled_values.tolist()
    )


def test_a_deck_beyond_the_kernel_and_a_foreign_goal_are_played_by_the_reference() -> None:
    # two cards sharing a code: the kernel's tables refuse the deck (kernel._bits_fit)
    base = pool_deck(["Trip", "Tea", "Exorcism"] * 4)
    twin = SimCard(len(base.cards), "e-trip", "Trip", "story", dict(base.cards[0].attributes))
    zones = dict(base.zones)
    zones["main"] = (*zones["main"], (twin.index, 2))
    deck = SimDeck(base.game, (*base.cards, twin), zones, "main")
    p = ENGINE.prepare(deck, {})
    assert kernel.tables(p) is None
    total = goal("points_total")
    assert ENGINE.goal_values(p, {}, total, None, 5, 0, 50).tolist() == (
        values_by_play(ENGINE, p, {}, total, None, 5, 0, 50).tolist()
    )
    foreign = Goal("climaxes", "Climaxes", HIGHER, "mean", lambda m, t: m.sums["climaxes_played"])
    p = ENGINE.prepare(GOLDEN_DECK, {})
    assert ENGINE.goal_values(p, {}, foreign, None, 5, 0, 50).tolist() == (
        values_by_play(ENGINE, p, {}, foreign, None, 5, 0, 50).tolist()
    )


def test_any_split_of_the_games_gives_the_same_values(monkeypatch: pytest.MonkeyPatch) -> None:
    p = ENGINE.prepare(demo_deck(), {})
    for g, turn in CASES:
        whole = ENGINE.goal_values(p, {}, g, turn, 9, 10, 300)
        parts = [ENGINE.goal_values(p, {}, g, turn, 9, a, b - a) for a, b in ((10, 11), (11, 310))]
        assert np.concatenate(parts).tolist() == whole.tolist()
        # a big batch is read in slices of the kernel's rows
        monkeypatch.setattr(engine_module, "GOAL_SLICE", 7)
        assert ENGINE.goal_values(p, {}, g, turn, 9, 10, 300).tolist() == whole.tolist()
        monkeypatch.undo()
    assert ENGINE.goal_values(p, {}, GOALS[0], None, 9, 10, 0).shape == (0,)


# --- the goals as declared -----------------------------------------------------------------


def test_the_goals_are_declared_for_the_engine_and_cite_their_digest_lines() -> None:
    assert OukaEngine.goals == GOALS and 2 <= len(GOALS) <= 4
    assert len({g.code for g in GOALS}) == len(GOALS)
    assert set(ROW_READS) == {g.code for g in GOALS}
    lines = DIGEST.read_text(encoding="utf-8").splitlines() if DIGEST.exists() else []
    words = {
        "points_total": "Highest total",
        "points_margin": "gives the opponent 10",
        "deck_out": "deck is empty",
        "first_climax_by": "Climax: playable",
    }
    for g in GOALS:
        assert g.label and g.help and g.cite.startswith("ouka-fushin.md:")
        assert ("%(turn)s" in g.label) == g.at_turn
        assert g.direction == (LOWER if g.code == "deck_out" else HIGHER)
        if lines:
            assert words[g.code] in lines[int(g.cite.split(":")[1]) - 1]
    assert goal("first_climax_by").turn == FIRST_CLIMAX_TURN
    assert turn_limit(ENGINE, ENGINE.params.clean({})) >= FIRST_CLIMAX_TURN


# --- each read at its boundaries ---------------------------------------------------------------


def row(
    *, total: int = 0, opponent: int = 0, deck_out: int = 0, climaxes: tuple[int, ...] = (0, 0, 0)
) -> np.ndarray[Any, np.dtype[np.int64]]:
    """One hand-made game row (the columns the goals read)."""
    out = np.zeros((1, kernel.N_COLS), dtype=np.int64)
    out[0, kernel.C_TOTAL] = total
    out[0, kernel.C_OPPONENT] = opponent
    out[0, kernel.C_MARGIN] = total - opponent
    out[0, kernel.C_DECK_OUT_TURN] = deck_out
    out[0, kernel.C_CLIMAX_TURN : kernel.C_CLIMAX_TURN + 3] = climaxes
    out[0, kernel.C_ROUNDS] = sum(1 for t in climaxes if t)
    out[0, kernel.C_TURNS] = max(max(climaxes), deck_out, 1)
    return out


def both_reads(code: str, game: np.ndarray[Any, np.dtype[np.int64]], turn: int | None) -> int:
    """The goal's value of a one-game row, by the row reader and by ``Goal.read`` of the same
    game's ``Metrics`` (``metrics_of_rows`` adds a row as ``record_game`` adds the game);
    the two must agree."""
    by_row = int(ROW_READS[code](game, turn)[0])
    metrics = kernel.metrics_of_rows(ENGINE.prepare(GOLDEN_DECK, {}), game)
    assert goal(code).read(metrics, turn) == by_row
    return by_row


def test_the_total_and_the_margin_read_negative_and_zero_games() -> None:
    # a deck-out round scores -d6 x 10 (ouka-fushin.md:72), so a total can be below 0
    assert both_reads("points_total", row(total=-60, deck_out=20), None) == -60
    assert both_reads("points_total", row(), None) == 0
    assert both_reads("points_total", row(total=415, climaxes=(3, 7, 11)), None) == 415
    # each hidden success gives the opponent 10 (ouka-fushin.md:63-64): the margin may be < 0
    assert both_reads("points_margin", row(total=30, opponent=40), None) == -10
    assert both_reads("points_margin", row(total=30, opponent=30), None) == 0
    assert both_reads("points_margin", row(total=300, opponent=0), None) == 300


def test_a_deck_out_at_any_turn_counts_once_and_a_finished_game_none() -> None:
    assert both_reads("deck_out", row(deck_out=1), None) == 1  # on the very first turn
    assert both_reads("deck_out", row(deck_out=22, climaxes=(3, 9, 0)), None) == 1
    assert both_reads("deck_out", row(climaxes=(3, 9, 15)), None) == 0


@pytest.mark.parametrize(
    ("climaxes", "turn", "expected"),
    [
        ((3, 7, 12), 2, 0),  # one turn early
        ((3, 7, 12), 3, 1),  # on the turn itself
        ((3, 7, 12), 4, 1),
        ((1, 5, 9), 1, 1),  # the first turn
        ((0, 0, 0), 100, 0),  # no climax at all: a miss at any turn
        ((5, 0, 0), 4, 0),  # a later round's climax does not count for the first
        ((3, 7, 12), None, 1),  # no turn: the goal's default turn (3)
        ((4, 7, 12), None, 0),
    ],
)
def test_the_first_climax_counts_on_its_turn_and_after(
    climaxes: tuple[int, int, int], turn: int | None, expected: int
) -> None:
    assert both_reads("first_climax_by", row(climaxes=climaxes), turn) == expected


def test_real_games_at_the_boundaries() -> None:
    # a climax without conditions is played on turn 1 (ouka-fushin.md:70): every game counts
    # by turn 1; a one-card deck runs out at the start of turn 2 (ouka-fushin.md:56)
    finale = ENGINE.prepare(pool_deck(["Finale"] * 3 + ["Tea"] * 5), {})
    climax = goal("first_climax_by")
    assert set(ENGINE.goal_values(finale, {}, climax, 1, 4, 0, 200).tolist()) == {1}
    alone = ENGINE.prepare(pool_deck(["Trip"]), {})
    deck_out = goal("deck_out")
    assert set(ENGINE.goal_values(alone, {}, deck_out, None, 4, 0, 200).tolist()) == {1}
    assert set(ENGINE.goal_values(alone, {}, climax, 100, 4, 0, 200).tolist()) == {0}
    totals = ENGINE.goal_values(alone, {}, goal("points_total"), None, 4, 0, 200)
    assert set(totals.tolist()) == {-10, -20, -30, -40, -50, -60}  # d6 x 10 lost
    for g in (climax, deck_out):
        assert ENGINE.goal_values(alone, {}, g, 1, 4, 0, 50).tolist() == (
            values_by_play(ENGINE, alone, {}, g, 1, 4, 0, 50).tolist()
        )
