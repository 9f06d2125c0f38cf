"""Unmatched's tuning goals (games/unmatched/goals.py): the compiled ``goal_values`` gives the
reference's values (``values_by_play``, each game played alone and read from its Metrics) game
by game; each goal's read at its boundaries; which decks are tuned (``tune_problems``)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from games.unmatched import goals, kernel
from games.unmatched.engine import (
    CUSTOM_SET_PREFIX,
    ENGINE,
    M_FELL,
    OFFICIAL_DECK,
    damage_key,
)
from games.unmatched.golden import GOLDEN_DECK
from simulator.engine import compiled
from simulator.engine.cards import SimDeck, SimPrinting
from simulator.engine.engine import run_games
from simulator.engine.goals import Goal, goal_by_code, values_by_play
from tests.games.unmatched.test_kernel import deck_of, medusa

RUN_SEED = 20261127
GAMES = 2_000

needs_numba = pytest.mark.skipif(
    not compiled.available(), reason="the kernel's values need numba (DECKLAB_COMPILED unset)"
)


def goal(code: str) -> Goal:
    found = goal_by_code(ENGINE.goals, code)
    assert found is not None
    return found


def both(
    deck: SimDeck, params: dict[str, Any], code: str, turn: int | None, count: int = GAMES
) -> tuple[list[int], list[int]]:
    """The kernel's values and the reference's, for games 0 .. count - 1."""
    p = ENGINE.prepare(deck, params)
    g = goal(code)
    ours = ENGINE.goal_values(p, params, g, turn, RUN_SEED, 0, count)
    reference = values_by_play(ENGINE, p, params, g, turn, RUN_SEED, 0, count)
    assert ours.dtype == np.int64 and reference.dtype == np.int64
    return ours.tolist(), reference.tolist()


def assert_same(
    deck: SimDeck, params: dict[str, Any], code: str, turn: int | None, count: int = GAMES
) -> list[int]:
    ours, reference = both(deck, params, code, turn, count)
    differ = [i for i, (a, b) in enumerate(zip(ours, reference, strict=True)) if a != b]
    assert not differ, f"{len(differ)} games differ; {differ[0]}: {ours[differ[0]]}"
    return reference


# --- the goals as declared -------------------------------------------------------------------


def test_the_engine_offers_its_goals_each_citing_a_line_of_the_digest() -> None:
    from django.conf import settings

    assert ENGINE.goals is goals.GOALS
    assert [g.code for g in ENGINE.goals] == [goals.DAMAGE_BY, goals.FALLS_BY, goals.FALLS_ON]
    assert set(goals.KERNEL_READS) == {g.code for g in ENGINE.goals}
    digest = (Path(settings.BASE_DIR).parent / "shared" / "rules" / "unmatched.md").read_text()
    lines = digest.splitlines()
    for g in ENGINE.goals:
        name, line = g.cite.split(":")
        assert name == "unmatched.md" and 1 <= int(line) <= len(lines) and lines[int(line) - 1]
        assert g.label and g.help and g.kind in ("rate", "mean")
        assert ("%(turn)s" in g.label) == g.at_turn


# --- the kernel's values are the reference's, game by game ------------------------------------

CASES = [
    pytest.param(goals.DAMAGE_BY, (1, 3, 30), id="damage"),
    pytest.param(goals.FALLS_BY, (4, 5, 30), id="falls-by"),
    pytest.param(goals.FALLS_ON, (None,), id="falls-turn"),
]


@needs_numba
@pytest.mark.parametrize(("code", "turns"), CASES)
def test_the_kernels_values_are_the_references_on_the_medusa_deck(
    code: str, turns: tuple[int | None, ...]
) -> None:
    for turn in turns:
        values = assert_same(medusa(), {}, code, turn)
        # the games differ, so the comparison means something (by turn 30 all have fallen)
        assert len(set(values)) > 1 or turn == 30


@needs_numba
@pytest.mark.parametrize(("code", "turns"), CASES)
@pytest.mark.parametrize(
    "params",
    [
        pytest.param({"opponent_hp": 40}, id="never-falls-exhaustion"),
        pytest.param({"opponent_hp": 30, "max_turns": 9}, id="turn-limit-9"),
        pytest.param({"max_turns": 1}, id="one-turn"),
    ],
)
def test_the_kernels_values_are_the_references_on_the_golden_deck_at_the_edges(
    code: str, turns: tuple[int | None, ...], params: dict[str, Any]
) -> None:
    limit = ENGINE.prepare(GOLDEN_DECK, params).max_turns
    for turn in {min(t, limit) if t else t for t in turns}:
        assert_same(GOLDEN_DECK, params, code, turn)


@needs_numba
@pytest.mark.parametrize(
    ("cards", "hp"),
    [
        pytest.param(["Gaze"], 8, id="lost-at-set-up"),
        pytest.param(["Dash"] * 4, 16, id="damage-exactly-the-hp"),
        pytest.param(["Guard", "Plan", "Spear"] * 3, 16, id="all-dead"),
    ],
)
def test_the_kernels_values_are_the_references_on_edge_decks(cards: list[str], hp: int) -> None:
    params = {"opponent_hp": 16, "max_turns": 12}
    for g in ENGINE.goals:
        for turn in (1, 12) if g.at_turn else (None,):
            assert_same(deck_of(cards, hp), params, g.code, turn, 300)


@needs_numba
def test_the_values_do_not_depend_on_how_the_games_are_split() -> None:
    p = ENGINE.prepare(medusa(), {})
    g = goal(goals.FALLS_ON)
    whole = ENGINE.goal_values(p, {}, g, None, RUN_SEED, 0, 1000).tolist()
    parts = [ENGINE.goal_values(p, {}, g, None, RUN_SEED, a, b - a).tolist() for a, b in
             ((0, 1), (1, 400), (400, 1000))]  # fmt: skip
    assert [v for part in parts for v in part] == whole
    assert ENGINE.goal_values(p, {}, g, None, RUN_SEED, 5, 0).tolist() == []


def test_without_numba_the_values_are_the_references(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DECKLAB_COMPILED", "0")

    def refused(*args: Any) -> None:
        raise AssertionError("the kernel was called with DECKLAB_COMPILED=0")

    monkeypatch.setattr(kernel, "play_values", refused)
    for g in ENGINE.goals:
        ours, reference = both(medusa(), {}, g.code, g.turn, 300)
        assert ours == reference


# --- each read at its boundaries ----------------------------------------------------------------


def test_the_values_add_up_to_the_runs_measures() -> None:
    """Damage by a turn summed over the games is the run's ``damage_by_turn`` sum; falling by
    the turn limit is the run's count of games the opponent fell in."""
    params = {"opponent_hp": 20, "max_turns": 6}
    metrics = run_games(ENGINE, medusa(), params, run_seed=RUN_SEED, start=0, count=GAMES)
    p = ENGINE.prepare(medusa(), params)
    for turn in (1, 6):
        damage = ENGINE.goal_values(p, params, goal(goals.DAMAGE_BY), turn, RUN_SEED, 0, GAMES)
        assert int(damage.sum()) == metrics.sums[damage_key(turn)]
    fell = ENGINE.goal_values(p, params, goal(goals.FALLS_BY), 6, RUN_SEED, 0, GAMES)
    assert int(fell.sum()) == metrics.counts[M_FELL]


def test_a_game_in_which_the_opponent_never_falls_counts_as_the_turn_limit_plus_one() -> None:
    # 36 damage in the golden deck: a 40 HP opponent never falls
    for params, expected in (({"opponent_hp": 40}, 31), ({"opponent_hp": 40, "max_turns": 7}, 8)):
        values = assert_same(GOLDEN_DECK, params, goals.FALLS_ON, None, 300)
        assert set(values) == {expected}
        assert set(assert_same(GOLDEN_DECK, params, goals.FALLS_BY, 7, 300)) == {0}


def test_the_turn_the_opponent_falls_is_the_first_turn_its_falls_by_goal_reads_1() -> None:
    params = {"max_turns": 8}
    turns = assert_same(medusa(), params, goals.FALLS_ON, None, 500)
    for turn in range(1, 9):
        by = assert_same(medusa(), params, goals.FALLS_BY, turn, 500)
        assert by == [int(t <= turn) for t in turns]


def test_damage_by_the_turn_limit_is_each_games_final_damage() -> None:
    """A game over before the limit keeps its last total: a fallen opponent took its HP."""
    params = {"max_turns": 8}
    final = assert_same(medusa(), params, goals.DAMAGE_BY, 8, 500)
    turns = assert_same(medusa(), params, goals.FALLS_ON, None, 500)
    assert all(d == 16 for d, t in zip(final, turns, strict=True) if t <= 8)
    assert all(d < 16 for d, t in zip(final, turns, strict=True) if t > 8)
    first = assert_same(medusa(), params, goals.DAMAGE_BY, 1, 500)
    assert all(0 <= a <= b for a, b in zip(first, final, strict=True))


@pytest.mark.parametrize("code", [goals.DAMAGE_BY, goals.FALLS_BY])
def test_a_turn_outside_the_game_is_refused_by_both_paths(code: str) -> None:
    params = {"max_turns": 6}
    p = ENGINE.prepare(medusa(), params)
    for turn in (0, 7):
        with pytest.raises(ValueError, match="not a turn"):
            ENGINE.goal_values(p, params, goal(code), turn, RUN_SEED, 0, 10)
        with pytest.raises(ValueError, match="not a turn"):
            values_by_play(ENGINE, p, params, goal(code), turn, RUN_SEED, 0, 10)


def test_a_goal_read_without_a_turn_reads_at_its_own() -> None:
    p = ENGINE.prepare(medusa(), {})
    for code in (goals.DAMAGE_BY, goals.FALLS_BY):
        g = goal(code)
        assert ENGINE.goal_values(p, {}, g, None, RUN_SEED, 0, 300).tolist() == (
            ENGINE.goal_values(p, {}, g, g.turn, RUN_SEED, 0, 300).tolist()
        )


@needs_numba
def test_warm_readies_the_values_kernel_too() -> None:
    ENGINE.warm()
    dispatcher: Any = kernel._play_values
    before = list(dispatcher.signatures)
    assert before
    p = ENGINE.prepare(medusa(), {})
    ENGINE.goal_values(p, {}, goal(goals.DAMAGE_BY), 3, 2**63 - 1, 10**9, 10)
    assert list(dispatcher.signatures) == before


# --- which decks are tuned --------------------------------------------------------------------


def test_an_official_hero_deck_is_not_tuned() -> None:
    assert ENGINE.tune_problems(medusa()) == [OFFICIAL_DECK]


def test_a_deck_with_a_card_of_another_hero_deck_is_custom_and_tuned() -> None:
    deck = medusa()
    line = deck.zones["deck"][0]
    card = deck.cards[line[0]]
    elsewhere = replace(card, printings=(SimPrinting("battle-of-legends-volume-one", "alice"),))
    cards = tuple(elsewhere if c.index == card.index else c for c in deck.cards)
    assert ENGINE.tune_problems(replace(deck, cards=cards)) == []


def test_a_deck_with_a_players_own_card_is_custom_and_tuned() -> None:
    deck = medusa()
    (hero,) = deck.in_zone("hero")
    number = next(p.number for p in hero.printings if p.number)
    line = deck.zones["deck"][0]
    card = deck.cards[line[0]]
    own = replace(card, printings=(SimPrinting(f"{CUSTOM_SET_PREFIX}7-my-medusa", number),))
    cards = tuple(own if c.index == card.index else c for c in deck.cards)
    assert ENGINE.tune_problems(replace(deck, cards=cards)) == []
    # a hero of the player's own makes the whole deck custom
    custom_hero = replace(hero, printings=(SimPrinting(f"{CUSTOM_SET_PREFIX}7-my-medusa", number),))
    cards = tuple(custom_hero if c.index == hero.index else c for c in deck.cards)
    assert ENGINE.tune_problems(replace(deck, cards=cards)) == []


def test_a_deck_made_by_hand_is_tuned() -> None:
    assert ENGINE.tune_problems(GOLDEN_DECK) == []
    assert ENGINE.tune_problems(deck_of(["Gaze", "Dash"])) == []
