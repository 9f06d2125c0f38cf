"""Marvel Recharge: how test hands and odds deal. Each player draws 1 card, then 1 at the start
of every turn, with no mulligan (recharge.md:33)."""

from __future__ import annotations

from simulator.engine.i18n import N_
from simulator.engine.schedule import DrawSchedule
from simulator.engine.setup import GameSetup

OPENING_HAND = 1  # recharge.md:33
SCHEDULE = DrawSchedule(opening=OPENING_HAND, per_turn=1, draws_on_first_turn=True)
SETUP = GameSetup(
    schedule=SCHEDULE,
    note=N_(
        "Each player draws 1 card, then 1 at the start of every turn; no mulligan. Only the "
        "first hand (showdown) is dealt."
    ),
    empty_note=N_(
        "The deck is empty: with no playable card left you lose the game (recharge.md:53)."
    ),
)
