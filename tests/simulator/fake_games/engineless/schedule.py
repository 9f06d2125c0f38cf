from __future__ import annotations

from tests.simulator.fake_games.countdown.schedule import SETUP

__all__ = ["SETUP"]
