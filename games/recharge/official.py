"""Recharge's products as decks (``games/official.py``): a product lists no counter chips, so a
deck started from one gets DeckLab's starting set, within the rules (recharge.md:30: at most 25
chips of 1-5 points, 50-65 in all), for the player to change."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.official import OfficialProduct

#: four chips of each value 1-5: 20 chips, 60 points
STARTING_CHIPS = tuple(value for value in (5, 4, 3, 2, 1) for _ in range(4))
OFFICIAL: Mapping[str, OfficialProduct] = {}


def start_deck(code: str, entries: list[Any]) -> tuple[list[Any], dict[str, Any]]:
    return entries, {"chips": list(STARTING_CHIPS)}
