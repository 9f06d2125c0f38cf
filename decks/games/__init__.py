"""Per-game deck rules, one module per game (``GAME_SLUG`` + ``RULES``), found by module.

Adding a game means adding a module here; nothing shared is edited.
"""

from __future__ import annotations

from decklab.plugins import game_modules
from decks.games.base import DeckRules


def deck_rules(slug: str) -> DeckRules:
    module = game_modules("decks.games").get(slug)
    if module is None:
        raise LookupError(f"No deck rules for the game {slug!r}")
    rules: DeckRules = module.RULES
    return rules


def has_deck_rules(slug: str) -> bool:
    return slug in game_modules("decks.games")
