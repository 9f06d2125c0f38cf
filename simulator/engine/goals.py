"""Goals: the measures an engine offers to tune a deck by, read game by game.

A run adds its games' measures up (``Metrics``); tuning compares two decks on the *same*
numbered games, so it needs each game's own value. A ``Goal`` says how to read that value
from one game's ``Metrics`` (``read``): the reference every engine gets for free by playing
its games one at a time (``values_by_play``). An engine with a compiled kernel reads the same
values from the kernel's per-game rows (``Engine.goal_values``), and its tests hold the two
equal game by game.

Every value is an integer (a 0/1 for a rate, a count, a turn, an amount of damage), so the
paired sums tuning stores merge exactly whatever the split of the games between workers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt

from simulator.engine.metrics import Metrics
from simulator.engine.rng import game_rng

if TYPE_CHECKING:
    from simulator.engine.engine import Engine

Values = npt.NDArray[np.int64]

#: higher is better / lower is better
HIGHER = 1
LOWER = -1


@dataclass(frozen=True)
class Goal:
    """One measure an engine lets a player tune for.

    ``label`` and ``help`` are English marked with ``N_`` (the Django side translates them);
    ``label`` may hold ``%(turn)s`` when the goal is read at a turn."""

    code: str
    label: str
    #: ``HIGHER`` or ``LOWER``: which way is better
    direction: int
    #: "rate": each game's value is 0 or 1, shown as a percentage; "mean": a per-game number
    kind: Literal["rate", "mean"]
    #: one game's value from that game's own Metrics, at ``turn`` (None when not turn-based)
    read: Callable[[Metrics, int | None], int]
    #: the turn it is read at by default; None: the goal is not read at a turn
    turn: int | None = None
    #: what the goal counts, for the form's help text (N_), e.g. how a game without a win
    #: counts towards "the turn of the win"
    help: str = ""
    #: the digest line of the rule the measure follows, e.g. "my-game.md:38"
    cite: str = ""

    @property
    def at_turn(self) -> bool:
        return self.turn is not None


def goal_by_code(goals: tuple[Goal, ...], code: str) -> Goal | None:
    return next((goal for goal in goals if goal.code == code), None)


def turn_limit(engine: Engine[Any, Any], params: Mapping[str, Any]) -> int:
    """The last turn a goal may be read at: the run's own turn limit where the engine has
    one as a parameter (``max_turns``, or ``turns``), else the engine's bound."""
    for name in ("max_turns", "turns"):
        value = params.get(name)
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return value
    return engine.max_turns


def values_by_play(
    engine: Engine[Any, Any],
    prepared: Any,
    params: dict[str, Any],
    goal: Goal,
    turn: int | None,
    run_seed: int,
    start: int,
    count: int,
) -> Values:
    """Games ``start`` .. ``start + count - 1``' values of ``goal``, each game played alone by
    ``Engine.play`` on its own generator (the reference; slow but shared by every engine)."""
    out = np.empty(count, dtype=np.int64)
    for k in range(count):
        metrics = Metrics()
        engine.play(prepared, params, game_rng(run_seed, start + k), metrics)
        metrics.games = 1
        out[k] = goal.read(metrics, turn)
    return out
