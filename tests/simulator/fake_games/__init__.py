"""Fake games for the run tests, registered through ``games.registry.register`` like any game
from outside the repository (``_builders.WITH_FAKE_GAMES`` registers them while a test runs):
``countdown``, a tiny controllable engine, and ``engineless``, a game with no engine yet."""
