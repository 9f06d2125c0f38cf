"""Marvel Recharge: the goals a player tunes a deck for (issue 23, simulator/engine/goals.py).

A goldfish game here is the best formation the hand could open with, turn by turn
(recharge.md:57-60; games/recharge/engine.py). A player improving a deck wants a stronger
formation, or one that is there sooner:

  * ``power`` -- the best formation's power by turn T (mean, higher is better);
  * ``can_open`` -- games whose hand can open by turn T: a formation, so a hero
    (recharge.md:12, 38), of at least the run's "power needed to open" (rate, higher);
  * ``first_open`` -- the first turn the hand can open (mean, lower is better); a game that
    never can counts as one turn after its last (the run's "turns" + 1), so a deck that often
    cannot open is not flattered by the games it is left out of.

Each goal is read two ways that must agree game by game: from one game's ``Metrics`` as
``RechargeEngine.record`` writes them (``Goal.read``, what ``values_by_play`` uses), and from
the compiled kernel's per-game rows (``ROW_READS``, what ``RechargeEngine.goal_values`` uses).

Turns. A hand only grows and nothing is ever played (engine.py), so a game's power never falls
and once it can open it stays able to: "at turn T" and "by turn T" are the same. A turn past
the game's last reads its last turn -- what the hand reached by then -- so a goal may be read at
any turn up to the engine's bound whatever the run's "turns"; and as the hand stops growing at
6 cards (after turn 5, recharge.md:33), with 5 turns or more a game's later turns are its last.

The metric names live here, not in engine.py, because engine.py needs ``GOALS`` as it defines
its class; engine.py imports them back, so they are still read as ``engine.M_...``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from games.recharge import kernel
from simulator.engine.goals import HIGHER, LOWER, Goal, Values
from simulator.engine.i18n import N_
from simulator.engine.metrics import Metrics

DIGEST = "recharge.md"

# Metric names that ``RechargeEngine.record`` writes (the Django side reads them too).
M_POWER_PREFIX = "power_by_turn:"
M_OPEN_PREFIX = "can_open_by_turn:"
M_FIRST_OPEN = "first_open_turn"
M_NEVER_OPENED = "never_opened"


def power_key(turn: int) -> str:
    """``power_by_turn:07``: zero-padded so sorted names run in turn order."""
    return f"{M_POWER_PREFIX}{turn:02d}"


def open_key(turn: int) -> str:
    return f"{M_OPEN_PREFIX}{turn:02d}"


# Goal codes.
POWER = "power"
CAN_OPEN = "can_open"
FIRST_OPEN = "first_open"

#: default turns: the hand is full (6 cards) at turn 5, when a real player must open or fold
#: (recharge.md:33, 45-46); an attacker opens early, so 3 cards (turn 2) is a fair test of
#: an opening
POWER_TURN = 5
OPEN_TURN = 2


def _turn_read(turn: int | None, default: int, last: int) -> int:
    """The turn a goal is read at: ``default`` when none is given, the game's last turn when
    past it (the hand reached no more by then)."""
    at = default if turn is None else turn
    if at < 1:
        raise ValueError(f"a goal is read from turn 1 on, not at turn {at}")
    return min(at, last)


def _last_turn(metrics: Metrics) -> int:
    """One game's last turn: ``record`` writes every turn's power, 0 included."""
    return sum(1 for name in metrics.sums if name.startswith(M_POWER_PREFIX))


# --- one game's Metrics (the reference, via values_by_play) ----------------------------------


def _read_power(metrics: Metrics, turn: int | None) -> int:
    return int(metrics.sums[power_key(_turn_read(turn, POWER_TURN, _last_turn(metrics)))])


def _read_can_open(metrics: Metrics, turn: int | None) -> int:
    return int(metrics.counts[open_key(_turn_read(turn, OPEN_TURN, _last_turn(metrics)))])


def _read_first_open(metrics: Metrics, turn: int | None) -> int:
    if metrics.counts[M_NEVER_OPENED]:
        return _last_turn(metrics) + 1
    (first,) = metrics.histograms[M_FIRST_OPEN]  # one game: one turn
    return first


# --- the kernel's per-game rows (kernel.play_each) --------------------------------------------

RowRead = Callable[[kernel.Each, int | None], Values]


def _rows_power(rows: kernel.Each, turn: int | None) -> Values:
    at = _turn_read(turn, POWER_TURN, rows.powers.shape[1])
    return np.ascontiguousarray(rows.powers[:, at - 1], dtype=np.int64)


def _rows_can_open(rows: kernel.Each, turn: int | None) -> Values:
    at = _turn_read(turn, OPEN_TURN, rows.opened.shape[1])
    return np.ascontiguousarray(rows.opened[:, at - 1], dtype=np.int64)


def _rows_first_open(rows: kernel.Each, turn: int | None) -> Values:
    first = rows.each[:, kernel.E_FIRST_OPEN]  # 0: never
    never = rows.powers.shape[1] + 1
    return np.where(first == 0, never, first).astype(np.int64)


GOALS = (
    Goal(
        code=POWER,
        label=N_("Best formation power by turn %(turn)s"),
        direction=HIGHER,
        kind="mean",
        read=_read_power,
        turn=POWER_TURN,
        help=N_(
            "The power of the best formation the hand can build by this turn, 0 while it "
            "holds no hero. The hand stops growing at 6 cards, after turn 5."
        ),
        cite=f"{DIGEST}:57",
    ),
    Goal(
        code=CAN_OPEN,
        label=N_("Can open by turn %(turn)s"),
        direction=HIGHER,
        kind="rate",
        read=_read_can_open,
        turn=OPEN_TURN,
        help=N_(
            "Games whose hand can build a formation (a hero and the cards joined to it) of "
            "at least the power needed to open by this turn."
        ),
        cite=f"{DIGEST}:38",
    ),
    Goal(
        code=FIRST_OPEN,
        label=N_("First turn able to open"),
        direction=LOWER,
        kind="mean",
        read=_read_first_open,
        help=N_(
            "The first turn the hand can build a formation of at least the power needed to "
            "open. A game in which it never can counts as the turn after its last (the "
            "number of turns + 1)."
        ),
        cite=f"{DIGEST}:38",
    ),
)

#: each goal's reading of ``kernel.play_each``'s rows, by goal code
ROW_READS: dict[str, RowRead] = {
    POWER: _rows_power,
    CAN_OPEN: _rows_can_open,
    FIRST_OPEN: _rows_first_open,
}
