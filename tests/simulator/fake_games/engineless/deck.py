from __future__ import annotations

from dataclasses import replace

from tests.simulator.fake_games.countdown.deck import RULES as COUNTDOWN
from tests.simulator.fake_games.engineless import GAME

RULES = replace(COUNTDOWN, game=GAME.slug)
