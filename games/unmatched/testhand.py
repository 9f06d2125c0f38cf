"""Unmatched's test-hand panel: the strongest attack of the hand by the goldfish policy
(unmatched.md:30-34), with who may play it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.unmatched.engine import ENGINE, best_attack
from simulator.engine.cards import SimDeck
from simulator.testhands.panels import Panel


def strongest_attack(deck: SimDeck, hand: Sequence[int]) -> dict[str, Any] | None:
    """The card the engine would attack with first, its value and the fighter printed on it;
    None when no fighter of the deck can attack with the hand (or the deck has no hero)."""
    if ENGINE.deck_problems(deck):
        return None
    attack = best_attack(list(hand), ENGINE.prepare(deck, ENGINE.params.clean({})))
    if attack is None:
        return None
    index, value = attack
    card = deck.cards[index]
    return {
        "card": card.name,
        "value": int(value),
        "fighter": str(card.attributes.get("fighter", "")),
    }


PANELS = (Panel("best_attack", "games/unmatched/testhand_attack.html", strongest_attack),)
