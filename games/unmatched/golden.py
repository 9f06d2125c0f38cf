"""Unmatched's golden games: a fixed deck and the games whose transcripts are kept in
``golden/`` (``manage.py regenerate_golden unmatched`` rewrites them when a change is meant).
Pure data: the conformance tests take their fixed deck from here too."""

from __future__ import annotations

from typing import Any

from simulator.engine.cards import SimCard, SimDeck
from simulator.engine.golden import DEFAULT_GAMES, GoldenGame


def _deck() -> SimDeck:
    """A hand-made hero deck that reaches every rule the engine plays: the hero's, the
    sidekick's and anyone's cards, defense and scheme cards, a value-0 attack and another
    hero's cards (dead in hand), so long games meet the hand limit and exhaustion."""
    hero = SimCard(
        0,
        "character-medusa",
        "Medusa",
        "character",
        {"hp": 16, "move": 3, "ranged": True, "sidekick": "Harpies", "sidekick_hp": 1},
    )
    # (name, type, value or None, fighter, boost, copies)
    actions = (
        ("Stone Stare", "attack", 4, "Medusa", 2, 2),
        ("Venom Shot", "attack", 3, "Medusa", 1, 3),
        ("Talon Rake", "versatile", 3, "Harpy", 2, 3),
        ("Swoop", "attack", 2, "Harpies", 3, 2),
        ("Quick Jab", "versatile", 2, "any", 1, 2),
        ("Glancing Blow", "versatile", 1, "any", 2, 2),
        ("Hold Fast", "defense", 4, "Medusa", 3, 4),
        ("Sidestep", "defense", 2, "any", 1, 4),
        ("Dark Bargain", "scheme", None, "Medusa", 4, 2),
        ("Rally Call", "scheme", None, "any", 2, 2),
        ("Spear of Troy", "attack", 5, "Achilles", 2, 2),
        ("Empty Feint", "attack", 0, "any", 1, 2),
    )
    cards = [hero]
    deck = []
    for index, (name, card_type, value, fighter, boost, copies) in enumerate(actions, start=1):
        attributes: dict[str, Any] = {"fighter": fighter, "boost": boost}
        if value is not None:
            attributes["value"] = value
        code = "um-" + name.lower().replace(" ", "-")
        cards.append(SimCard(index, code, name, card_type, attributes))
        deck.append((index, copies))
    return SimDeck(
        game="unmatched",
        cards=tuple(cards),
        zones={"hero": ((0, 1),), "deck": tuple(deck)},
        draw_zone="deck",
    )


GOLDEN_DECK = _deck()
GOLDEN_GAMES = (
    *DEFAULT_GAMES,
    # a long game that meets the hand limit
    GoldenGame("opponent30_game3", 3, {"opponent_hp": 30}),
    # more HP than the deck has damage: the deck runs out and exhaustion defeats our hero
    GoldenGame("opponent40_game4", 4, {"opponent_hp": 40}),
    # the turn limit ends the game before the opponent falls
    GoldenGame("two_turns_game5", 5, {"max_turns": 2}),
)
