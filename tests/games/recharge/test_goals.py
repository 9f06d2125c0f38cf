"""Recharge's tuning goals (games/recharge/goals.py) and ``RechargeEngine.goal_values``.

* Game by game, the compiled kernel's reading (``goal_values``) against the reference
  (``values_by_play``: each game played alone and its goal read from its own Metrics), for
  every goal at several turns, on 2,000 games of the demo product deck under three parameter
  sets; the same with the kernel turned off (``goal_values`` then is the reference).
* Each read at its boundaries, on decks small enough that every game is known: turn 1, the
  game's last turn and past it, a deck that never opens (``first_open`` = turns + 1), the
  threshold met exactly and missed by one, the hand that stops growing at 6 cards.

About 10 s on the shared 2-core machine, most of it loading the kernel.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

from games.recharge.engine import ENGINE, RechargePrepared
from games.recharge.goals import CAN_OPEN, FIRST_OPEN, GOALS, POWER, POWER_TURN
from simulator.engine import compiled
from simulator.engine.cards import SimDeck
from simulator.engine.goals import LOWER, Goal, goal_by_code, values_by_play
from tests.games.recharge.test_kernel import boost, demo_deck, hero, sim_deck

GAMES = 2000


def _goal(code: str) -> Goal:
    goal = goal_by_code(GOALS, code)
    assert goal is not None
    return goal


def both(
    deck: SimDeck | RechargePrepared,
    params: dict[str, Any],
    code: str,
    turn: int | None,
    *,
    seed: int = 5,
    count: int = 200,
) -> tuple[list[int], list[int]]:
    """(the kernel's values, the reference's values) of ``code`` at ``turn``."""
    p = deck if isinstance(deck, RechargePrepared) else ENGINE.prepare(deck, params)
    goal = _goal(code)
    got = ENGINE.goal_values(p, params, goal, turn, seed, 0, count)
    want = values_by_play(ENGINE, p, params, goal, turn, seed, 0, count)
    assert got.dtype == np.int64 and want.dtype == np.int64
    return got.tolist(), want.tolist()


# --- the kernel against the reference, game by game -------------------------------------------

DEMO_PARAMS = [
    pytest.param({"turns": 6, "open_threshold": 60}, id="six-turns-threshold-60"),
    pytest.param({"turns": 3, "chain_power_cards": True}, id="three-turns-chaining"),
    pytest.param({"open_threshold": 110}, id="defaults-threshold-110"),
]
#: turn 1, the hand not yet full, full, and past a 3- or 6-turn game's last
TURNS = (1, 3, 5, 9)


@pytest.mark.parametrize("params", DEMO_PARAMS)
def test_every_goal_reads_the_same_from_the_kernel_as_game_by_game(
    params: dict[str, Any],
) -> None:
    p = ENGINE.prepare(demo_deck(), params)
    assert compiled.available()
    for goal in GOALS:
        varied = False
        for turn in TURNS if goal.at_turn else (None,):
            got, want = both(p, params, goal.code, turn, seed=41, count=GAMES)
            assert got == want, f"{goal.code} at turn {turn}"
            varied |= len(set(got)) > 1
        assert varied, f"{goal.code}: every game reads the same, a weak test"


def test_a_run_split_in_chunks_reads_the_same_values() -> None:
    params = {"turns": 6, "open_threshold": 60}
    p = ENGINE.prepare(demo_deck(), params)
    for goal in GOALS:
        whole = ENGINE.goal_values(p, params, goal, goal.turn, 8, 0, 900)
        parts = [
            ENGINE.goal_values(p, params, goal, goal.turn, 8, a, b - a)
            for a, b in ((0, 1), (1, 400), (400, 900))
        ]
        assert whole.tolist() == np.concatenate(parts).tolist()


def test_without_the_kernel_goal_values_plays_each_game(monkeypatch: pytest.MonkeyPatch) -> None:
    params = {"turns": 4, "open_threshold": 60}
    p = ENGINE.prepare(demo_deck(), params)
    compiled_values = {g.code: ENGINE.goal_values(p, params, g, 3, 2, 0, 300) for g in GOALS}
    monkeypatch.setenv("DECKLAB_COMPILED", "0")
    for goal in GOALS:
        got, want = both(p, params, goal.code, 3, seed=2, count=300)
        assert got == want == compiled_values[goal.code].tolist()


def test_a_goal_that_is_not_recharges_own_is_read_by_play() -> None:
    """A goal with one of our codes but another read is read by its own read, not the rows."""
    params = {"turns": 3}
    p = ENGINE.prepare(demo_deck(), params)
    cards_seen = Goal("power", "Cards seen", 1, "mean", lambda m, _t: m.sums["cards_seen"])
    got = ENGINE.goal_values(p, params, cards_seen, None, 1, 0, 20)
    assert got.tolist() == [4] * 20


def test_no_games_and_negative_seeds() -> None:
    params: dict[str, Any] = {}
    p = ENGINE.prepare(demo_deck(), params)
    assert ENGINE.goal_values(p, params, _goal(POWER), 2, 1, 0, 0).tolist() == []
    with pytest.raises(ValueError, match="not negative"):
        ENGINE.goal_values(p, params, _goal(POWER), 2, -1, 0, 10)
    with pytest.raises(ValueError, match="not negative"):
        ENGINE.goal_values(p, params, _goal(POWER), 2, 1, -1, 10)


# --- each read at its boundaries --------------------------------------------------------------

RED_HERO = hero(30, "red", "red")  # two red points: one power card on each edge
RED_BOOST = boost("red", 10, "red", 10)
#: hero + 2 power cards: turn 1 holds 2 of the 3 (40 or 0 power), turn 2 all of them (50)
THREE = sim_deck((RED_HERO, 1), (RED_BOOST, 2))


@pytest.mark.parametrize(
    ("code", "turn", "params", "values"),
    [
        # turn 1: the opening card and one draw, a hero and a power card or two power cards
        pytest.param(POWER, 1, {"turns": 2}, {0, 40}, id="power-turn-1"),
        pytest.param(POWER, 2, {"turns": 2}, {50}, id="power-last-turn"),
        pytest.param(POWER, 30, {"turns": 2}, {50}, id="power-past-the-last-turn"),
        pytest.param(POWER, None, {"turns": 7}, {50}, id="power-default-turn"),
        # the threshold met exactly, then missed by one
        pytest.param(CAN_OPEN, 1, {"turns": 2, "open_threshold": 50}, {0}, id="open-turn-1"),
        pytest.param(CAN_OPEN, 2, {"turns": 2, "open_threshold": 50}, {1}, id="open-at-threshold"),
        pytest.param(CAN_OPEN, 2, {"turns": 2, "open_threshold": 51}, {0}, id="open-below"),
        pytest.param(CAN_OPEN, 1, {"turns": 2, "open_threshold": 40}, {0, 1}, id="open-turn-1-40"),
        pytest.param(FIRST_OPEN, None, {"turns": 2, "open_threshold": 50}, {2}, id="first-turn-2"),
        pytest.param(
            FIRST_OPEN, None, {"turns": 2, "open_threshold": 40}, {1, 2}, id="first-turn-1-or-2"
        ),
        # never: the turn after the last, whatever the turn asked
        pytest.param(FIRST_OPEN, None, {"turns": 2, "open_threshold": 51}, {3}, id="never-2"),
        pytest.param(FIRST_OPEN, 9, {"turns": 30, "open_threshold": 51}, {31}, id="never-30"),
    ],
)
def test_the_reads_at_their_boundaries(
    code: str, turn: int | None, params: dict[str, Any], values: set[int]
) -> None:
    got, want = both(THREE, params, code, turn)
    assert got == want
    assert set(got) == values


def test_a_deck_without_a_hero_never_opens() -> None:
    """A formation needs a hero (recharge.md:12): power 0, never open, first = turns + 1."""
    deck = sim_deck((RED_BOOST, 8))
    params = {"turns": 4, "open_threshold": 0}
    assert both(deck, params, POWER, 4) == ([0] * 200, [0] * 200)
    assert both(deck, params, CAN_OPEN, 4) == ([0] * 200, [0] * 200)
    assert both(deck, params, FIRST_OPEN, None) == ([5] * 200, [5] * 200)


def test_the_hand_stops_growing_at_six_cards() -> None:
    """Seven cards, one hero: the hand is full at turn 5 (recharge.md:33), so the hero is
    never drawn in the games where it is the seventh card, however long the game."""
    deck = sim_deck((RED_HERO, 1), (RED_BOOST, 6))
    params = {"turns": 12}
    opens_5, _ = both(deck, params, CAN_OPEN, 5, count=700)
    opens_12, want_12 = both(deck, params, CAN_OPEN, 12, count=700)
    first, want_first = both(deck, params, FIRST_OPEN, None, count=700)
    assert opens_5 == opens_12 == want_12 and first == want_first
    assert 0 in opens_12 and 1 in opens_12
    assert {f for f, o in zip(first, opens_12, strict=True) if not o} == {13}
    assert {f for f, o in zip(first, opens_12, strict=True) if o} == {1, 2, 3, 4, 5}


def test_a_turn_before_the_first_is_refused() -> None:
    p = ENGINE.prepare(THREE, {"turns": 2})
    for goal in (_goal(POWER), _goal(CAN_OPEN)):
        for reads in (ENGINE.goal_values, lambda *a: values_by_play(ENGINE, *a)):
            with pytest.raises(ValueError, match="from turn 1"):
                reads(p, {"turns": 2}, goal, 0, 1, 0, 3)


def test_the_goals_are_described() -> None:
    assert len({g.code for g in GOALS}) == len(GOALS) == 3
    for goal in GOALS:
        assert ("%(turn)s" in goal.label) == goal.at_turn
        assert goal.help and re.fullmatch(r"recharge\.md:\d+", goal.cite)
        assert goal.kind in ("rate", "mean")
    assert _goal(FIRST_OPEN).direction == LOWER and not _goal(FIRST_OPEN).at_turn
    assert _goal(POWER).turn == POWER_TURN
    assert ENGINE.goals is GOALS
