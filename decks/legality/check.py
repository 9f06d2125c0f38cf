"""The one entry point: check a deck under its game's rules."""

from __future__ import annotations

from decks.game_rules import deck_rules
from decks.legality.facts import DeckFacts
from decks.legality.problems import Problem, Severity

SEVERITY_ORDER = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}


def check_deck(deck: DeckFacts) -> list[Problem]:
    """Every problem, errors first; the deck is legal when there is no error."""
    problems = deck_rules(deck.game).check(deck)
    return sorted(problems, key=lambda p: SEVERITY_ORDER[p.severity])
