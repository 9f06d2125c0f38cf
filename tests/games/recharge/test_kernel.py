"""The compiled batch kernel of Recharge (games/recharge/kernel.py) against its references.

* Hand by hand, its solver (``kernel.hand_power``) against ``best_formation`` (the solver the
  state API uses, itself checked against a brute force in tests/simulator/
  test_recharge_solver.py): every rule boundary on hands built by hand, chaining on and off,
  then random hands of the demo catalog and of generated cards.
* Game by game, ``kernel.play_each`` against the state API (``RechargeState`` played by the
  policy) on 1,000 seeds per parameter set of the demo product deck and 10,000 seeds on each
  edge deck; and against the Python batch path's per-game rows (``engine.prefix_rows``, which
  the same test checks against the state API game by game) on 10,000 seeds per parameter set.
* The totals: ``play_games`` compiled equals ``play_games`` with ``DECKLAB_COMPILED=0``
  exactly, however the run is split; the fallback says so once in the log.

The whole file takes about 60 s on the shared 2-core machine (most of it the state API).
"""

from __future__ import annotations

import dataclasses
import json
import logging
import random
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import games.recharge
from games.recharge import kernel
from games.recharge.engine import ENGINE, HAND_LIMIT, RechargePrepared, prefix_rows
from games.recharge.golden import GOLDEN_DECK
from games.recharge.solver import HERO, POWER, TEAMWORK, RCard, best_formation, colour_mask
from simulator.engine import compiled
from simulator.engine.cards import SimCard, SimDeck
from simulator.engine.engine import run_games
from simulator.engine.metrics import Metrics
from simulator.engine.rng import game_rng

CATALOG = Path(games.recharge.__file__).parent / "catalog.json"
DEMO_PRODUCT = "rc-demo-heroes-united"


# --- cards and decks --------------------------------------------------------------------------


def _edge(colours: str) -> int:
    return colour_mask(colours.split("+") if colours else [])


def hero(power: int, left: str, right: str, *, plus: bool = False) -> RCard:
    return RCard(HERO, power=power, left=_edge(left), right=_edge(right), plus=plus)


def team(power: int, left: str, right: str, *, plus: bool = False) -> RCard:
    return RCard(TEAMWORK, power=power, left=_edge(left), right=_edge(right), plus=plus)


def boost(left: str, left_power: int, right: str, right_power: int, *, plus: bool = False) -> RCard:
    return RCard(
        POWER,
        left=_edge(left),
        right=_edge(right),
        left_power=left_power,
        right_power=right_power,
        plus=plus,
    )


@cache
def _catalog() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(CATALOG.read_text(encoding="utf-8"))
    return data


@cache
def demo_deck() -> SimDeck:
    """The demo product "rc-demo-heroes-united" (50 cards) as the run services build it: one
    SimCard per line, its printing's variant, its quantity in the draw pile."""
    data = _catalog()
    by_code = {card["code"]: card for card in data["cards"]}
    product = next(p for p in data["products"] if p["code"] == DEMO_PRODUCT)
    cards = []
    for index, item in enumerate(product["items"]):
        card = by_code[item["card"]]
        cards.append(
            SimCard(
                index,
                card["code"],
                card["name_en"],
                card["type"],
                card.get("attributes") or {},
                item.get("variant", ""),
            )
        )
    zones = {"main": tuple((i, item["quantity"]) for i, item in enumerate(product["items"]))}
    return SimDeck(game="recharge", cards=tuple(cards), zones=zones, draw_zone="main")


def _attributes(card: RCard) -> dict[str, Any]:
    def names(mask: int) -> list[str]:
        return [c for k, c in enumerate(("red", "green", "yellow", "blue")) if mask >> k & 1]

    attributes: dict[str, Any] = {"left": names(card.left), "right": names(card.right)}
    if card.kind == POWER:
        attributes |= {"left_power": card.left_power, "right_power": card.right_power}
    else:
        attributes["power"] = card.power
    return attributes


def sim_deck(*entries: tuple[RCard, int]) -> SimDeck:
    """A deck of these cards, each with its quantity in the draw pile."""
    cards = tuple(
        SimCard(
            i,
            f"T-{i}",
            f"Card {i}",
            card.kind,
            _attributes(card),
            "power-plus" if card.plus else "",
        )
        for i, (card, _n) in enumerate(entries)
    )
    zones = {"main": tuple((i, n) for i, (_card, n) in enumerate(entries))}
    return SimDeck(game="recharge", cards=cards, zones=zones, draw_zone="main")


def kernel_answer(hand: list[RCard], chain: bool) -> tuple[int, bool]:
    tables = kernel.arrays(tuple(range(len(hand))), tuple(hand))
    return kernel.hand_power(tables, list(range(len(hand))), chain)


def reference(hand: list[RCard], chain: bool) -> tuple[int, bool]:
    formation = best_formation(hand, chain_power_cards=chain)
    return formation.power, formation.exists


# --- the solver, rule by rule -----------------------------------------------------------------

# (name, hand, expected (power, exists) without chaining, with chaining); the rules are the
# solver's (games/recharge/solver.py docstring), cited from shared/rules/recharge.md and seed
BOUNDARIES: list[tuple[str, list[RCard], tuple[int, bool], tuple[int, bool]]] = [
    ("empty hand", [], (0, False), (0, False)),
    # recharge.md:12 -- a formation starts with a hero
    ("no hero", [team(30, "red", "red"), boost("red", 20, "red", 20)], (0, False), (0, False)),
    ("a hero alone", [hero(40, "red", "blue")], (40, True), (40, True)),
    ("a hero of power 0, no colours", [hero(0, "", "")], (0, True), (0, True)),
    # recharge.md:12-13 -- heroes join only through teamwork
    (
        "two heroes, no teamwork",
        [hero(30, "red", "red"), hero(20, "red", "red")],
        (30, True),
        (30, True),
    ),
    # seed:175 "may": a teamwork with no hero beyond it counts
    (
        "dangling teamwork",
        [hero(30, "red", "green"), team(20, "red", "blue")],
        (50, True),
        (50, True),
    ),
    (
        "dangling on the left edge",
        [hero(30, "green", "red"), team(20, "yellow", "red")],
        (50, True),
        (50, True),
    ),
    # seed:173 -- a teamwork needs a hero edge of its colour
    (
        "teamwork of no shared colour",
        [hero(30, "red", "red"), team(20, "blue", "green")],
        (30, True),
        (30, True),
    ),
    # seed:174 -- one teamwork per hero edge: one on each edge
    (
        "a teamwork on each edge",
        [hero(30, "red", "blue"), team(20, "red", "green"), team(15, "green", "blue")],
        (65, True),
        (65, True),
    ),
    (
        "two copies of a teamwork, one an edge",
        [hero(30, "red", "red"), team(20, "red", "green"), team(20, "red", "green")],
        (70, True),
        (70, True),
    ),
    # seed:175 -- a teamwork takes one hero beyond it; rows of three heroes
    (
        "hero, teamwork, hero",
        [hero(10, "red", "red"), team(5, "red", "red"), hero(20, "red", "red")],
        (35, True),
        (35, True),
    ),
    (
        "a row of three heroes",
        [
            hero(10, "red", "red"),
            team(5, "red", "red"),
            hero(20, "red", "red"),
            hero(30, "red", "red"),
            team(5, "red", "red"),
        ],
        (70, True),
        (70, True),
    ),
    (
        "three heroes, one teamwork",
        [
            hero(10, "red", "red"),
            team(5, "red", "red"),
            hero(20, "red", "red"),
            hero(30, "red", "red"),
        ],
        (55, True),
        (55, True),
    ),
    # recharge.md:14 -- the joining hero's touching edge must share a colour
    (
        "a hero joins through a shared colour",
        [hero(30, "red", "red"), team(10, "red", "blue"), hero(20, "blue", "green")],
        (60, True),
        (60, True),
    ),
    (
        "a hero of no shared colour does not join",
        [hero(30, "red", "red"), team(10, "red", "blue"), hero(20, "green", "yellow")],
        (40, True),
        (40, True),
    ),
    # seed:174, 184 -- a two-colour edge: a teamwork on one colour, a power card on the other
    (
        "two-colour edge, one teamwork",
        [hero(30, "green", "red+blue"), team(10, "red", "red"), team(15, "blue", "blue")],
        (45, True),
        (45, True),
    ),
    (
        "two-colour edge, teamwork and power card",
        [
            hero(30, "green", "red+blue"),
            team(10, "red", "red"),
            team(15, "blue", "blue"),
            boost("blue", 25, "green", 5),
        ],
        (65, True),
        (65, True),
    ),
    (
        "two power cards beat the teamwork",
        [
            hero(30, "green", "red+blue"),
            team(10, "red", "red"),
            team(15, "blue", "blue"),
            boost("blue", 25, "green", 5),
            boost("red", 40, "yellow", 0),
        ],
        (95, True),
        (95, True),
    ),
    # seed:175 -- the joining hero's touching edge keeps its other colour for a power card
    (
        "joining hero's other colour",
        [
            hero(30, "red", "red"),
            team(10, "red", "blue"),
            hero(20, "blue+yellow", "green"),
            boost("yellow", 30, "green", 0),
        ],
        (90, True),
        (90, True),
    ),
    # seed:184 -- one power card per colour point
    (
        "each point one power card",
        [
            hero(10, "red", "red+blue"),
            boost("red", 20, "", 0),
            boost("red", 30, "", 0),
            boost("blue", 5, "", 0),
        ],
        (65, True),
        (65, True),
    ),
    (
        "one red point a side, three red cards",
        [
            hero(10, "red", "green"),
            boost("red", 20, "", 0),
            boost("red", 30, "", 0),
            boost("red", 5, "", 0),
        ],
        (40, True),
        (40, True),
    ),
    # seed:182 -- only the touching side counts
    (
        "touching side only",
        [hero(10, "red", "red"), boost("red", 5, "blue", 50)],
        (15, True),
        (15, True),
    ),
    # seed:183 -- power cards attach to heroes, never to teamwork
    (
        "no power card on teamwork",
        [hero(10, "red", "red"), team(5, "red", "blue"), boost("blue", 40, "blue", 40)],
        (15, True),
        (15, True),
    ),
    # recharge.md:19-20, seed:185-188 -- chaining off and on
    (
        "a chain of two",
        [hero(10, "red", "red"), boost("red", 20, "blue", 0), boost("blue", 30, "green", 0)],
        (30, True),
        (60, True),
    ),
    (
        "a chain hanging off a zero side",
        [hero(10, "red", "green"), boost("red", 20, "blue", 5), boost("blue", 30, "green", 0)],
        (30, True),
        (60, True),
    ),
    (
        "a chain of five (every card chained)",
        [
            hero(10, "red", "red"),
            boost("red", 10, "blue", 1),
            boost("blue", 10, "green", 1),
            boost("green", 10, "yellow", 1),
            boost("yellow", 10, "red", 1),
            boost("red", 10, "blue", 1),
        ],
        (30, True),
        (60, True),
    ),
    # seed:187 -- only power cards chain
    (
        "teamwork does not chain",
        [hero(10, "red", "red"), boost("red", 5, "blue", 5), team(30, "blue", "blue")],
        (15, True),
        (15, True),
    ),
    # seed:156 -- Power Plus +10 on every kind
    (
        "power plus on every kind",
        [
            hero(40, "red", "red", plus=True),
            team(10, "red", "blue", plus=True),
            boost("red", 20, "blue", 0, plus=True),
        ],
        (100, True),
        (100, True),
    ),
    (
        "power plus beside its normal copy",
        [hero(40, "red", "red"), hero(40, "red", "red", plus=True), team(5, "red", "red")],
        (95, True),
        (95, True),
    ),
    # special cards play as their kind; other kinds are ignored
    (
        "another kind is ignored",
        [
            RCard("event", power=99, left=1, right=1, left_power=50),
            hero(30, "red", "red"),
            team(5, "red", "red"),
        ],
        (35, True),
        (35, True),
    ),
    # rows listed from either end (the mirror image is as strong)
    (
        "a row that needs a turned hero",
        [
            hero(20, "green", "red"),
            hero(25, "blue", "yellow"),
            hero(30, "red+yellow", "blue"),
            team(5, "red", "blue"),
            team(7, "yellow", "green"),
        ],
        (87, True),
        (87, True),
    ),
    (
        "a teamwork hanging off each end",
        [
            hero(20, "red", "blue"),
            hero(25, "blue", "red"),
            team(5, "blue", "blue"),
            team(30, "red", "green"),
            team(40, "red", "yellow"),
        ],
        (120, True),
        (120, True),
    ),
    (
        "the weaker row leaves a point for a strong card",
        [
            hero(10, "yellow", "red"),
            hero(10, "red", "red"),
            team(20, "yellow", "red"),
            boost("yellow", 45, "green", 0),
        ],
        (75, True),
        (75, True),
    ),
    # the widest edges: four colours a side (scratch sizes at their largest)
    (
        "four-colour edges everywhere",
        [
            hero(10, "red+green+yellow+blue", "red+green+yellow+blue"),
            team(5, "red+green+yellow+blue", "red+green+yellow+blue"),
            hero(10, "red+green+yellow+blue", "red+green+yellow+blue"),
            team(5, "red+green+yellow+blue", "red+green+yellow+blue"),
            hero(10, "red+green+yellow+blue", "red+green+yellow+blue"),
            boost("red+green+yellow+blue", 7, "red+green+yellow+blue", 9),
        ],
        (49, True),
        (49, True),
    ),
    (
        "a hero and five power cards",
        [
            hero(10, "red+blue", "yellow+green"),
            boost("red", 11, "blue", 12),
            boost("blue", 13, "yellow", 14),
            boost("yellow", 15, "green", 16),
            boost("green", 17, "red", 18),
            boost("red+blue", 19, "green", 20),
        ],
        (77, True),  # 10 + green 16 + red 18 + blue 19 + yellow 14
        (90, True),
    ),
]


@pytest.mark.parametrize(
    ("hand", "plain", "chained"),
    [pytest.param(hand, plain, chained, id=name) for name, hand, plain, chained in BOUNDARIES],
)
def test_every_rule_boundary_hand_by_hand(
    hand: list[RCard], plain: tuple[int, bool], chained: tuple[int, bool]
) -> None:
    assert reference(hand, False) == plain
    assert reference(hand, True) == chained
    assert kernel_answer(hand, False) == plain
    assert kernel_answer(hand, True) == chained
    # the order the cards are drawn in changes nothing
    assert kernel_answer(list(reversed(hand)), False) == plain
    assert kernel_answer(list(reversed(hand)), True) == chained


def test_a_hand_holds_at_most_six_cards() -> None:
    cards = tuple(hero(10, "red", "red") for _ in range(7))
    tables = kernel.arrays(tuple(range(7)), cards)
    with pytest.raises(ValueError, match="at most 6"):
        kernel.hand_power(tables, list(range(7)), False)
    assert kernel.hand_power(tables, list(range(6)), False) == (10, True)


def _random_hands(pool: tuple[RCard, ...], seed: int, count: int) -> list[list[int]]:
    """Hands of 0-6 cards; every fourth may hold an index twice (a second copy)."""
    rng = random.Random(seed)
    hands = []
    for i in range(count):
        size = rng.randint(0, HAND_LIMIT)
        if i % 4 == 0:
            hands.append([rng.randrange(len(pool)) for _ in range(size)])
        else:
            hands.append(rng.sample(range(len(pool)), size))
    return hands


def _demo_pool() -> tuple[RCard, ...]:
    """Every printing of every demo card: Power Plus copies beside their normal version."""
    pool = []
    for card in _catalog()["cards"]:
        for printing in card.get("printings") or [{}]:
            pool.append(
                RCard(
                    card["type"],
                    power=int(card["attributes"].get("power", 0)),
                    left=colour_mask(card["attributes"].get("left")),
                    right=colour_mask(card["attributes"].get("right")),
                    left_power=int(card["attributes"].get("left_power", 0)),
                    right_power=int(card["attributes"].get("right_power", 0)),
                    plus=printing.get("variant") == "power-plus",
                )
            )
    return tuple(pool)


def _generated_pool(seed: int) -> tuple[RCard, ...]:
    """Cards of every shape the rules allow and some they do not expect: edges of 0-4
    colours, powers from 0, Power Plus on any kind, and a kind the solver ignores."""
    rng = random.Random(seed)
    kinds = (HERO, HERO, TEAMWORK, TEAMWORK, POWER, POWER, "event")
    return tuple(
        RCard(
            rng.choice(kinds),
            power=rng.choice((0, 5, 10, 20, 35, 60)),
            left=rng.randrange(16),
            right=rng.randrange(16),
            left_power=rng.choice((0, 5, 15, 30)),
            right_power=rng.choice((0, 5, 15, 30)),
            plus=rng.random() < 0.2,
        )
        for _ in range(40)
    )


@pytest.mark.parametrize("chain", [False, True], ids=["plain", "chained"])
@pytest.mark.parametrize("pool_name", ["demo", "generated"])
def test_random_hands_match_the_solver(pool_name: str, chain: bool) -> None:
    """10,000 hands a pool and chaining rule, each the solver's answer."""
    pool = _demo_pool() if pool_name == "demo" else _generated_pool(7)
    tables = kernel.arrays(tuple(range(len(pool))), pool)
    for hand in _random_hands(pool, 11 + chain, 10_000):
        want = reference([pool[i] for i in hand], chain)
        assert kernel.hand_power(tables, hand, chain) == want, ([pool[i] for i in hand], chain)


def test_no_hand_of_the_deck_beats_the_histogram_bound() -> None:
    """``top`` sizes the kernel's power-when-full histogram: no hand of six may pass it."""
    pool = _generated_pool(3)
    pile = tuple(range(len(pool)))
    tables = kernel.arrays(pile, pool)
    rng = random.Random(5)
    for _ in range(2000):
        hand = rng.sample(pile, HAND_LIMIT)
        for chain in (False, True):
            assert kernel.hand_power(tables, hand, chain)[0] <= tables.top
    # the six strongest copies of the pile, each counted once as it can count in a formation

    def most(card: RCard) -> int:
        if card.kind == POWER:
            return max(card.side_value(0), card.side_value(1))
        return card.power + card.bonus if card.kind in (HERO, TEAMWORK) else 0

    assert tables.top == sum(sorted(most(c) for c in pool)[-6:])


# --- game by game -----------------------------------------------------------------------------

Row = tuple[list[int], list[bool], int, int, int, int]


def state_rows(p: RechargePrepared, params: dict[str, Any], seed: int, count: int) -> list[Row]:
    """Each game played through the state API by the policy: the powers and openings by
    turn, the first open turn, the turn the hand fills and its power then, cards seen."""
    rows = []
    for index in range(count):
        state = ENGINE.new_game(p, params, game_rng(seed, index))
        while not state.is_over():
            state.apply(ENGINE.choose(state))
        rows.append(
            (
                state.powers,
                state.opened,
                state.first_open,
                state.full_turn,
                state.full_power,
                state.pos,
            )
        )
    return rows


def kernel_rows(p: RechargePrepared, seed: int, count: int) -> list[Row]:
    got = kernel.play_each(p.arrays, p.turns, p.chain, p.threshold, seed, 0, count)
    rows = []
    for powers, opened, each in zip(
        got.powers.tolist(), got.opened.tolist(), got.each.tolist(), strict=True
    ):
        first, full_turn, full_power, seen = each
        rows.append(([*powers], [bool(o) for o in opened], first, full_turn, full_power, seen))
    return rows


def python_rows(p: RechargePrepared, seed: int, count: int) -> list[Row]:
    """The Python batch path's per-game prefix rows, read turn by turn as the state API."""
    columns, full_turn = kernel.columns_of(p.turns, len(p.pile))
    rows = []
    for powers, opens in zip(*prefix_rows(p, seed, 0, count), strict=True):
        by_turn = [powers[c] for c in columns]
        opened = [opens[c] for c in columns]
        first = opened.index(True) + 1 if any(opened) else 0
        full_power = by_turn[full_turn - 1] if full_turn else 0
        rows.append((by_turn, opened, first, full_turn, full_power, int(columns[-1]) + 1))
    return rows


def assert_rows(got: list[Row], want: list[Row], what: str) -> None:
    assert len(got) == len(want)
    for index, (a, b) in enumerate(zip(got, want, strict=True)):
        assert a == b, f"{what}: game {index} differs: {a} != {b}"


DEMO_PARAMS = [
    pytest.param({}, id="defaults"),
    pytest.param({"chain_power_cards": True}, id="chaining"),
    pytest.param({"turns": 1}, id="one-turn"),
    pytest.param({"turns": 4}, id="never-full"),  # 5 cards at most
    pytest.param({"turns": 5}, id="full-on-the-last-turn"),
    pytest.param({"turns": 30, "chain_power_cards": True}, id="thirty-turns-chaining"),
    pytest.param({"open_threshold": 0}, id="threshold-0"),
    pytest.param({"open_threshold": 100}, id="threshold-100"),
    pytest.param({"open_threshold": 500, "turns": 7}, id="threshold-500"),
]


@pytest.mark.parametrize("params", DEMO_PARAMS)
def test_the_demo_deck_game_by_game(params: dict[str, Any]) -> None:
    """The kernel and the Python batch path against the state API on 1,000 seeds, then the
    kernel against the Python batch path on 10,000 seeds (the two fast paths play the same
    deal; the state API costs about 1.5 ms a game)."""
    p = ENGINE.prepare(demo_deck(), params)
    want = state_rows(p, params, 31, 1000)
    assert_rows(kernel_rows(p, 31, 1000), want, "kernel vs state API")
    assert_rows(python_rows(p, 31, 1000), want, "Python batch vs state API")
    assert_rows(kernel_rows(p, 32, 10_000), python_rows(p, 32, 10_000), "kernel vs Python")


RED_HERO = hero(40, "red", "red")
EDGE_DECKS = [
    pytest.param(sim_deck((RED_HERO, 1)), {"turns": 3}, id="one-hero"),
    pytest.param(sim_deck((RED_HERO, 1)), {"open_threshold": 40}, id="one-hero-at-threshold"),
    pytest.param(sim_deck((RED_HERO, 1)), {"open_threshold": 41}, id="one-hero-below-threshold"),
    pytest.param(sim_deck((boost("red", 20, "blue", 5), 1)), {"open_threshold": 0}, id="one-power"),
    pytest.param(sim_deck((team(20, "red", "red"), 1)), {}, id="one-teamwork"),
    pytest.param(
        sim_deck((RED_HERO, 1), (team(10, "red", "blue"), 1), (boost("blue", 15, "red", 25), 1)),
        {"turns": 5},
        id="three-cards-exhausted",
    ),
    pytest.param(
        sim_deck(
            (RED_HERO, 1),
            (team(10, "red", "blue"), 1),
            (hero(30, "blue", "red+blue"), 1),
            (boost("blue", 15, "yellow", 35), 1),
            (boost("red", 20, "blue", 5), 1),
        ),
        {"turns": 8, "chain_power_cards": True},
        id="five-cards-never-full",
    ),
    pytest.param(
        sim_deck(
            (RED_HERO, 1),
            (team(10, "red", "blue"), 1),
            (hero(30, "blue", "red+blue"), 1),
            (boost("blue", 15, "yellow", 35), 1),
            (boost("red", 20, "blue", 5), 1),
            (team(25, "green", "green"), 1),
        ),
        {"turns": 6},
        id="six-cards-full-on-turn-5",
    ),
    pytest.param(
        sim_deck(
            (RED_HERO, 2),
            (hero(40, "red", "red", plus=True), 1),
            (team(5, "red", "red"), 2),
            (boost("red", 20, "red", 10), 2),
            (RCard("event", power=99, left=1, right=1), 1),
        ),
        {"open_threshold": 90},
        id="copies-power-plus-and-another-kind",
    ),
    pytest.param(
        sim_deck(*((boost("red", 10 + i, "blue", i), 1) for i in range(7)), (RED_HERO, 1)),
        {"turns": 10, "chain_power_cards": True},
        id="mostly-power-cards",
    ),
    pytest.param(GOLDEN_DECK, {}, id="golden"),
    pytest.param(GOLDEN_DECK, {"chain_power_cards": True, "turns": 12}, id="golden-chaining"),
]


@pytest.mark.parametrize(("deck", "params"), EDGE_DECKS)
def test_edge_decks_game_by_game(deck: SimDeck, params: dict[str, Any]) -> None:
    """10,000 seeds on each edge deck (deck exhaustion, a deck that never fills the hand and
    one that fills it on its last card, 1-card decks, the threshold met exactly, copies),
    the kernel against the state API; the golden deck's 1,000 against the state API and
    10,000 against the Python batch path."""
    p = ENGINE.prepare(deck, params)
    if deck is GOLDEN_DECK:
        assert_rows(kernel_rows(p, 9, 1000), state_rows(p, params, 9, 1000), "kernel vs state")
        assert_rows(kernel_rows(p, 10, 10_000), python_rows(p, 10, 10_000), "kernel vs Python")
    else:
        assert_rows(kernel_rows(p, 9, 10_000), state_rows(p, params, 9, 10_000), "kernel")


def test_the_edge_decks_reach_their_boundaries() -> None:
    """The edge decks do what their names say, read from the kernel's own rows."""
    one = ENGINE.prepare(sim_deck((RED_HERO, 1)), {"open_threshold": 40, "turns": 3})
    assert kernel_rows(one, 1, 1) == [([40, 40, 40], [True] * 3, 1, 0, 0, 1)]
    below = ENGINE.prepare(sim_deck((RED_HERO, 1)), {"open_threshold": 41, "turns": 2})
    assert kernel_rows(below, 1, 1) == [([40, 40], [False, False], 0, 0, 0, 1)]
    power = ENGINE.prepare(sim_deck((boost("red", 20, "blue", 5), 1)), {"open_threshold": 0})
    assert kernel_rows(power, 1, 1)[0][:3] == ([0] * 10, [False] * 10, 0)
    six = sim_deck(*((hero(10 * (i + 1), "red", "red"), 1) for i in range(6)))
    full = kernel_rows(ENGINE.prepare(six, {"turns": 6}), 1, 50)
    assert {row[3] for row in full} == {5} and {row[4] for row in full} == {60}
    assert {row[5] for row in full} == {6}
    short = kernel_rows(ENGINE.prepare(six, {"turns": 4}), 1, 50)
    assert {row[3] for row in short} == {0} and {row[5] for row in short} == {5}


CHIPS = [
    pytest.param([2] * 25, id="25-chips-50-points"),  # recharge.md:30 at its lower total
    pytest.param([5] * 13, id="13-chips-65-points"),  # at its upper total
    pytest.param([2] * 24 + [1], id="49-points"),  # one below: a deck problem, not a rule of play
    pytest.param([5] * 13 + [1], id="66-points"),
    pytest.param([3] * 26, id="26-chips"),
    pytest.param([0, 6, 60], id="chips-out-of-range"),
]


@pytest.mark.parametrize("chips", CHIPS)
def test_counter_chips_change_no_game(chips: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    """Counter chips (recharge.md:30) are bet, never drawn, and the goldfish bets none (the
    engine's not_modelled says so): whatever their number and total, at the deck checker's
    boundaries or beyond them, the kernel plays the very games of the same deck without them."""
    plain = demo_deck()
    with_chips = dataclasses.replace(plain, extras={"chips": chips})
    for params in ({}, {"chain_power_cards": True}):
        p = ENGINE.prepare(plain, params)
        q = ENGINE.prepare(with_chips, params)
        assert kernel_rows(q, 4, 2000) == kernel_rows(p, 4, 2000)
        monkeypatch.setenv("DECKLAB_COMPILED", "1")
        assert ENGINE.play_games(q, params, 4, 0, 2000) == ENGINE.play_games(p, params, 4, 0, 2000)


# --- the totals -------------------------------------------------------------------------------


def _played(
    monkeypatch: pytest.MonkeyPatch,
    flag: str,
    deck: SimDeck,
    params: dict[str, Any],
    parts: list[tuple[int, int]],
) -> Metrics:
    monkeypatch.setenv("DECKLAB_COMPILED", flag)
    p = ENGINE.prepare(deck, params)
    return Metrics.merged(ENGINE.play_games(p, params, 77, start, n) for start, n in parts)


@pytest.mark.parametrize(
    ("deck", "params"),
    [
        pytest.param(demo_deck(), {}, id="demo-defaults"),
        pytest.param(
            demo_deck(), {"chain_power_cards": True, "open_threshold": 120}, id="demo-chaining"
        ),
        pytest.param(demo_deck(), {"turns": 4, "open_threshold": 0}, id="demo-never-full"),
        pytest.param(GOLDEN_DECK, {"turns": 30}, id="golden-thirty-turns"),
        pytest.param(sim_deck((RED_HERO, 1)), {}, id="one-card"),
    ],
)
def test_compiled_totals_equal_the_python_batch_path_however_split(
    monkeypatch: pytest.MonkeyPatch, deck: SimDeck, params: dict[str, Any]
) -> None:
    whole = [(0, 3000)]
    splits = [
        [(0, 1000), (1000, 1000), (2000, 1000)],
        [(2999, 1), (0, 1), (1, 1500), (1501, 1498)],
        [(1200, 1800), (0, 1200)],
    ]
    expected = _played(monkeypatch, "0", deck, params, whole).to_json()
    assert expected["games"] == 3000
    assert _played(monkeypatch, "1", deck, params, whole).to_json() == expected
    for parts in splits:
        assert _played(monkeypatch, "1", deck, params, parts).to_json() == expected
    assert _played(monkeypatch, "0", deck, params, splits[1]).to_json() == expected


def test_run_games_and_an_empty_batch_are_the_same_on_both_paths(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DECKLAB_COMPILED", "1")
    fast = run_games(ENGINE, demo_deck(), {}, run_seed=3, start=500, count=2500)
    empty = ENGINE.play_games(ENGINE.prepare(demo_deck(), {}), {}, 3, 0, 0)
    monkeypatch.setenv("DECKLAB_COMPILED", "0")
    assert run_games(ENGINE, demo_deck(), {}, run_seed=3, start=500, count=2500) == fast
    assert ENGINE.play_games(ENGINE.prepare(demo_deck(), {}), {}, 3, 0, 0) == empty
    assert empty.games == 0


@pytest.mark.parametrize("flag", ["0", "1"])
def test_negative_seeds_and_indexes_are_refused_on_both_paths(
    monkeypatch: pytest.MonkeyPatch, flag: str
) -> None:
    monkeypatch.setenv("DECKLAB_COMPILED", flag)
    p = ENGINE.prepare(GOLDEN_DECK, {})
    with pytest.raises(ValueError, match="not negative"):
        ENGINE.play_games(p, {}, -1, 0, 10)
    with pytest.raises(ValueError, match="not negative"):
        ENGINE.play_games(p, {}, 1, -1, 10)


def test_the_fallback_says_so_once(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("DECKLAB_COMPILED", "0")
    monkeypatch.setattr(compiled, "_noticed", set())
    p = ENGINE.prepare(GOLDEN_DECK, {})
    with caplog.at_level(logging.INFO, logger="simulator.engine.compiled"):
        for start in (0, 10, 20):
            ENGINE.play_games(p, {}, 1, start, 10)
    notices = [r for r in caplog.records if "recharge" in r.getMessage()]
    assert len(notices) == 1
    assert "Python batch path" in notices[0].getMessage()


def test_warm_compiles_and_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DECKLAB_COMPILED", "1")
    ENGINE.warm()
    # the arrays a run reuses are built once per prepare and kept on it
    p = ENGINE.prepare(demo_deck(), {})
    assert p.arrays.pile.tolist() == list(p.pile)
    assert p.arrays.kind.dtype == np.int64
    monkeypatch.setenv("DECKLAB_COMPILED", "0")
    ENGINE.warm()  # nothing to warm on the Python path
