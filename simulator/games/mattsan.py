"""Mattsan: test hands and odds. A turn starts with a draw (mattsan.md:19); the starting hand
size is not published (mattsan.md:22-24), so it is a parameter with a documented default."""

from __future__ import annotations

from simulator.engine.i18n import N_
from simulator.engine.schedule import DrawSchedule

GAME_SLUG = "mattsan"
DEFAULT_OPENING = 5
SCHEDULE = DrawSchedule(opening=DEFAULT_OPENING, per_turn=1, draws_on_first_turn=True)
SCHEDULE_NOTE = N_("The starting hand size is not published; 5 is our default, change it freely.")
