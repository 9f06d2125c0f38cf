"""Tuning Recharge decks whose best move is known by construction (simulator/engine/tuning.py
raced with ``RechargeEngine.goal_values``).

Every deck holds one copy of each card, as Recharge's "all cards different" asks
(recharge.md:29); that rule and the counter chips (recharge.md:30) are the Django side's
checks, not the engine's, so they are not tested here. Each plant is raced on 20 seeds, and the
planted move must rank first on every one:

(a) a dead card beside better ones: a power card whose colours no hero edge shows
    (recharge.md:17) adds nothing to any formation; swapping it for a strong power card beats
    swapping any live card, since the candidate then holds every card the other holds, the dead
    one apart, at the same places. Goal: the best formation's power by turn 5.
(b) Recharge has no card that cannot be played before some turn: nothing is paid to place a
    card (chips are bet, not spent: recharge.md:38-44) and an opening places any hero with
    the cards joined to it the turn they are drawn (recharge.md:38). Planted instead: the one
    hero every formation is built on (recharge.md:12) swapped for its Power Plus version
    (+10, a different card under the tournament rules, recharge.md:24-25). That adds 10 in
    every game the hero is held; the Power Plus version of a power card adds at most 10 in
    the fewer games where it is held *with* the hero. Goal: power by turn 3.
(c) No copy count has a threshold (every card is different), but opening does: the "power
    needed to open". This deck's best formation is 50, one power card short of an opening
    threshold of 60 (a 30 hero with a 10 on each red edge); a red 20/20 power card reaches it
    beside any hero and a 10. Swapping the dead card for it keeps every 10; swapping a 10, a
    hero or adding a 15 or a second hero does less. Goals: can open by turn 3, and the first
    turn able to open (lower is better: the move's effect is still positive).

Every race also holds the no-op move (cut a card, add it back), which plays the baseline's
very games: exactly 0 with an interval of width 0.

About 20 s on the shared 2-core machine.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pytest

from games.recharge.engine import ENGINE
from games.recharge.goals import CAN_OPEN, FIRST_OPEN, GOALS, POWER
from simulator.engine.cards import SimCard, SimDeck
from simulator.engine.goals import Goal, goal_by_code
from simulator.engine.tuning import Move, all_moves, moved_deck, race

SEEDS = range(20)
#: game plays a race may spend; every plant's race ends well before, one move left
BUDGET = 200_000
PLUS = "power-plus"


def _colours(edge: str) -> list[str]:
    return edge.split("+") if edge else []


def hero(code: str, power: int, left: str, right: str) -> SimCard:
    attributes = {"power": power, "left": _colours(left), "right": _colours(right)}
    return SimCard(0, code, code, "hero", attributes)


def team(code: str, power: int, left: str, right: str) -> SimCard:
    attributes = {"power": power, "left": _colours(left), "right": _colours(right)}
    return SimCard(0, code, code, "teamwork", attributes)


def boost(code: str, left: str, left_power: int, right: str, right_power: int) -> SimCard:
    attributes = {
        "left": _colours(left),
        "right": _colours(right),
        "left_power": left_power,
        "right_power": right_power,
    }
    return SimCard(0, code, code, "power", attributes)


def plus(card: SimCard) -> SimCard:
    """The card's Power Plus version, a card of its own (tournament rules, recharge.md:25)."""
    return replace(card, code=f"{card.code}+", variant=PLUS)


def deck(*cards: SimCard) -> SimDeck:
    """One copy of each card in the draw pile, in this order."""
    indexed = tuple(replace(card, index=i) for i, card in enumerate(cards))
    zones = {"main": tuple((i, 1) for i in range(len(indexed)))}
    return SimDeck(game="recharge", cards=indexed, zones=zones, draw_zone="main")


def _goal(code: str) -> Goal:
    goal = goal_by_code(GOALS, code)
    assert goal is not None
    return goal


@dataclass(frozen=True)
class Plant:
    deck: SimDeck
    new_cards: Mapping[str, SimCard]
    moves: list[Move]
    goal: str
    turn: int | None
    params: dict[str, Any]
    best: Move
    noop: Move


def dead_card() -> Plant:
    cards = deck(
        hero("H1", 40, "red", "red"),
        hero("H2", 30, "red", "blue"),
        hero("H3", 30, "blue", "blue"),
        hero("H4", 20, "blue", "red"),
        team("T1", 15, "red", "blue"),
        boost("P1", "red", 15, "blue", 10),
        boost("P2", "red", 15, "red", 15),
        boost("P3", "blue", 20, "red", 5),
        boost("P4", "blue", 15, "blue", 15),
        boost("P5", "red", 10, "blue", 20),
        boost("P6", "red", 10, "red", 10),
        boost("DEAD", "yellow", 40, "green", 40),  # no hero edge is yellow or green
    )
    new = boost("NEW", "red", 25, "blue", 25)
    noop = Move("P1", "P1")
    return Plant(
        cards,
        {"NEW": new},
        [*all_moves(cards, ["NEW"]), noop],
        POWER,
        5,
        {},
        Move("DEAD", "NEW"),
        noop,
    )


def keystone_hero() -> Plant:
    own = (
        hero("H", 30, "red", "red"),
        boost("P1", "red", 10, "blue", 0),
        boost("P2", "red", 15, "red", 5),
        boost("P3", "red", 20, "yellow", 0),
        boost("P4", "red", 5, "red", 5),
        boost("P5", "red", 10, "red", 10),
        boost("P6", "red", 25, "blue", 0),
        team("T", 10, "red", "green"),
    )
    noop = Move("P1", "P1")
    return Plant(
        deck(*own),
        {f"{card.code}+": plus(card) for card in own},
        [*(Move(card.code, f"{card.code}+") for card in own), noop],
        POWER,
        3,
        {},
        Move("H", "H+"),
        noop,
    )


def short_of_the_threshold(goal: str) -> Plant:
    cards = deck(
        hero("H1", 30, "red", "red"),
        hero("H2", 30, "red", "red"),
        boost("P1", "red", 10, "red", 10),
        boost("P2", "red", 10, "red", 10),
        # a teamwork hangs on a red edge; no hero has a yellow edge to join beyond it
        team("T1", 10, "red", "yellow"),
        team("T2", 10, "yellow", "red"),
        boost("DEAD", "yellow", 40, "green", 40),
    )
    new = {
        "N20": boost("N20", "red", 20, "red", 20),
        "N15": boost("N15", "red", 15, "red", 15),  # 55: still short
        "NH": hero("NH", 25, "red", "red"),  # heroes join only through teamwork
    }
    noop = Move("P1", "P1")
    return Plant(
        cards,
        new,
        [*all_moves(cards, list(new)), noop],
        goal,
        3,
        {"open_threshold": 60, "turns": 6},
        Move("DEAD", "N20"),
        noop,
    )


PLANTS = {
    "dead-card": dead_card(),
    "keystone-hero-power-plus": keystone_hero(),
    "short-of-the-threshold-can-open": short_of_the_threshold(CAN_OPEN),
    "short-of-the-threshold-first-open": short_of_the_threshold(FIRST_OPEN),
}


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", list(PLANTS))
def test_the_planted_move_ranks_first_and_the_no_op_is_exactly_zero(name: str, seed: int) -> None:
    plant = PLANTS[name]
    result = race(
        ENGINE,
        plant.deck,
        plant.moves,
        new_cards=plant.new_cards,
        params=plant.params,
        goal=_goal(plant.goal),
        turn=plant.turn,
        seed=seed,
        budget=BUDGET,
    )
    best = result.ranking[0]
    assert best.move == plant.best, [(r.move, r.effect.value) for r in result.ranking[:3]]
    assert best.effect.low > 0
    (noop,) = (r for r in result.ranking if r.move == plant.noop)
    assert noop.games > 0
    assert (noop.effect.value, noop.effect.low, noop.effect.high) == (0, 0, 0)


def test_the_plants_are_what_they_say() -> None:
    """The construction's claims, game by game: the dead card swapped for another dead card
    changes no game; deck (c) never reaches the threshold and its N20 deck does; the keystone
    hero is in every formation of deck (b)."""
    dead = PLANTS["dead-card"]
    other_dead = {"DEAD2": boost("DEAD2", "green", 50, "yellow", 5)}
    power = _goal(POWER)
    base = ENGINE.prepare(dead.deck, {})
    swapped = ENGINE.prepare(moved_deck(dead.deck, Move("DEAD", "DEAD2"), other_dead), {})
    for turn in (1, 3, 5):
        want = ENGINE.goal_values(base, {}, power, turn, 3, 0, 2000)
        assert np.array_equal(ENGINE.goal_values(swapped, {}, power, turn, 3, 0, 2000), want)

    short = PLANTS["short-of-the-threshold-can-open"]
    params = short.params
    can_open = _goal(CAN_OPEN)
    never = ENGINE.goal_values(ENGINE.prepare(short.deck, params), params, can_open, 6, 1, 0, 500)
    assert never.tolist() == [0] * 500
    reaches = moved_deck(short.deck, short.best, short.new_cards)
    opens = ENGINE.goal_values(ENGINE.prepare(reaches, params), params, can_open, 6, 1, 0, 500)
    # the hand holds 6 of the 7 cards from turn 5: it opens unless N20 is the one left out
    assert 0.8 < opens.mean() < 0.92

    keystone = PLANTS["keystone-hero-power-plus"]
    without = moved_deck(keystone.deck, Move("H", None), {})
    values = ENGINE.goal_values(ENGINE.prepare(without, {}), {}, power, 6, 1, 0, 500)
    assert values.tolist() == [0] * 500
