"""Marvel Recharge (2001): everything DeckLab knows of it is in this package
(games/registry.py lists the parts a game package may hold)."""

from __future__ import annotations

from games.registry import Game

GAME = Game(slug="recharge", package=__name__, digest="recharge.md", sort_order=30)
