"""Countdown plays on Mattsan's cards: its card types and attributes are Mattsan's, so a run
test may write a deck out as Mattsan's would be (units' ``hp`` is the damage they deal)."""

from __future__ import annotations

from dataclasses import replace

from games.mattsan.catalog import SPEC as MATTSAN
from tests.simulator.fake_games.countdown import GAME

SPEC = replace(
    MATTSAN,
    slug=GAME.slug,
    name_en="Countdown",
    name_ja="カウントダウン",
    publisher="DeckLab's test suite",
    years="2026",
    rules_digest=GAME.digest,
    sort_order=GAME.sort_order,
)
