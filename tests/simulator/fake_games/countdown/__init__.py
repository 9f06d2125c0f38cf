"""Countdown: the smallest goldfish that exercises what runs need, a game of its own.

Each turn draws one card of the shuffled main deck and deals its ``hp`` as damage; the
opponent falls when the damage reaches ``opponent_hp``. It records a rate, means by turn and a
distribution, and can be told to fail (``explode``) so failure handling can be tested. Its
turn is Mattsan's (a draw starts it, mattsan.md:19), which the engine cites.
"""

from __future__ import annotations

from games.registry import Game

GAME = Game(
    slug="countdown",
    package=__name__,
    digest="countdown.md",  # no digest: a toy game, its one rule is in this docstring
    sort_order=990,
)

# the run tests reach the engine's class (to bump its version) and its error by the package
from tests.simulator.fake_games.countdown.engine import (  # noqa: E402
    ENGINE,
    CountdownEngine,
    Exploded,
)

__all__ = ["ENGINE", "GAME", "CountdownEngine", "Exploded"]
