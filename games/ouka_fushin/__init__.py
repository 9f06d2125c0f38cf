"""央華封神 TCG (1998): everything DeckLab knows of it is in this package
(games/registry.py lists the parts a game package may hold)."""

from __future__ import annotations

from games.registry import Game

GAME = Game(slug="ouka-fushin", package=__name__, digest="ouka-fushin.md", sort_order=20)
