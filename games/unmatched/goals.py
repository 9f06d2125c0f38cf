"""What a player tunes an Unmatched deck for (``simulator.engine.goals``), each read two ways
that must agree game by game: from one game's ``Metrics`` (``Goal.read``, as the engine's
``_record`` adds the game) and from the compiled kernel (``KERNEL_READS``: which value
``kernel.play_values`` keeps of each game, for ``UnmatchedEngine.goal_values``). Pure Python,
no Django.

The goals, each citing the digest line of the rule its measure follows:
  * damage dealt by turn T (mean, higher): an attack deals its value to a goldfish that never
    defends (unmatched.md:34, 41); capped at the opponent's HP and kept after the game ends,
    as the engine's ``damage_by_turn`` measures are;
  * the opponent falls by turn T (rate, higher): a hero at 0 HP is defeated (unmatched.md:38);
  * the turn the opponent falls (mean, lower): the digest's "turns needed to deal the opponent
    hero's HP in damage" (unmatched.md:41); a game where it never falls counts as the turn
    limit plus one, so a deck that fails more often never looks faster.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType

from games.unmatched import kernel
from simulator.engine.goals import HIGHER, LOWER, Goal
from simulator.engine.i18n import N_
from simulator.engine.metrics import Metrics

DIGEST = "unmatched.md"
#: the turns the goals read at by default. Against the default 16 HP, the Medusa and
#: Achilles hero decks' opponents have fallen by turn 5 in 60-70 % of the games, by turn 4 in
#: 25-38 % (a rate read near its median tells decks apart best); by turn 3 they have dealt
#: 11-12 damage, so nearly every game still counts all of its damage
DAMAGE_TURN = 3
FALLS_TURN = 5

DAMAGE_BY = "damage_by_turn"
FALLS_BY = "opponent_falls_by_turn"
FALLS_ON = "opponent_falls_turn"


def _engine() -> ModuleType:
    """engine.py, where the measures are named. Looked up when a game is read, not when this
    module loads: engine.py imports this module for its class's ``goals``."""
    from games.unmatched import engine

    return engine


def turns_recorded(metrics: Metrics) -> int:
    """The run's turn limit, as one game's measures hold it: ``_record`` adds a damage sum for
    every turn up to ``max_turns``, whenever the game ended."""
    prefix = _engine().M_DAMAGE_PREFIX
    return sum(1 for name in metrics.sums if name.startswith(prefix))


def _turn(metrics: Metrics, turn: int | None, default: int) -> int:
    """The turn a goal is read at: given, else the goal's own; 1 to the turn limit."""
    at = default if turn is None else turn
    limit = turns_recorded(metrics)
    if not 1 <= at <= limit:
        raise ValueError(f"turn {at} is not a turn of a game of at most {limit} turns")
    return at


def _fell_turn(metrics: Metrics) -> int:
    """The turn the opponent fell in this one game; 0 when it never did."""
    turns = metrics.histograms.get(_engine().M_FALLS_TURN)
    return max((t for t, n in turns.items() if n), default=0) if turns else 0


def _damage_by(metrics: Metrics, turn: int | None) -> int:
    at = _turn(metrics, turn, DAMAGE_TURN)
    return metrics.sums[_engine().damage_key(at)]


def _falls_by(metrics: Metrics, turn: int | None) -> int:
    at = _turn(metrics, turn, FALLS_TURN)
    return int(0 < _fell_turn(metrics) <= at)


def _falls_on(metrics: Metrics, turn: int | None) -> int:
    return _fell_turn(metrics) or turns_recorded(metrics) + 1


GOALS: tuple[Goal, ...] = (
    Goal(
        code=DAMAGE_BY,
        label=N_("Damage dealt by turn %(turn)s"),
        direction=HIGHER,
        kind="mean",
        read=_damage_by,
        turn=DAMAGE_TURN,
        help=N_(
            "The damage dealt to the opponent by the end of this turn, the mean over games: "
            "at most the opponent's HP, and a game that ended earlier keeps its last total."
        ),
        cite=f"{DIGEST}:34",
    ),
    Goal(
        code=FALLS_BY,
        label=N_("The opponent falls by turn %(turn)s"),
        direction=HIGHER,
        kind="rate",
        read=_falls_by,
        turn=FALLS_TURN,
        help=N_("The share of games in which the opponent falls on this turn or earlier."),
        cite=f"{DIGEST}:38",
    ),
    Goal(
        code=FALLS_ON,
        label=N_("Turn the opponent falls"),
        direction=LOWER,
        kind="mean",
        read=_falls_on,
        help=N_(
            "The turn the opponent falls, the mean over games. A game in which it never falls "
            "(the turn limit is reached, or our hero loses to exhaustion first) counts as the "
            "turn limit plus one."
        ),
        cite=f"{DIGEST}:41",
    ),
)

#: which value ``kernel.play_values`` keeps of each game, by goal code
KERNEL_READS: Mapping[str, int] = {
    DAMAGE_BY: kernel.V_DAMAGE_BY,
    FALLS_BY: kernel.V_FELL_BY,
    FALLS_ON: kernel.V_FALLS_TURN,
}
