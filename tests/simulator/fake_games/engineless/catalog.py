from __future__ import annotations

from dataclasses import replace

from tests.simulator.fake_games.countdown.catalog import SPEC as COUNTDOWN
from tests.simulator.fake_games.engineless import GAME

SPEC = replace(
    COUNTDOWN,
    slug=GAME.slug,
    name_en="Engineless",
    name_ja="エンジンなし",
    rules_digest=GAME.digest,
    sort_order=GAME.sort_order,
)
