"""Monster Hunter TCG (2007): everything DeckLab knows of it is in this package
(games/registry.py lists the parts a game package may hold)."""

from __future__ import annotations

from games.registry import Game

GAME = Game(slug="monster-hunter", package=__name__, digest="monster-hunter.md", sort_order=10)
