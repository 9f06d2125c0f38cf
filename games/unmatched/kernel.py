"""Unmatched: the compiled batch kernel (issue 22), the same game as the fast loop ``_play``
and the state API of ``games/unmatched/engine.py``, over typed arrays.

``prepare`` turns the deck into ``UnmatchedArrays`` once (kept on the prepared object, so a
worker reuses them for every batch of a run); ``play_batch`` deals each game with the shared
counter-based deal (``simulator.engine.compiled.deal_order``: the same deck order as the
chunk path and the state API) and adds the measures into ``Totals``, plain int64 arrays that
``engine._kernel_metrics`` turns into the very ``Metrics`` the Python batch path gives.
``play_each`` plays the same core one game at a time and returns a row per game, so the tests
compare the kernel with the state API game by game, not only on totals. ``play_values`` plays
the same core for tuning (issue 23) and keeps one number per game: a goal's value
(games/unmatched/goals.py).

The rules (cited as in engine.py): opening hand 5 (unmatched.md:23), two actions a turn, no
pass (line 26), a maneuver draws 1 (line 27), an attack deals its value to a goldfish that
never defends (lines 34, 41), 2 damage per card not drawn from an empty deck (line 37), our
hero at 0 HP loses (line 38), the hand discarded down to 7 at the end of a turn (line 36).

How the hand is held, and why it plays the same game as ``_play``: the cards the policy may
attack with are a short array of card indexes, the dead ones only a count. Every card index
has its own attack score and discard rank (``prepare`` ranks them distinctly), so the best
attack and the discard are the same card whatever the order of the array; a dead card is
always discarded first (it ranks below every playable card), and which dead card goes does
not matter: none is ever played, and the measures only count them.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from games.unmatched.schedule import EXHAUSTION_DAMAGE, OPENING_HAND
from simulator.engine.compiled import deal_order, kernel

Ints = npt.NDArray[np.int64]

HAND_LIMIT = 7  # unmatched.md:36 (engine.py reads both from here)
ACTIONS_PER_TURN = 2  # unmatched.md:26
#: room for a hand: at most 7 cards start a turn and two maneuvers add two
HAND_ROOM = HAND_LIMIT + ACTIONS_PER_TURN + OPENING_HAND

# Columns of ``play_each``'s rows and slots of ``Totals.scalars``.
FELL_TURN, LOST, DRAWN, EXHAUSTION, EXHAUSTION_TURN, TURNS, FINAL = range(7)
ROW = 7
S_FELL, S_LOST, S_EXHAUSTED, S_DRAWN, S_DRAWN2, S_EXHAUSTION, S_EXHAUSTION2 = range(7)
SCALARS = 7
# What ``play_values`` reads of each game (games/unmatched/goals.py maps its goals to them):
# the damage dealt by the end of a turn, whether the opponent fell by a turn (0/1), the turn it
# fell (``max_turns + 1`` when it never did).
V_DAMAGE_BY, V_FELL_BY, V_FALLS_TURN = range(3)


class UnmatchedArrays(NamedTuple):
    """The prepared deck as int arrays, indexed by card index like the prepared tuples."""

    pile: npt.NDArray[np.intp]  # the unshuffled draw pile: card index per position
    value: Ints
    score: Ints  # attack preference: 0 never attacks with it, higher sooner
    rank: Ints  # discard order at the hand limit: lower sooner
    dead: Ints  # 1: the policy never plays it


def arrays(
    pile: tuple[int, ...],
    value: tuple[int, ...],
    score: tuple[int, ...],
    rank: tuple[int, ...],
    dead: tuple[int, ...],
) -> UnmatchedArrays:
    """The tables of ``UnmatchedPrepared`` as contiguous int arrays for the kernel."""
    return UnmatchedArrays(
        np.asarray(pile, dtype=np.intp),
        np.asarray(value, dtype=np.int64),
        np.asarray(score, dtype=np.int64),
        np.asarray(rank, dtype=np.int64),
        np.asarray(dead, dtype=np.int64),
    )


class Totals(NamedTuple):
    """A batch's measures as exact integers (``engine._kernel_metrics`` names them)."""

    scalars: Ints  # SCALARS slots: counts, sums and sums of squares
    fell_turns: Ints  # histogram of the turn the opponent fell, by turn
    exhaustion_turns: Ints  # histogram of the first exhaustion turn (0 = opening hand)
    dead: Ints  # histogram of dead cards in hand at the start of each turn
    damage: Ints  # per turn: the sum over games of the damage dealt by its end
    damage2: Ints  # the same, squared


@kernel
def _game(
    order: npt.NDArray[np.intp],
    size: int,
    pile: npt.NDArray[np.intp],
    value: Ints,
    score: Ints,
    rank: Ints,
    dead: Ints,
    hero_hp: int,
    opponent_hp: int,
    max_turns: int,
    hand: Ints,
    dead_by_turn: Ints,
    damage_by_turn: Ints,
    row: Ints,
) -> None:
    """One game dealt as ``order``: its measures into ``row`` (the ROW columns) and its dead
    cards and damage per turn into the first ``row[TURNS]`` slots of the two arrays."""
    opening = min(OPENING_HAND, size)  # line 23, line 37 when the deck is shorter
    exhaustion = EXHAUSTION_DAMAGE * (OPENING_HAND - opening)
    hp = hero_hp - exhaustion
    opponent = opponent_hp
    held = 0  # playable cards in ``hand[:held]``
    stuck = 0  # dead cards in hand
    for k in range(opening):
        card = pile[order[k]]
        if dead[card]:
            stuck += 1
        else:
            hand[held] = card
            held += 1
    pos = opening  # the next card to draw: also the cards drawn so far
    fell_turn = 0
    exhaustion_turn = 0
    lost = hp <= 0  # only a deck of under 5 cards with a hero of 1-8 HP
    ended = lost
    turns = 0
    turn = 1
    while not ended:
        dead_by_turn[turn - 1] = stuck
        for _action in range(ACTIONS_PER_TURN):  # line 26
            if held > 0:  # the policy: attack with the best card (lines 30-32, 34, 41)
                best = 0
                best_score = score[hand[0]]
                for j in range(1, held):
                    if score[hand[j]] > best_score:
                        best = j
                        best_score = score[hand[j]]
                card = hand[best]
                held -= 1
                hand[best] = hand[held]
                opponent -= value[card]
                if opponent <= 0:
                    fell_turn = turn
                    ended = True
                    break
            elif pos < size:  # maneuver: draw 1 (line 27)
                card = pile[order[pos]]
                pos += 1
                if dead[card]:
                    stuck += 1
                else:
                    hand[held] = card
                    held += 1
            else:  # line 37: no reshuffle, 2 damage
                hp -= EXHAUSTION_DAMAGE
                exhaustion += EXHAUSTION_DAMAGE
                if exhaustion_turn == 0:
                    exhaustion_turn = turn
                if hp <= 0:  # line 38
                    lost = True
                    ended = True
                    break
        if not ended:
            while held + stuck > HAND_LIMIT:  # line 36: dead cards go first
                if stuck > 0:
                    stuck -= 1
                else:
                    # Not reached under today's policy (it attacks whenever it holds a
                    # playable card, so at most the opening 5 are ever held): kept so the
                    # kernel stays the rule, as ``_play`` and the state API do, if it changes.
                    worst = 0
                    worst_rank = rank[hand[0]]
                    for j in range(1, held):
                        if rank[hand[j]] < worst_rank:
                            worst = j
                            worst_rank = rank[hand[j]]
                    held -= 1
                    hand[worst] = hand[held]
        damage_by_turn[turn - 1] = opponent_hp - max(opponent, 0)
        turns = turn
        if turn >= max_turns:
            break
        turn += 1
    row[FELL_TURN] = fell_turn
    row[LOST] = 1 if lost else 0
    row[DRAWN] = pos
    row[EXHAUSTION] = exhaustion
    row[EXHAUSTION_TURN] = exhaustion_turn
    row[TURNS] = turns
    row[FINAL] = damage_by_turn[turns - 1] if turns > 0 else 0


@kernel
def _play_batch(
    run_seed: int,
    start: int,
    count: int,
    pile: npt.NDArray[np.intp],
    value: Ints,
    score: Ints,
    rank: Ints,
    dead: Ints,
    hero_hp: int,
    opponent_hp: int,
    max_turns: int,
    scalars: Ints,
    fell_turns: Ints,
    exhaustion_turns: Ints,
    dead_hist: Ints,
    damage: Ints,
    damage2: Ints,
) -> None:
    size = pile.shape[0]
    keys = np.empty(size, dtype=np.uint64)
    order = np.empty(size, dtype=np.intp)
    hand = np.empty(HAND_ROOM, dtype=np.int64)
    dead_by_turn = np.empty(max_turns, dtype=np.int64)
    damage_by_turn = np.empty(max_turns, dtype=np.int64)
    row = np.empty(ROW, dtype=np.int64)
    # a game that ended after ``turns`` turns keeps its final damage for every later turn:
    # added once at ``turns`` here and spread by a running sum after the batch
    tail = np.zeros(max_turns + 1, dtype=np.int64)
    tail2 = np.zeros(max_turns + 1, dtype=np.int64)
    for index in range(start, start + count):
        deal_order(run_seed, index, size, keys, order)
        _game(
            order, size, pile, value, score, rank, dead, hero_hp, opponent_hp, max_turns,
            hand, dead_by_turn, damage_by_turn, row,
        )  # fmt: skip
        fell_turn = row[FELL_TURN]
        if fell_turn > 0:
            scalars[S_FELL] += 1
            fell_turns[fell_turn] += 1
        scalars[S_LOST] += row[LOST]
        drawn = row[DRAWN]
        scalars[S_DRAWN] += drawn
        scalars[S_DRAWN2] += drawn * drawn
        exhaustion = row[EXHAUSTION]
        if exhaustion > 0:
            scalars[S_EXHAUSTED] += 1
            scalars[S_EXHAUSTION] += exhaustion
            scalars[S_EXHAUSTION2] += exhaustion * exhaustion
            exhaustion_turns[row[EXHAUSTION_TURN]] += 1
        turns = row[TURNS]
        for t in range(turns):
            dead_hist[dead_by_turn[t]] += 1
            dealt = damage_by_turn[t]
            damage[t] += dealt
            damage2[t] += dealt * dealt
        final = row[FINAL]
        tail[turns] += final
        tail2[turns] += final * final
    spread = 0
    spread2 = 0
    for t in range(max_turns):
        spread += tail[t]
        spread2 += tail2[t]
        damage[t] += spread
        damage2[t] += spread2


@kernel
def _play_each(
    run_seed: int,
    start: int,
    count: int,
    pile: npt.NDArray[np.intp],
    value: Ints,
    score: Ints,
    rank: Ints,
    dead: Ints,
    hero_hp: int,
    opponent_hp: int,
    max_turns: int,
    rows: Ints,
    dead_rows: Ints,
    damage_rows: Ints,
) -> None:
    size = pile.shape[0]
    keys = np.empty(size, dtype=np.uint64)
    order = np.empty(size, dtype=np.intp)
    hand = np.empty(HAND_ROOM, dtype=np.int64)
    for r in range(count):
        deal_order(run_seed, start + r, size, keys, order)
        _game(
            order, size, pile, value, score, rank, dead, hero_hp, opponent_hp, max_turns,
            hand, dead_rows[r], damage_rows[r], rows[r],
        )  # fmt: skip


def play_batch(
    tables: UnmatchedArrays,
    hero_hp: int,
    opponent_hp: int,
    max_turns: int,
    run_seed: int,
    start: int,
    count: int,
) -> Totals:
    """Games ``start`` .. ``start + count - 1`` of run ``run_seed``, their measures added up."""
    totals = Totals(
        np.zeros(SCALARS, dtype=np.int64),
        np.zeros(max_turns + 1, dtype=np.int64),
        np.zeros(max_turns + 1, dtype=np.int64),
        np.zeros(HAND_ROOM + 1, dtype=np.int64),
        np.zeros(max_turns, dtype=np.int64),
        np.zeros(max_turns, dtype=np.int64),
    )
    _play_batch(run_seed, start, count, *tables, hero_hp, opponent_hp, max_turns, *totals)
    return totals


class Rows(NamedTuple):
    """``play_each``'s games: a row of ROW columns each, and per turn (the first
    ``rows[:, TURNS]`` columns) the dead cards at its start and the damage by its end."""

    rows: Ints
    dead: Ints
    damage: Ints


def play_each(
    tables: UnmatchedArrays,
    hero_hp: int,
    opponent_hp: int,
    max_turns: int,
    run_seed: int,
    start: int,
    count: int,
) -> Rows:
    """The kernel's core game by game: for the conformance tests."""
    rows = Rows(
        np.zeros((count, ROW), dtype=np.int64),
        np.zeros((count, max_turns), dtype=np.int64),
        np.zeros((count, max_turns), dtype=np.int64),
    )
    _play_each(run_seed, start, count, *tables, hero_hp, opponent_hp, max_turns, *rows)
    return rows


@kernel
def _play_values(
    run_seed: int,
    start: int,
    count: int,
    pile: npt.NDArray[np.intp],
    value: Ints,
    score: Ints,
    rank: Ints,
    dead: Ints,
    hero_hp: int,
    opponent_hp: int,
    max_turns: int,
    reading: int,
    turn: int,
    out: Ints,
) -> None:
    size = pile.shape[0]
    keys = np.empty(size, dtype=np.uint64)
    order = np.empty(size, dtype=np.intp)
    hand = np.empty(HAND_ROOM, dtype=np.int64)
    dead_by_turn = np.empty(max_turns, dtype=np.int64)
    damage_by_turn = np.empty(max_turns, dtype=np.int64)
    row = np.empty(ROW, dtype=np.int64)
    for r in range(count):
        deal_order(run_seed, start + r, size, keys, order)
        _game(
            order, size, pile, value, score, rank, dead, hero_hp, opponent_hp, max_turns,
            hand, dead_by_turn, damage_by_turn, row,
        )  # fmt: skip
        fell_turn = row[FELL_TURN]
        if reading == V_DAMAGE_BY:
            # a game over before ``turn`` keeps its final damage, as the measures do
            out[r] = damage_by_turn[turn - 1] if turn <= row[TURNS] else row[FINAL]
        elif reading == V_FELL_BY:
            out[r] = 1 if 0 < fell_turn <= turn else 0
        else:
            out[r] = fell_turn if fell_turn > 0 else max_turns + 1


def play_values(
    tables: UnmatchedArrays,
    hero_hp: int,
    opponent_hp: int,
    max_turns: int,
    run_seed: int,
    start: int,
    count: int,
    reading: int,
    turn: int,
) -> Ints:
    """One value per game (``V_*``: which one; ``turn`` from 1 to ``max_turns`` for the first
    two) of games ``start`` .. ``start + count - 1``, in game order: what tuning compares
    game by game, without the per-turn rows ``play_each`` keeps of every game."""
    out = np.zeros(count, dtype=np.int64)
    _play_values(
        run_seed, start, count, *tables, hero_hp, opponent_hp, max_turns, reading, turn, out
    )
    return out
