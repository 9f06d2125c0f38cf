"""Tuning a Mattsan deck (simulator/engine/tuning.py) on decks whose best move is known by
construction, each race run on 20 seeds: the planted move must come first every time, and a
move that changes nothing (cut a card, add the same card) must show exactly 0.

The plants, under the default parameters unless said (games/mattsan/engine.py):

  (a) a dead card beside better ones. Traps and terrain are never played by the goldfish, and
      trumps do nothing while "trump damage" is 0: only a unit matters to the turn the dummy
      line-up falls, and only for the opening, whose first main phase must put a unit on the
      battlefield (mattsan.md:17). Our units are never hit, so once one stands the line-up
      falls at turn 6 whatever the rest. A deck of 4 units: a unit in place of a trap can only
      help, game by game; a unit for a unit, a terrain for a trap change nothing.
  (b) a card that cannot be played before the goal's turn. Soul charge is 1 card a turn (an
      assumption, mattsan.md:22), so a trump costing 4 cannot be paid for before turn 4
      (mattsan.md:15-16): for "a trump cast by turn 3" it is as dead as a trap. Swapping it
      for a trump costing 1 is the best move; a unit for it helps a little (fewer openings
      lost, so more games go on to cast), another costly trump nothing.
  (c) a deck one copy short of a threshold. We draw 1 card and soul-charge 1 from the deck a
      turn (mattsan.md:19): after an opening of 5, a 30-card deck draws its last card at turn
      13 and a 29-card one must draw from its empty deck at turn 13 and loses
      (mattsan.md:17-18). A dummy with 12 cards that never loses its line-up (99 HP) draws its
      last card at its turn 12 and loses at its turn 13. So every game of the 29-card deck
      (a deck under construction: mattsan.md:8 asks for 30) is lost, and one copy more of
      anything wins them all: an effect of exactly 1, while a copy fewer or a swap changes
      nothing (0).
"""

from __future__ import annotations

from typing import Any

import pytest

from games.mattsan import goals
from games.mattsan.engine import ENGINE
from simulator.engine.cards import SimCard
from simulator.engine.goals import Goal, goal_by_code
from simulator.engine.metrics import Estimate
from simulator.engine.tuning import Move, Race, race
from tests.games.mattsan.test_engine import CARDS, deck_of

SEEDS = list(range(1, 21))


def new_card(name: str) -> SimCard:
    """A card the deck does not hold, as the tuning form offers it (its index is ignored)."""
    card_type, attributes = CARDS[name]
    return SimCard(0, name.lower(), name, card_type, dict(attributes))


#: cards a move may add that a planted deck does not hold, by code
NEW_CARDS = {card.code: card for card in map(new_card, ("Pika", "Dash", "Giant"))}


def goal(code: str) -> Goal:
    found = goal_by_code(ENGINE.goals, code)
    assert found is not None
    return found


def run(
    order: list[str],
    moves: list[Move],
    code: str,
    seed: int,
    turn: int | None = None,
    **params: Any,
) -> Race:
    assert len(set(moves)) == len(moves)
    return race(
        ENGINE,
        deck_of(order),
        moves,
        new_cards=NEW_CARDS,
        params=params,
        goal=goal(code),
        turn=turn,
        seed=seed,
        budget=300_000,
    )


def assert_planted_first(result: Race, planted: Move) -> None:
    best = result.ranking[0]
    assert best.move == planted, [(r.move, r.effect.value) for r in result.ranking]
    assert best.effect.low > 0  # better than the deck as it is, and it is sure of it
    assert not any(r.tied for r in result.ranking)
    assert best.effect.value > max(r.effect.value for r in result.ranking[1:])


def assert_exactly_zero(result: Race, noop: Move) -> None:
    (ranked,) = [r for r in result.ranking if r.move == noop]
    assert ranked.effect == Estimate(0.0, 0.0, 0.0, ranked.games)
    assert ranked.games >= 200


def effect_of(result: Race, move: Move) -> Estimate:
    (ranked,) = [r for r in result.ranking if r.move == move]
    return ranked.effect


# --- (a) a dead card beside better ones -------------------------------------------------------

DEAD_DECK = ["Boss"] * 2 + ["Junker"] * 2 + ["Peel"] * 20 + ["Ray"] * 3 + ["Base"] * 3
DEAD_BEST = Move("peel", "pika")
DEAD_MOVES = [
    Move("boss", "peel"),  # a unit for the dead card: worse
    Move("peel", "base"),  # a dead card for another: nothing
    Move("ray", "ray"),  # the no-op
    DEAD_BEST,
    Move("boss", "pika"),  # a unit for a unit: nothing
]


@pytest.mark.parametrize("seed", SEEDS)
def test_a_unit_in_place_of_a_dead_trap_is_the_best_move_for_the_defeat_turn(seed: int) -> None:
    result = run(DEAD_DECK, DEAD_MOVES, goals.DEFEAT_TURN, seed)
    assert_planted_first(result, DEAD_BEST)
    assert_exactly_zero(result, Move("ray", "ray"))
    # the other moves that change nothing in play show exactly nothing too
    assert effect_of(result, Move("peel", "base")).value == 0
    assert effect_of(result, Move("boss", "pika")).value == 0
    assert effect_of(result, Move("boss", "peel")).high < 0


# --- (b) a card that cannot be played before the goal's turn ----------------------------------

COSTLY_DECK = (
    (["Boss"] * 3 + ["Chief"] * 3 + ["Pika"] * 3 + ["Junker"] * 3)
    + ["Ray"] * 3
    + ["Sale"] * 2
    + ["Peel"] * 13
)
COSTLY_BEST = Move("ray", "dash")
COSTLY_MOVES = [
    Move("peel", "ray"),  # another trump that cannot be paid for by turn 3: nothing
    Move("ray", "giant"),  # a unit for it: fewer openings lost, a little better
    COSTLY_BEST,
    Move("boss", "ray"),  # a unit for a trump that waits: a little worse
    Move("ray", "ray"),  # the no-op
]


@pytest.mark.parametrize("seed", SEEDS)
def test_a_cheap_trump_for_one_costing_4_is_the_best_move_for_a_trump_by_turn_3(
    seed: int,
) -> None:
    result = run(COSTLY_DECK, COSTLY_MOVES, goals.TRUMP_BY_TURN, seed, turn=3)
    assert_planted_first(result, COSTLY_BEST)
    assert_exactly_zero(result, Move("ray", "ray"))
    assert effect_of(result, Move("peel", "ray")).value == 0


def test_the_costly_trump_is_a_dead_card_only_before_it_can_be_paid_for() -> None:
    """By turn 3 the trump costing 4 is as dead as a trap: a cheap trump in place of either
    gains as much. By turn 4 it is paid for whenever it is drawn, as a cheap trump in its
    place would be: the swap gains exactly nothing, while the trap's place still gains."""
    moves = [COSTLY_BEST, Move("peel", "dash")]
    early = run(COSTLY_DECK, moves, goals.TRUMP_BY_TURN, 7, turn=3)
    assert effect_of(early, COSTLY_BEST).value == pytest.approx(
        effect_of(early, Move("peel", "dash")).value, abs=0.01
    )
    late = run(COSTLY_DECK, moves, goals.TRUMP_BY_TURN, 7, turn=4)
    assert late.ranking[0].move == Move("peel", "dash")
    assert late.ranking[0].effect.low > 0
    swap = effect_of(late, COSTLY_BEST)
    assert (swap.value, swap.low, swap.high) == (0.0, 0.0, 0.0)


# --- (c) a deck one copy short of a threshold -------------------------------------------------

SHORT_DECK = ["Boss"] * 10 + ["Chief"] * 10 + ["Junker"] * 9
SHORT_PARAMS: dict[str, Any] = {"dummy_hp_1": 99, "dummy_deck": 12}
SHORT_BEST = Move(None, "boss")
SHORT_MOVES = [
    Move("boss", None),  # a copy fewer: lost anyway, 0
    Move("boss", "chief"),  # still 29 cards: 0
    SHORT_BEST,
    Move("junker", "junker"),  # the no-op
]


@pytest.mark.parametrize("seed", SEEDS)
def test_one_copy_more_wins_every_game_of_a_deck_one_card_short_of_outlasting_the_dummy(
    seed: int,
) -> None:
    result = run(SHORT_DECK, SHORT_MOVES, goals.WIN, seed, **SHORT_PARAMS)
    assert_planted_first(result, SHORT_BEST)
    best = result.ranking[0].effect
    assert (best.value, best.low, best.high) == (1.0, 1.0, 1.0)
    assert result.state.baseline().value == 0.0
    assert_exactly_zero(result, Move("junker", "junker"))
    for move in (Move("boss", None), Move("boss", "chief")):
        assert effect_of(result, move).value == 0


# --- either path -------------------------------------------------------------------------------


def test_a_race_is_the_same_on_the_python_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel's values equal the games played one by one, so every round, drop and
    figure of a race is the same without numba."""
    kwargs: dict[str, Any] = {
        "new_cards": NEW_CARDS,
        "params": {},
        "goal": goal(goals.TRUMP_BY_TURN),
        "turn": 3,
        "seed": 3,
        "budget": 7_200,
    }
    deck = deck_of(COSTLY_DECK)
    # two moves as good as each other (a trump costing 4 is as dead as a trap by turn 3)
    # and the no-op: a race of several rounds, each move's interval narrowing
    moves = [COSTLY_BEST, Move("peel", "dash"), Move("ray", "ray")]
    monkeypatch.setenv("DECKLAB_COMPILED", "1")
    fast = race(ENGINE, deck, moves, **kwargs)
    monkeypatch.setenv("DECKLAB_COMPILED", "0")
    slow = race(ENGINE, deck, moves, **kwargs)
    assert fast.state.rounds >= 3
    assert slow.state.to_json() == fast.state.to_json()
    assert slow.ranking == fast.ranking
