"""What a player tunes a 央華封神 deck for (``simulator.engine.goals``), each read two ways
that must agree game by game: from one game's ``Metrics`` (``Goal.read``, as ``record_game``
adds the game) and from the compiled kernel's per-game rows (``ROW_READS``, a whole batch at
once, for ``OukaEngine.goal_values``). Pure Python, no Django.

The goals, each citing the digest line of the rule its measure follows:
  * total points (mean, higher): what decides the winner (ouka-fushin.md:52);
  * points margin (mean, higher): the total less the 10 points each hidden success gives
    the opponent (ouka-fushin.md:63-64), the part of a win the goldfish can measure;
  * deck-out (rate, lower): the deck empty at the start of a turn ends the game
    (ouka-fushin.md:56) and costs the round d6 × 10 (ouka-fushin.md:72);
  * the first climax by turn T (rate, higher): a climax ends the round (ouka-fushin.md:70,
    50), so the first to play one decides when the opponent's first round stops scoring.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np
import numpy.typing as npt

from games.ouka_fushin import kernel
from games.ouka_fushin.metrics import CLIMAX_TURN_KEYS, M_DECK_OUT, M_MARGIN, M_TOTAL
from simulator.engine.goals import HIGHER, LOWER, Goal, Values
from simulator.engine.i18n import N_
from simulator.engine.metrics import Metrics

DIGEST = "ouka-fushin.md"

# Goal codes (stored with a tuning job: never rename).
POINTS_TOTAL = "points_total"
POINTS_MARGIN = "points_margin"
DECK_OUT = "deck_out"
FIRST_CLIMAX_BY = "first_climax_by"
#: the first climax's turn a player aims at by default: on the demo and golden decks about
#: half the games have played it by then (a goal read near its median tells decks apart best)
FIRST_CLIMAX_TURN = 3

Rows = npt.NDArray[np.int64]


def _total(metrics: Metrics, turn: int | None) -> int:
    return metrics.sums[M_TOTAL]


def _margin(metrics: Metrics, turn: int | None) -> int:
    return metrics.sums[M_MARGIN]


def _deck_out(metrics: Metrics, turn: int | None) -> int:
    return int(metrics.counts[M_DECK_OUT] > 0)


def _first_climax_by(metrics: Metrics, turn: int | None) -> int:
    """1 when round 1's climax came on ``turn`` or before; a game without one counts 0."""
    by = FIRST_CLIMAX_TURN if turn is None else turn
    turns = metrics.histograms.get(CLIMAX_TURN_KEYS[0])
    return int(turns is not None and any(n and t <= by for t, n in turns.items()))


GOALS: tuple[Goal, ...] = (
    Goal(
        code=POINTS_TOTAL,
        label=N_("Total points"),
        direction=HIGHER,
        kind="mean",
        read=_total,
        help=N_(
            "The three rounds' scores plus the mission bonuses (and the substitute's 50), the "
            "mean over games. A round lost to a deck-out counts its penalty."
        ),
        cite=f"{DIGEST}:52",
    ),
    Goal(
        code=POINTS_MARGIN,
        label=N_("Total points minus the opponent's"),
        direction=HIGHER,
        kind="mean",
        read=_margin,
        help=N_(
            "Total points less the 10 points each hidden success gives the opponent (the "
            "goldfish opponent scores nothing else), the mean over games."
        ),
        cite=f"{DIGEST}:63",
    ),
    Goal(
        code=DECK_OUT,
        label=N_("Deck-out"),
        direction=LOWER,
        kind="rate",
        read=_deck_out,
        help=N_(
            "The share of games that end because the deck is empty at the start of a turn; "
            "that round scores nothing and loses d6 × 10 points."
        ),
        cite=f"{DIGEST}:56",
    ),
    Goal(
        code=FIRST_CLIMAX_BY,
        label=N_("First climax by turn %(turn)s"),
        direction=HIGHER,
        kind="rate",
        read=_first_climax_by,
        turn=FIRST_CLIMAX_TURN,
        help=N_(
            "The share of games whose first round ends with our climax on this turn or "
            "earlier; a game that never plays one counts as a miss."
        ),
        cite=f"{DIGEST}:70",
    ),
)


def _row_total(rows: Rows, turn: int | None) -> Values:
    return rows[:, kernel.C_TOTAL].astype(np.int64)


def _row_margin(rows: Rows, turn: int | None) -> Values:
    return rows[:, kernel.C_MARGIN].astype(np.int64)


def _row_deck_out(rows: Rows, turn: int | None) -> Values:
    return (rows[:, kernel.C_DECK_OUT_TURN] > 0).astype(np.int64)


def _row_first_climax_by(rows: Rows, turn: int | None) -> Values:
    by = FIRST_CLIMAX_TURN if turn is None else turn
    first = rows[:, kernel.C_CLIMAX_TURN]  # 0: no climax in round 1
    return ((first > 0) & (first <= by)).astype(np.int64)


#: each goal's values read off the kernel's rows (``kernel.play_rows``), by goal code
ROW_READS: Mapping[str, Callable[[Rows, int | None], Values]] = {
    POINTS_TOTAL: _row_total,
    POINTS_MARGIN: _row_margin,
    DECK_OUT: _row_deck_out,
    FIRST_CLIMAX_BY: _row_first_climax_by,
}
