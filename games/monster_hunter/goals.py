"""What a player tunes a Monster Hunter deck for (``simulator.engine.goals``), each read two
ways that must agree game by game: from one game's ``Metrics`` (``Goal.read``, as
``metrics.record_game`` adds the game) and from the compiled kernel's per-game rows
(``ROW_READS``, a whole batch at once, for ``MonsterHunterEngine.goal_values``). Pure Python,
no Django.

The goals, each citing the digest line of the rule its measure follows:
  * 20 HR points by turn T (rate, higher): the win (monster-hunter.md:41);
  * the turn of the win (mean, lower): a game without one counts as the turn limit + 1;
  * HR points by turn T (mean, higher): the result phase's points, +1 per face-down monster
    (monster-hunter.md:63-64), and in the training ground the ranks of the monsters slain.

Not offered: monsters slain and HR points from hunts. Counted over a whole game they grow
with its length (the training ground's monsters come back every turn and are slain again),
so a deck that wins sooner would score fewer: tuning for them would reward the slower deck.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np
import numpy.typing as npt

from games.monster_hunter import kernel
from games.monster_hunter.metrics import M_HR_PREFIX, M_REACHED_TURN, hr_key
from simulator.engine.goals import HIGHER, LOWER, Goal, Values
from simulator.engine.i18n import N_
from simulator.engine.metrics import Metrics

DIGEST = "monster-hunter.md"
#: the turn "20 HR points by turn T" is read at by default: the first turn the plain goldfish
#: can win on (+1 + 2 + 3 + 4 + 5 + 5 on the 2-player side, 1 + 2 + ... + 6 on the other)
WIN_TURN = 6
#: the turn "HR points by turn T" is read at by default: one before the fastest plain win,
#: where a deck short of monsters already falls behind
HR_TURN = 5

Rows = npt.NDArray[np.int64]


def _turns_of(metrics: Metrics) -> int:
    """The game's turn limit: ``record_game`` adds one "HR points by turn" value for every
    turn up to it (``prepared.hr_keys``), whatever turn the game ended on."""
    return sum(1 for name in metrics.sums if name.startswith(M_HR_PREFIX))


def _win_turn(metrics: Metrics) -> int | None:
    """The turn the game reached 20 HR points on (None: it did not)."""
    turns = metrics.histograms.get(M_REACHED_TURN)
    return next((t for t, n in turns.items() if n), None) if turns else None


def _won_by(metrics: Metrics, turn: int | None) -> int:
    """1 when the game reached 20 HR points on ``turn`` or before."""
    by = WIN_TURN if turn is None else turn
    won = _win_turn(metrics)
    return int(won is not None and won <= by)


def _win_turn_or_after(metrics: Metrics, turn: int | None) -> int:
    """The turn of the win; a game retired or stopped at the turn limit counts the limit + 1."""
    won = _win_turn(metrics)
    return won if won is not None else _turns_of(metrics) + 1


def _hr_by(metrics: Metrics, turn: int | None) -> int:
    """HR points at the end of ``turn``; a game over before it keeps its last value (as
    ``record_game`` records it), a turn past the limit reads the limit's."""
    by = min(HR_TURN if turn is None else turn, _turns_of(metrics))
    return metrics.sums[hr_key(by)] if by >= 1 else 0


GOALS: tuple[Goal, ...] = (
    Goal(
        code="hr_win_by",
        label=N_("20 HR points by turn %(turn)s"),
        direction=HIGHER,
        kind="rate",
        read=_won_by,
        turn=WIN_TURN,
        help=N_(
            "The share of games that reach 20 HR points on this turn or earlier; a game "
            "that retires or reaches the turn limit first counts as a miss."
        ),
        cite=f"{DIGEST}:41",
    ),
    Goal(
        code="hr_win_turn",
        label=N_("Turn 20 HR points are reached"),
        direction=LOWER,
        kind="mean",
        read=_win_turn_or_after,
        help=N_(
            "The mean turn on which a game reaches 20 HR points; a game that retires or "
            "reaches the turn limit without them counts as the turn limit plus one."
        ),
        cite=f"{DIGEST}:41",
    ),
    Goal(
        code="hr_by_turn",
        label=N_("HR points by turn %(turn)s"),
        direction=HIGHER,
        kind="mean",
        read=_hr_by,
        turn=HR_TURN,
        help=N_(
            "The mean HR points at the end of this turn: +1 for each face-down monster on "
            "your sheet every turn, +1 a turn while the opponent's sheet is empty (2 "
            "players), and the ranks of the monsters your hunter slays. A game that ended "
            "earlier keeps its last value."
        ),
        cite=f"{DIGEST}:63",
    ),
)


# --- the same values from the kernel's rows (``kernel.per_game``) ------------------------------


def _row_won_by(rows: Rows, max_turns: int, turn: int | None) -> Values:
    by = WIN_TURN if turn is None else turn
    won = rows[:, kernel.R_OUTCOME] == kernel.O_WIN
    return (won & (rows[:, kernel.R_END_TURN] <= by)).astype(np.int64)


def _row_win_turn_or_after(rows: Rows, max_turns: int, turn: int | None) -> Values:
    won = rows[:, kernel.R_OUTCOME] == kernel.O_WIN
    return np.where(won, rows[:, kernel.R_END_TURN], max_turns + 1).astype(np.int64)


def _row_hr_by(rows: Rows, max_turns: int, turn: int | None) -> Values:
    by = min(HR_TURN if turn is None else turn, max_turns)
    if by < 1:
        return np.zeros(rows.shape[0], dtype=np.int64)
    # the row keeps the last value after the game's end, as ``record_game`` does
    return rows[:, kernel.R_TURNS + by - 1].astype(np.int64)


#: each goal's values read off the kernel's rows (``kernel.per_game``, one row a game, of a
#: deck whose turn limit is ``max_turns``), by goal code
ROW_READS: Mapping[str, Callable[[Rows, int, int | None], Values]] = {
    "hr_win_by": _row_won_by,
    "hr_win_turn": _row_win_turn_or_after,
    "hr_by_turn": _row_hr_by,
}
