"""Recharge's test-hand panel: the best formation the hand builds (recharge.md:35-44), by the
engine's exact solver, under the basic rules (power cards do not chain, recharge.md:20)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.recharge import solver
from simulator.engine.cards import SimDeck
from simulator.testhands.panels import Panel

#: a hand holds at most 6 cards and may not go over (recharge.md:33, seed:41)
HAND_LIMIT = 6


def best_formation(deck: SimDeck, hand: Sequence[int]) -> dict[str, Any] | None:
    """The hand's best formation: its total, the hero-teamwork row from left to right and the
    power cards on the heroes' edges with the value each touching side counts; None when the
    hand builds none. Cards dealt beyond the hand limit make no hand of the game: the panel
    says so rather than solve them (the exact search grows steeply with the heroes and
    teamwork cards: a 45-card "hand" took 11 s)."""
    if len(hand) > HAND_LIMIT:
        return {"over_limit": True, "limit": HAND_LIMIT}
    cards = [deck.cards[i] for i in hand]
    rcards = [
        solver.card_from_attributes(c.card_type, c.attributes, variant=c.variant, name=c.name)
        for c in cards
    ]
    formation = solver.best_formation(rcards, chain_power_cards=False)
    if not formation.exists:
        return None
    return {
        "total": int(formation.power),
        "row": [cards[i].name for i in formation.row],
        "powers": [
            {"card": cards[p.card].name, "value": int(p.value)}
            for p in formation.placements
            if p.kind == solver.POWER
        ],
    }


PANELS = (Panel("best_formation", "games/recharge/testhand_formation.html", best_formation),)
