"""Unmatched's test-hand panels: the strongest attack of the hand by the goldfish policy
(unmatched.md:30-34), with who may play it, and the fatigue taken once the deck is empty
(2 damage for each card not drawn, unmatched.md:37)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.unmatched.engine import ENGINE, best_attack
from games.unmatched.schedule import EXHAUSTION_DAMAGE
from simulator.engine.cards import SimDeck
from simulator.testhands.panels import DealFacts, Panel


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


def fatigue(deck: SimDeck, hand: Sequence[int], deal: DealFacts) -> dict[str, Any] | None:
    """The damage taken so far for the cards the empty deck could not give; None before the
    deck runs out."""
    if deal.missing <= 0:
        return None
    return {"missing": deal.missing, "damage": deal.missing * EXHAUSTION_DAMAGE}


PANELS = (
    Panel("best_attack", "games/unmatched/testhand_attack.html", strongest_attack),
    Panel("fatigue", "games/unmatched/testhand_fatigue.html", compute_dealt=fatigue),
)
