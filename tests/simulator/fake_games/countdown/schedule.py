"""Countdown deals no opening hand and draws one card a turn."""

from __future__ import annotations

from simulator.engine.schedule import DrawSchedule
from simulator.engine.setup import GameSetup

SCHEDULE = DrawSchedule(opening=0, per_turn=1)
SETUP = GameSetup(schedule=SCHEDULE, note="Countdown draws %(per_turn)d a turn.")
