"""Countdown decks are built as Mattsan's are (a main deck of 30, at most 3 copies); the
engine plays any deck of five cards or more, so the run tests' small decks are illegal but
playable, as a deck being built is."""

from __future__ import annotations

from dataclasses import replace

from games.mattsan.deck import RULES as MATTSAN
from tests.simulator.fake_games.countdown import GAME

RULES = replace(MATTSAN, game=GAME.slug)
