"""Tuning a Monster Hunter deck (simulator/engine/tuning.py) on decks whose best one-card move
is known by construction, each race run on 20 seeds: the planted move must rank first on
every one, and a move that changes nothing (cut a card, add the same card) must show exactly
0 with an interval of no width, as it plays the very games of the deck itself.

The planted decks (test_engine's cards; the hunter has meat and barrel-bomb item icons):
  (a) a dead card beside better ones: in the training ground, where a slay needs cards spent
      for attack (monster-hunter.md:54), an ammo item the hunter can never use (line 26)
      among usable items: the move is to cut it for a usable one.
  (b) a card that cannot be played before the goal's turn. No Monster Hunter card waits for
      a turn or an HR total: a monster is placed on any turn (lines 46-47). What does wait is
      the hunt: items are used only there (line 26), and a hunter with movement 1 facing six
      areas (the ``approach`` parameter) first hunts on turn 6. For HR points by turn 5 its
      usable items cannot be played, and the policy keeps them for later, where they take
      a monster's place in the hand: the move is to cut one for a monster, ahead even of
      cutting a card that is never of use (discarded at once, line 45, it digs instead).
  (c) one copy short of a threshold: three monsters cannot fill the four slots of the
      2-player sheet (line 47), so HR points come at most 4 a turn instead of 5
      (lines 63-64): the move is a fourth monster in place of a dead card.

Moves touch only the draw zone: the hunter beside the deck (line 34) is never cut.

Pure Python and numba; no database. About 10 s once the kernel is in numba's cache."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pytest

from games.monster_hunter import kernel
from games.monster_hunter.engine import ENGINE
from games.monster_hunter.goals import GOALS
from simulator.engine import compiled
from simulator.engine.cards import SimCard, SimDeck
from simulator.engine.goals import Goal, goal_by_code
from simulator.engine.tuning import Move, Ranked, moved_deck, race
from tests.games.monster_hunter.test_engine import CARDS, HUNTER

pytestmark = pytest.mark.skipif(not compiled.available(), reason="numba is not installed")

SEEDS = [1_000 + 37 * k for k in range(20)]
#: game plays a race may spend: a few seconds for all the seeds of a test
BUDGET = 40_000
#: every card of test_engine a move may add, by code
NEW_CARDS = {
    name.lower(): SimCard(0, name.lower(), name, card_type, attributes)
    for name, (card_type, attributes) in CARDS.items()
}


def deck_of(counts: Mapping[str, int], hunter: Mapping[str, Any] = HUNTER) -> SimDeck:
    """The hunter beside a deck of test_engine's cards (code: the name in lower case)."""
    cards = [SimCard(0, "hunter", "Hunter", "hunter", dict(hunter))]
    for index, code in enumerate(counts, start=1):
        cards.append(replace(NEW_CARDS[code], index=index))
    return SimDeck(
        game="monster-hunter",
        cards=tuple(cards),
        zones={"hunter": ((0, 1),), "main": tuple(enumerate(counts.values(), start=1))},
        draw_zone="main",
    )


def goal(code: str) -> Goal:
    found = goal_by_code(GOALS, code)
    assert found is not None
    return found


def ranking(
    deck: SimDeck, moves: list[Move], params: dict[str, Any], g: Goal, turn: int | None, seed: int
) -> list[Ranked]:
    return race(
        ENGINE,
        deck,
        moves,
        new_cards=NEW_CARDS,
        params=params,
        goal=g,
        turn=turn,
        seed=seed,
        budget=BUDGET,
    ).ranking


def assert_planted_first_and_noop_zero(ranked: list[Ranked], best: Move) -> None:
    order = [(r.move.as_list(), round(r.effect.value, 3)) for r in ranked]
    assert ranked[0].move == best, order
    # told apart: its interval clear of 0, every other move dropped from the race
    assert ranked[0].effect.low > 0, order
    assert all(r.dropped_in is not None for r in ranked[1:]), order
    (noop,) = [r for r in ranked if r.move.is_noop]
    assert noop.games > 0
    assert (noop.effect.value, noop.effect.low, noop.effect.high) == (0, 0, 0), order


# --- (a) a dead card beside better ones ----------------------------------------------------------

#: reference monsters of 4 HP against a hunter of attack 2: each slay (+5 HR) spends two
#: cards for attack (lines 54-55); they never hit back (attack 0), and return every turn
TRAINING = {
    "lineup": "uniform",
    "lineup_count": 4,
    "lineup_hp": 4,
    "lineup_attack": 0,
    "lineup_reach": 0,
    "lineup_rank": 5,
    "restock": "all",
    "approach": 1,
}
DEAD_DECK = deck_of({"boar": 4, "crab": 4, "haunch": 4, "keg": 4, "pebble": 24})
DEAD_MOVES = [
    Move("keg", "haunch"),  # usable for usable: the same games
    Move("pebble", "orb"),  # dead for dead (ball icon): the same games
    Move("haunch", "pebble"),
    Move("boar", "haunch"),
    Move("pebble", None),
    Move("pebble", "pebble"),
    Move("pebble", "haunch"),  # planted: last, so a tie would not put it first
]


@pytest.mark.parametrize("seed", SEEDS)
def test_a_dead_item_is_the_card_to_cut_for_a_usable_one(seed: int) -> None:
    ranked = ranking(DEAD_DECK, DEAD_MOVES, TRAINING, goal("hr_by_turn"), 4, seed)
    assert_planted_first_and_noop_zero(ranked, Move("pebble", "haunch"))


# --- (b) a card that cannot be played before the goal's turn -----------------------------------

SLOW_HUNTER = {**HUNTER, "movement": 1}
FAR = {**TRAINING, "lineup_hp": 3, "approach": 6}
LATE_DECK = deck_of({"boar": 3, "crab": 3, "haunch": 8, "pebble": 26}, SLOW_HUNTER)
LATE_MOVES = [
    Move("haunch", "keg"),
    Move("boar", "haunch"),
    Move("haunch", None),
    Move("pebble", "slug"),
    Move("haunch", "haunch"),
    Move("haunch", "slug"),  # planted
]


def test_the_slow_hunter_first_hunts_on_turn_six() -> None:
    """The premise of (b): no monster is slain, so no item played, before turn 6."""
    p = ENGINE.prepare(LATE_DECK, FAR)
    first = kernel.per_game(p.tables, SEEDS[0], 0, 2_000)[:, kernel.R_FIRST_SLAY]
    assert first.min() == 6


@pytest.mark.parametrize("seed", SEEDS)
def test_an_item_unplayable_before_the_goals_turn_is_the_card_to_cut(seed: int) -> None:
    ranked = ranking(LATE_DECK, LATE_MOVES, FAR, goal("hr_by_turn"), 5, seed)
    assert_planted_first_and_noop_zero(ranked, Move("haunch", "slug"))


# --- (c) one copy short of a threshold ---------------------------------------------------------

SHORT_DECK = deck_of({"boar": 3, "pebble": 37})
SHORT_MOVES = [
    Move("boar", "slug"),  # a monster for a monster: the same HR
    Move("pebble", "orb"),
    Move("pebble", None),
    Move("boar", "pebble"),
    Move("boar", "boar"),
    Move("pebble", "slug"),  # planted
]


@pytest.mark.parametrize("seed", SEEDS)
def test_a_fourth_monster_to_fill_the_sheet_is_the_move(seed: int) -> None:
    ranked = ranking(SHORT_DECK, SHORT_MOVES, {}, goal("hr_win_turn"), None, seed)
    assert_planted_first_and_noop_zero(ranked, Move("pebble", "slug"))


def test_the_fourth_monster_is_worth_more_than_the_fifth() -> None:
    """The threshold: the monster that fills the sheet gains more turns than one more."""
    g = goal("hr_win_turn")
    gains = []
    for deck in (SHORT_DECK, deck_of({"boar": 4, "pebble": 36})):
        move = Move("pebble", "slug")
        before = ENGINE.goal_values(ENGINE.prepare(deck, {}), {}, g, None, SEEDS[0], 0, 4_000)
        moved = ENGINE.prepare(moved_deck(deck, move, NEW_CARDS), {})
        after = ENGINE.goal_values(moved, {}, g, None, SEEDS[0], 0, 4_000)
        gains.append(float((before - after).mean()))
    assert gains[0] > 1.5 * gains[1] > 0, gains


# --- the zones ---------------------------------------------------------------------------------


def test_moves_touch_only_the_draw_zone() -> None:
    for move in [*DEAD_MOVES, Move(None, "slug")]:
        moved = moved_deck(DEAD_DECK, move, NEW_CARDS)
        assert moved.zones["hunter"] == DEAD_DECK.zones["hunter"]
        assert abs(moved.size - DEAD_DECK.size) <= 1
        assert ENGINE.deck_problems(moved) == []
    with pytest.raises(ValueError, match="not in the deck"):
        moved_deck(DEAD_DECK, Move("hunter", "slug"), NEW_CARDS)
