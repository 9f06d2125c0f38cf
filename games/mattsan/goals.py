"""Mattsan: the goals a player tunes a deck for (issue 23, simulator/engine/goals.py).

A goldfish game here (games/mattsan/engine.py) is our units attacking a dummy line-up until it
falls, with trumps cast from soul charge on the way. Someone improving a deck wants it to win,
to win sooner, to have a trump out early, and never to open without a unit:

  * ``win`` -- games won, either way mattsan.md:17-18 allows (rate, higher is better);
  * ``defeat_turn`` -- the turn the dummy line-up falls (mean, lower is better); a game in
    which it does not fall counts as the run's turn limit + 1, so a deck that often loses is
    not flattered by the games left out;
  * ``trump_by_turn`` -- a trump cast by the end of turn T (rate, higher);
  * ``no_unit_in_hand`` -- the hand holds no unit at turn T's main phase (rate, lower): at
    turn 1 it is the loss of mattsan.md:17 (unless the run waits for a unit).

Each goal is read two ways that must agree game by game: from one game's ``Metrics`` as
``metrics.record_game`` writes them (``Goal.read``, what ``values_by_play`` uses), and from
the compiled kernel's per-game rows (``ROW_READS``, what ``MattsanEngine.goal_values`` uses;
tests/games/mattsan/test_goals.py holds them equal).

Turns. A turn is read from 1 on. Past the run's turn limit no game is going: a trump cast by
then is one cast by the last turn (``record_game`` keeps the per-turn values at their last
value), and no hand is looked at (0).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from games.mattsan import kernel
from games.mattsan.metrics import (
    M_DEFEAT_TURN,
    M_NO_UNIT_PREFIX,
    M_SOUL_PREFIX,
    M_TRUMP_PREFIX,
    M_WIN_DECK_OUT,
    M_WIN_LINE_UP,
    turn_key,
)
from simulator.engine.goals import HIGHER, LOWER, Goal, Values
from simulator.engine.i18n import N_
from simulator.engine.metrics import Metrics

DIGEST = "mattsan.md"

# Goal codes (stored with a tuning job: never rename).
WIN = "win"
DEFEAT_TURN = "defeat_turn"
TRUMP_BY_TURN = "trump_by_turn"
NO_UNIT_IN_HAND = "no_unit_in_hand"

#: default turns. Soul charge is 1 card a turn by default (an assumption, mattsan.md:22), so
#: by turn 3 a trump of cost 3 or less can be paid for: an early trump is one out by then.
#: Turn 1 is the opening, whose unit decides whether the game goes on at all (mattsan.md:17).
TRUMP_TURN = 3
NO_UNIT_TURN = 1


def _turn(turn: int | None, default: int) -> int:
    at = default if turn is None else turn
    if at < 1:
        raise ValueError(f"a goal is read from turn 1 on, not at turn {at}")
    return at


def _turn_limit(metrics: Metrics) -> int:
    """One game's run's turn limit: ``record_game`` writes every turn's soul charge, 0 too."""
    return sum(1 for name in metrics.sums if name.startswith(M_SOUL_PREFIX))


# --- one game's Metrics (the reference, via values_by_play) ----------------------------------


def _read_win(metrics: Metrics, turn: int | None) -> int:
    return int(metrics.counts[M_WIN_LINE_UP] + metrics.counts[M_WIN_DECK_OUT])


def _read_defeat_turn(metrics: Metrics, turn: int | None) -> int:
    seen = metrics.histograms.get(M_DEFEAT_TURN)
    if not seen:
        return _turn_limit(metrics) + 1
    (defeated,) = seen  # one game: one turn
    return int(defeated)


def _read_trump_by_turn(metrics: Metrics, turn: int | None) -> int:
    at = min(_turn(turn, TRUMP_TURN), _turn_limit(metrics))
    return int(metrics.counts[turn_key(M_TRUMP_PREFIX, at)] > 0)


def _read_no_unit_in_hand(metrics: Metrics, turn: int | None) -> int:
    # the key is only written for a turn whose hand had no unit (Counter: 0 otherwise)
    return int(metrics.counts[turn_key(M_NO_UNIT_PREFIX, _turn(turn, NO_UNIT_TURN))] > 0)


# --- the kernel's per-game rows (kernel.per_game, the R_* layout) -----------------------------

RowRead = Callable[[kernel.Ints, int, int | None], Values]


def _rows_win(rows: kernel.Ints, max_turns: int, turn: int | None) -> Values:
    outcome = rows[:, kernel.R_OUTCOME]
    won = (outcome == kernel.O_WIN_LINE_UP) | (outcome == kernel.O_WIN_DECK_OUT)
    return won.astype(np.int64)


def _rows_defeat_turn(rows: kernel.Ints, max_turns: int, turn: int | None) -> Values:
    defeated = rows[:, kernel.R_OUTCOME] == kernel.O_WIN_LINE_UP
    return np.where(defeated, rows[:, kernel.R_TURN], max_turns + 1).astype(np.int64)


def _rows_trump_by_turn(rows: kernel.Ints, max_turns: int, turn: int | None) -> Values:
    at = min(_turn(turn, TRUMP_TURN), max_turns)
    casts = rows[:, kernel.R_TURNS + 2 * max_turns + at - 1]
    return (casts > 0).astype(np.int64)


def _rows_no_unit_in_hand(rows: kernel.Ints, max_turns: int, turn: int | None) -> Values:
    at = _turn(turn, NO_UNIT_TURN)
    if at > max_turns:
        return np.zeros(rows.shape[0], dtype=np.int64)
    return rows[:, kernel.R_TURNS + at - 1].astype(np.int64)


GOALS = (
    Goal(
        code=WIN,
        label=N_("Win rate"),
        direction=HIGHER,
        kind="rate",
        read=_read_win,
        help=N_(
            "Games won: the dummy line-up defeated, or the dummy made to draw from its "
            "empty deck. A game still going at the turn limit is not a win."
        ),
        cite=f"{DIGEST}:17",
    ),
    Goal(
        code=DEFEAT_TURN,
        label=N_("Turn the dummy line-up is defeated"),
        direction=LOWER,
        kind="mean",
        read=_read_defeat_turn,
        help=N_(
            "The turn the last unit of the dummy line-up falls. A game in which it does not "
            "fall (lost, won by the dummy's deck-out, or unfinished) counts as the turn "
            "limit + 1."
        ),
        cite=f"{DIGEST}:55",
    ),
    Goal(
        code=TRUMP_BY_TURN,
        label=N_("A trump cast by turn %(turn)s"),
        direction=HIGHER,
        kind="rate",
        read=_read_trump_by_turn,
        turn=TRUMP_TURN,
        help=N_(
            "Games in which at least one trump has been cast, paid with soul charge, by "
            "the end of this turn."
        ),
        cite=f"{DIGEST}:55",
    ),
    Goal(
        code=NO_UNIT_IN_HAND,
        label=N_("No unit in hand at turn %(turn)s"),
        direction=LOWER,
        kind="rate",
        read=_read_no_unit_in_hand,
        turn=NO_UNIT_TURN,
        help=N_(
            "Games whose hand holds no unit at this turn's main phase, after the draw "
            "(units already on the field do not count; a game already over does not "
            "count). At turn 1 it loses the game unless the run waits for a unit."
        ),
        cite=f"{DIGEST}:56",
    ),
)

#: each goal's reading of ``kernel.per_game``'s rows (with the run's turn limit), by goal code
ROW_READS: dict[str, RowRead] = {
    WIN: _rows_win,
    DEFEAT_TURN: _rows_defeat_turn,
    TRUMP_BY_TURN: _rows_trump_by_turn,
    NO_UNIT_IN_HAND: _rows_no_unit_in_hand,
}
