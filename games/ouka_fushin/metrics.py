"""The 央華封神 engine's measures: their names (the Django side reads them; keep them stable),
the exact count of cards seen, and how a finished game adds to the measures (pure Python)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.ouka_fushin.constants import (
    DRAW_PER_TURN,
    HAND_LIMIT,
    OPENING_HAND,
    ROUNDS,
    SUB_CANNOT,
    SUB_DONE,
    SUBSTITUTE_BONUS,
)

if TYPE_CHECKING:
    from games.ouka_fushin.state import OukaState
    from simulator.engine.metrics import Metrics

# Metric names (the Django side reads them; keep them stable).
M_ROUND_PREFIX = "points_round:"
M_TOTAL = "points_total"
M_MISSION_POINTS = "points_missions"
M_SUBSTITUTE_POINTS = "points_substitute"
M_OPPONENT = "opponent_points"
M_MARGIN = "points_margin"
M_CLIMAX_TURN_PREFIX = "climax_turn:"
M_CLIMAXES = "climaxes_played"
M_ROUNDS = "rounds_scored"
M_COMPLETE = "game_complete"
M_ATTEMPTED = "stories_attempted"
M_SUCCEEDED = "stories_succeeded"
M_CHECKS = "checks_rolled"
M_CHECKS_PASSED = "checks_passed_by_die"
M_HIDDEN = "hidden_successes"
M_HIDDEN_USED = "hidden_success_used"
M_MISSION_PREFIX = "mission_done:"
M_DECK_OUT = "deck_out"
M_DECK_OUT_TURN = "deck_out_turn"
M_DECK_OUT_PENALTY = "deck_out_penalty"
M_SUBSTITUTED = "substituted"
M_CANNOT_SUBSTITUTE = "cannot_substitute"
M_TURN_LIMIT = "turn_limit"
M_TURNS = "turns"
M_SEEN = "cards_seen"
M_END_DRAWS = "end_phase_draws"
M_RESET_DRAWS = "round_reset_draws"
M_USED = "cards_used_in_turn"
M_DESTINY = "protagonist_destiny"

ROUND_KEYS = tuple(f"{M_ROUND_PREFIX}{r}" for r in range(1, ROUNDS + 1))
#: the per-game values ``record`` adds as sums (means with intervals), in its order
SUM_KEYS = (
    *(f"{M_ROUND_PREFIX}{r}" for r in range(1, ROUNDS + 1)),
    M_TOTAL,
    M_MISSION_POINTS,
    M_SUBSTITUTE_POINTS,
    M_OPPONENT,
    M_MARGIN,
    M_CLIMAXES,
    M_ATTEMPTED,
    M_SUCCEEDED,
    M_CHECKS,
    M_CHECKS_PASSED,
    M_HIDDEN,
    M_DECK_OUT_PENALTY,
    M_SEEN,
    M_END_DRAWS,
    M_RESET_DRAWS,
)
CLIMAX_TURN_KEYS = tuple(f"{M_CLIMAX_TURN_PREFIX}{r}" for r in range(1, ROUNDS + 1))


def mission_key(number: int) -> str:
    """``mission_done:1``: the missions in the order of the deck's missions zone."""
    return f"{M_MISSION_PREFIX}{number}"


def cards_seen_by_turn(turn: int, used_per_turn: int) -> int:
    """Cards seen (the opening hand and every draw) once ``turn``'s start-of-turn draw is done,
    when each turn uses ``used_per_turn`` cards from the hand before its end phase.

    The opening hand is 6 (ouka-fushin.md:45); every turn, the first player's first included
    (ouka-fushin.md:46, seed:44), starts by drawing 2 (ouka-fushin.md:56), so the hand holds 8;
    the end phase then discards or draws to exactly 6 (ouka-fushin.md:68, seed:157), which
    draws ``used_per_turn - 2`` cards when more than 2 were used and none otherwise. The
    refills of turns 1 .. turn-1 come before turn's draw:
    ``6 + 2 * turn + (turn - 1) * max(0, used_per_turn - 2)`` (turn 0: the opening hand).
    Assumes the deck does not run out and no round ends (a climax's round reset refills the
    hand too, ouka-fushin.md:73). A turn cannot use more than the 8 cards of its hand.
    """
    if turn < 0 or not 0 <= used_per_turn <= HAND_LIMIT + DRAW_PER_TURN:
        raise ValueError("turn must be >= 0 and used_per_turn between 0 and 8")
    if turn == 0:
        return OPENING_HAND
    refill = max(0, used_per_turn - DRAW_PER_TURN)
    return OPENING_HAND + DRAW_PER_TURN * turn + refill * (turn - 1)


def record_game(state: OukaState, metrics: Metrics) -> None:
    """One finished game's measures; counts and sums are added even when 0, so every name
    is present in every run's metrics."""
    p = state.prepared
    counts, sums, squares = metrics.counts, metrics.sums, metrics.squares
    total = state.total()
    values = (
        *state.round_points,
        total,
        state.mission_points,
        SUBSTITUTE_BONUS if state.substitution == SUB_DONE else 0,
        state.opponent_points,
        total - state.opponent_points,
        state.climaxes,
        state.attempted,
        state.succeeded,
        state.checks,
        state.checks_passed,
        state.hidden_uses,
        state.deck_out_penalty,
        state.pos,
        state.end_draws,
        state.reset_draws,
    )
    for key, value in zip(SUM_KEYS, values, strict=True):
        sums[key] += value
        squares[key] += value * value
    for key, turn in zip(CLIMAX_TURN_KEYS, state.climax_turns, strict=True):
        if turn:
            metrics.observe(key, turn)
    metrics.observe(M_ROUNDS, state.rounds_scored)
    counts[M_COMPLETE] += state.climax_turns[ROUNDS - 1] > 0
    counts[M_HIDDEN_USED] += state.hidden_uses > 0
    for key, done in zip(p.mission_keys, state.mission_done, strict=True):
        counts[key] += done
    counts[M_DECK_OUT] += state.deck_out_turn > 0
    if state.deck_out_turn:
        metrics.observe(M_DECK_OUT_TURN, state.deck_out_turn)
    counts[M_SUBSTITUTED] += state.substitution == SUB_DONE
    counts[M_CANNOT_SUBSTITUTE] += state.substitution == SUB_CANNOT
    counts[M_TURN_LIMIT] += state.turn_limit
    metrics.observe(M_TURNS, state.turn)
    for used, n in enumerate(state.used_counts):
        if n:
            metrics.observe(M_USED, used, n)
    if state.substitution != SUB_CANNOT:
        metrics.observe(M_DESTINY, state.level)
