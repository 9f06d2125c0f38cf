"""マッツァンカードゲーム (2019-): everything DeckLab knows of it is in this package
(games/registry.py lists the parts a game package may hold)."""

from __future__ import annotations

from games.registry import Game

GAME = Game(slug="mattsan", package=__name__, digest="mattsan.md", sort_order=50)
