"""Monster Hunter: test hands and odds. The hand is filled to 6 in the first hand phase
(monster-hunter.md:38) and refilled to 6 each turn after discarding (monster-hunter.md:45);
how many cards a turn uses is the player's, so odds assume ``per_turn`` cards used a turn."""

from __future__ import annotations

from simulator.engine.i18n import N_
from simulator.engine.schedule import DrawSchedule

GAME_SLUG = "monster-hunter"
SCHEDULE = DrawSchedule(opening=6, per_turn=2, draws_on_first_turn=False)
SCHEDULE_NOTE = N_("Refills assume 2 cards used a turn; change it in the odds panel.")
