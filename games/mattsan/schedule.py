"""Mattsan: how test hands and odds deal. A turn starts with a draw (mattsan.md:19); the
starting hand size is not published (mattsan.md:22-24), so it is a parameter with a
documented default."""

from __future__ import annotations

from simulator.engine.i18n import N_
from simulator.engine.params import Param, ParamSpec
from simulator.engine.schedule import DrawSchedule
from simulator.engine.setup import GameSetup

DEFAULT_OPENING = 5
SCHEDULE = DrawSchedule(opening=DEFAULT_OPENING, per_turn=1, draws_on_first_turn=True)
SETUP = GameSetup(
    schedule=SCHEDULE,
    note=N_("The starting hand size is not published; 5 is our default, change it freely."),
    params=ParamSpec(
        (
            # mattsan.md:22-24: the starting hand size is not published
            Param(
                "opening",
                N_("Opening hand"),
                "int",
                DEFAULT_OPENING,
                minimum=1,
                maximum=10,
                help=N_("The starting hand size is not published: 5 is our default."),
            ),
        )
    ),
    empty_note=N_("The deck is empty: having to draw from it loses the game (mattsan.md:18)."),
)
