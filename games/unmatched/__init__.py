"""Unmatched (2019-): everything DeckLab knows of it is in this package
(games/registry.py lists the parts a game package may hold)."""

from __future__ import annotations

from games.registry import Game

GAME = Game(slug="unmatched", package=__name__, digest="unmatched.md", sort_order=40)
