"""Countdown's fixed deck: ten units dealing 1 to 3, so games differ by their shuffle."""

from __future__ import annotations

from simulator.engine.cards import SimCard, SimDeck

GOLDEN_DECK = SimDeck(
    game="countdown",
    cards=tuple(
        SimCard(n, f"CD-{n:03d}", f"Unit {n}", "unit", {"hp": 1 + n % 3, "soul": 1})
        for n in range(10)
    ),
    zones={"main": tuple((n, 1) for n in range(10))},
    draw_zone="main",
)
