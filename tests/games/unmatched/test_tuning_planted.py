"""Tuning Unmatched decks whose best move is known by construction (simulator/engine/tuning.py
over ``UnmatchedEngine.goal_values``): the race ranks the planted move first for every seed,
and a move that changes nothing (cut a card, add the same card) shows exactly 0.

What the goldfish makes of a dead card (a scheme, a defense card, another hero's card), and so
how the decks are planted. The policy attacks whenever it holds a card it can attack with, so
its damage is bounded by its actions (two a turn, unmatched.md:26), not by its cards: a single
dead card in the opening hand costs nothing (the next card drawn takes its place), and cutting
it gains about what cutting an average card would. A dead card only costs what it should, a
maneuver spent drawing it (line 27), when dead cards are common enough that the hand runs dry
of attacks; so deck (a) holds eight copies of its dead card. Cutting one for Dash beats cutting
it for a weaker card game by game (the same place in the deal, a stronger attack), and beats
cutting a 2- or 3-value attack for Dash by some five standard errors at this budget (0 misses
in 300 seeds when the test was written).

Unmatched has no card that cannot be played before some turn (no costs: any card a fighter of
ours may use is playable from turn 1, lines 26-31), so (b) plants another known best move:
with every card playable and the opponent out of reach, the cards attacked with by the end of
turn T >= 3 are exactly the first T + 2 dealt (five in hand, then draw one, attack with it), so
a swap's effect is (value added - value cut) x P(the copy is among them): the weakest card for
the strongest card a fighter of ours can use. The strongest printed card, another hero's, is
dead here (lines 30-32): it plays exactly the games a defense card would.

(c) is one copy short of a threshold: the deck's attacks add up to 20 against a 22 HP opponent,
so it never falls; the one swap that crosses, a dead card for a 3-value attack, makes it fall in
every game, and every other swap leaves it standing, an effect of exactly 0. Decks stay at 30
cards (line 18), so the moves are swaps only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from games.unmatched import goals
from games.unmatched.engine import ENGINE
from simulator.engine import compiled
from simulator.engine.cards import SimCard
from simulator.engine.goals import Goal, goal_by_code
from simulator.engine.tuning import Move, Race, all_moves, race
from tests.games.unmatched.test_kernel import CARDS, deck_of

SEEDS = range(1, 21)
#: game plays a race: about 0.02 s of the kernel, where playing each game alone (the
#: fallback's reference) would take about ten seconds per race
BUDGET = 120_000

pytestmark = pytest.mark.skipif(
    not compiled.available(), reason="the races need numba (DECKLAB_COMPILED unset)"
)


def card(name: str) -> SimCard:
    """A card of ``CARDS`` as the tuning form would offer it (its index is the race's)."""
    card_type, value, fighter, boost = CARDS[name]
    attributes: dict[str, Any] = {"boost": boost, "fighter": fighter}
    if value is not None:
        attributes["value"] = value
    return SimCard(0, name.lower(), name, card_type, attributes)


def goal(code: str) -> Goal:
    found = goal_by_code(ENGINE.goals, code)
    assert found is not None
    return found


def planted_race(
    order: Sequence[str],
    adds: Sequence[str],
    noop: str,
    params: dict[str, Any],
    code: str,
    turn: int | None,
    seed: int,
) -> Race:
    """Every swap of the deck's cards for ``adds``, and the no-op ``noop`` for itself."""
    deck = deck_of(order)
    assert not ENGINE.tune_problems(deck) and deck.size == 30
    moves = [*all_moves(deck, [name.lower() for name in adds]), Move(noop, noop)]
    return race(
        ENGINE,
        deck,
        moves,
        new_cards={name.lower(): card(name) for name in adds},
        params=params,
        goal=goal(code),
        turn=turn,
        seed=seed,
        budget=BUDGET,
    )


def assert_planted_first_and_noop_zero(result: Race, best: Move, noop: str) -> None:
    first = result.ranking[0]
    assert first.move == best, [(r.move, r.effect.value) for r in result.ranking[:4]]
    assert first.effect.low > 0 and not first.tied
    (nothing,) = (r for r in result.ranking if r.move == Move(noop, noop))
    assert nothing.games > 0
    assert (nothing.effect.value, nothing.effect.low, nothing.effect.high) == (0, 0, 0)


def dead_deck(dead: str) -> list[str]:
    """(a) a dead card beside attacks of 2 and 3."""
    return [dead] * 8 + ["Shot"] * 8 + ["Claws"] * 7 + ["Gaze"] * 7


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(
    "dead",
    [
        pytest.param("Plan", id="a-scheme"),  # the policy never plays a scheme
        pytest.param("Spear", id="another-heros-attack"),  # Achilles's: not ours (line 31)
    ],
)
def test_a_dead_card_is_cut_for_the_strongest_attack(dead: str, seed: int) -> None:
    result = planted_race(
        dead_deck(dead), ["Dash", "Shot", "Jab"], "shot", {}, goals.FALLS_ON, None, seed
    )
    assert_planted_first_and_noop_zero(result, Move(dead.lower(), "dash"), "shot")


# (b) every card playable, a 40 HP opponent out of reach by turn 5: the weakest card goes
PLAYABLE_DECK = ["Jab"] * 3 + ["Gaze"] * 9 + ["Shot"] * 9 + ["Claws"] * 9


@pytest.mark.parametrize("seed", SEEDS)
def test_the_weakest_card_is_cut_for_the_strongest_card_of_ours_not_another_heros(
    seed: int,
) -> None:
    result = planted_race(
        PLAYABLE_DECK,
        ["Spear", "Dash", "Guard", "Shot"],
        "gaze",
        {"opponent_hp": 40},
        goals.DAMAGE_BY,
        5,
        seed,
    )
    assert_planted_first_and_noop_zero(result, Move("jab", "dash"), "gaze")
    # Spear's 5 is printed for Achilles: in the very place of the cut copy it plays the games
    # a defense card does there, which no fighter of ours attacks with either
    effects = {r.move: (r.effect, r.games) for r in result.ranking}
    for cut in ("jab", "gaze", "shot", "claws"):
        assert effects[Move(cut, "spear")] == effects[Move(cut, "guard")]


# (c) 5 × Dash = 20 damage against 22 HP: one 3-value attack short of ever winning
SHORT_DECK = ["Dash"] * 5 + ["Guard"] * 25


@pytest.mark.parametrize("seed", SEEDS)
def test_the_one_swap_that_reaches_the_opponents_hp_is_found(seed: int) -> None:
    result = planted_race(
        SHORT_DECK,
        ["Shot", "Jab", "Spear"],
        "dash",
        {"opponent_hp": 22},
        goals.FALLS_ON,
        None,
        seed,
    )
    assert_planted_first_and_noop_zero(result, Move("guard", "shot"), "dash")
    never_fell = ENGINE.prepare(deck_of(SHORT_DECK), {"opponent_hp": 22}).max_turns + 1
    assert 0 < result.ranking[0].effect.value < never_fell
    for other in result.ranking[1:]:  # the opponent still never falls: exactly no effect
        assert (other.effect.value, other.effect.low, other.effect.high) == (0, 0, 0)
