"""央華封神: test hands and odds. Each draws 6 (ouka-fushin.md:45), the first player draws on
its first turn (ouka-fushin.md:46), and every turn starts with drawing 2 (ouka-fushin.md:56)."""

from __future__ import annotations

from simulator.engine.i18n import N_
from simulator.engine.schedule import DrawSchedule

GAME_SLUG = "ouka-fushin"
SCHEDULE = DrawSchedule(opening=6, per_turn=2, draws_on_first_turn=True)
SCHEDULE_NOTE = N_("As the first player, who draws on the first turn.")
