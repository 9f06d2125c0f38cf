"""Engineless: Countdown's cards and decks (Mattsan's) without an engine, as a game looks
before its engine is written (the pages say so and offer no simulation)."""

from __future__ import annotations

from games.registry import Game

GAME = Game(slug="engineless", package=__name__, digest="engineless.md", sort_order=991)
