"""The Monster Hunter test-hand page: what the engine's policy does first with an opening hand
(pure Python)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.monster_hunter.constants import (
    ARMOR,
    EQUIP_CARD,
    HAND,
    HUNT,
    ITEM,
    MOVE,
    PLACE,
    PLACE_MONSTER,
    SKIP,
    WEAPON,
)
from games.monster_hunter.policy import (
    best_equip,
    best_monster,
    best_target,
    dead_card,
    policy_action,
)
from games.monster_hunter.state import MonsterHunterState
from simulator.engine.cards import SimDeck
from simulator.engine.i18n import N_, NP_
from simulator.engine.plan import PlanStep


def hand_plan(deck: SimDeck, hand: Sequence[int], params: dict[str, Any]) -> list[PlanStep]:
    """What the engine's policy does first with this opening hand (the first turn after the
    hand phase's draw): what it places, where the hunter heads and what it would spend, what
    it equips, and what it would discard in the next hand phase."""
    # imported here, not at the top: engine.py imports this module to re-export hand_plan
    from games.monster_hunter.engine import ENGINE

    p = ENGINE.prepare(deck, params)
    rest = list(p.pile)
    for card in hand:
        if card in rest:
            rest.remove(card)
    # run seed 0, game 0: a retreat in this turn (rare) reshuffles with that deal
    state = MonsterHunterState(p, rest[::-1], 0)
    state.hand = list(hand)
    state.phase = PLACE
    steps: list[PlanStep] = []
    names = p.names
    weapons = [c for c in hand if state.matches(c)]
    items = [c for c in hand if p.kind[c] == ITEM]
    usable = [c for c in items if state.usable(c)]
    # two sentences, each with its own number, so each takes its own plural form
    steps.append(
        PlanStep(
            NP_(
                "%(weapons)d weapon card can be discarded for +1 attack.",
                "%(weapons)d weapon cards can be discarded for +1 attack each.",
                "weapons",
            ),
            {"weapons": len(weapons)},
            tuple(weapons),
        )
    )
    steps.append(
        PlanStep(
            NP_(
                "Items matching %(hunter)s's item icons: %(usable)d of %(items)d item.",
                "Items matching %(hunter)s's item icons: %(usable)d of %(items)d items.",
                "items",
            ),
            {"usable": len(usable), "items": len(items), "hunter": p.hunter_name},
            tuple(usable),
        )
    )
    monster = best_monster(state)
    if monster >= 0:
        steps.append(
            PlanStep(
                N_(
                    "Places %(card)s face down: every face-down monster on your sheet scores "
                    "+1 HR point in each result phase."
                ),
                {"card": names[monster]},
                (monster,),
            )
        )
        state.step((PLACE_MONSTER, monster), None)
    else:
        steps.append(PlanStep(N_("No monster in hand: nothing is placed this turn."), {}, ()))
        state.step((SKIP, -1), None)
    if p.lineup:
        steps.append(_hunt_step(state))
        # the turn's move and hunt as the policy plays them, so the equip phase below sees
        # the hand the hunt leaves
        while not state.over and state.phase in (MOVE, HUNT):
            state.step(policy_action(state), None)
    if state.over:  # never on turn 1 (HR and retreats start at 0), but kept safe
        return steps
    for kind in (WEAPON, ARMOR):
        card = best_equip(state, kind)
        if card >= 0:
            steps.append(
                PlanStep(
                    N_("Equips %(card)s (cost %(cost)d material points)."),
                    {"card": names[card], "cost": p.cost[card]},
                    (card,),
                )
            )
            state.step((EQUIP_CARD, card), None)
    dead: list[int] = []
    state.phase = HAND
    while True:
        card = dead_card(state)
        if card < 0:
            break
        dead.append(card)
        state.hand.remove(card)
    if dead:
        steps.append(
            PlanStep(
                N_("Next hand phase it discards %(cards)s before drawing back up to 6."),
                {"cards": ", ".join(names[c] for c in dead)},
                tuple(dead),
            )
        )
    return steps


def _hunt_step(state: MonsterHunterState) -> PlanStep:
    """Where the hunter goes on the first turn and what it would spend there."""
    if state.dist > state.movement():
        return PlanStep(
            NP_(
                "The hunter walks toward the training sheet: %(left)d more area to go before "
                "it can hunt.",
                "The hunter walks toward the training sheet: %(left)d more areas to go "
                "before it can hunt.",
                "left",
            ),
            {"left": state.dist - state.movement()},
            (),
        )
    slot, cost = best_target(state)
    if slot < 0:
        return PlanStep(
            N_(
                "No reference monster can be slain with this hand: the hunter waits where no "
                "face-up monster can hit it."
            ),
            {},
            (),
        )
    hp, _attack, _reach, rank = state.prepared.lineup[slot]
    spent = state.spend_plan(cost) if cost else []
    return PlanStep(
        NP_(
            "The hunter heads for reference monster %(slot)d (HP %(hp)d, rank %(rank)d): "
            "attack %(attack)d plus %(cost)d discarded card slays it.",
            "The hunter heads for reference monster %(slot)d (HP %(hp)d, rank %(rank)d): "
            "attack %(attack)d plus %(cost)d discarded cards slays it.",
            "cost",
        ),
        {"slot": slot + 1, "hp": hp, "rank": rank, "attack": state.attack(), "cost": cost},
        tuple(spent),
    )
