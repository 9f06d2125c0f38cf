"""The Mattsan test-hand page: what the engine's policy would do first with an opening hand
(pure Python)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.mattsan.constants import BENCH_SLOTS, K_OTHER, K_TRUMP, K_UNIT
from simulator.engine.cards import SimDeck
from simulator.engine.i18n import N_, NP_
from simulator.engine.plan import PlanStep


def hand_plan(deck: SimDeck, hand: Sequence[int], params: dict[str, Any]) -> list[PlanStep]:
    """What the engine's policy would do first with this opening hand (before turn 1's draw):
    which unit it puts on the battlefield and the bench, when each trump becomes castable,
    which cards it never plays, and how many attacks the dummy line-up needs."""
    # imported here, not at the top: engine.py imports this module to re-export hand_plan
    from games.mattsan.engine import ENGINE

    problems = ENGINE.deck_problems(deck)
    if problems:
        return [PlanStep(problem, {}, ()) for problem in problems]
    p = ENGINE.prepare(deck, params)
    names = p.names
    steps: list[PlanStep] = []
    units = sorted((c for c in hand if p.kind[c] == K_UNIT), key=lambda c: -p.unit_rank[c])
    if units:
        lead = units[0]
        why = (
            N_("Put %(unit)s on the battlefield (HP %(hp)s): the unit with the most HP in hand.")
            if p.highest_first
            else N_(
                "Put %(unit)s on the battlefield (HP %(hp)s): the unit with the least HP in hand."
            )
        )
        steps.append(PlanStep(why, {"unit": names[lead], "hp": p.hp[lead]}, (lead,)))
        bench = units[1 : 1 + BENCH_SLOTS] if p.fill_bench else []
        if bench:
            steps.append(
                PlanStep(
                    N_(
                        "Put %(units)s on the bench (%(count)s of 3 slots), reserves to re-place "
                        "the battlefield unit."
                    ),
                    {"units": ", ".join(names[c] for c in bench), "count": len(bench)},
                    tuple(bench),
                )
            )
    elif p.wait_for_unit:
        steps.append(
            PlanStep(
                N_(
                    "No unit in hand: until one is drawn nothing stands on the battlefield and "
                    "no attack is made."
                ),
                {},
                (),
            )
        )
    else:
        steps.append(
            PlanStep(
                N_(
                    "No unit in hand: unless turn 1's draw brings one, no unit can be put on the "
                    "battlefield and the game is lost."
                ),
                {},
                (),
            )
        )
    trumps = sorted((c for c in hand if p.kind[c] == K_TRUMP), key=lambda c: (p.cost[c], c))
    for card in trumps:
        cost = p.cost[card]
        if cost == 0:
            turn = 1
        elif p.soul_charge:
            turn = -(-cost // p.soul_charge)
        else:
            turn = 0
        if turn:
            steps.append(
                PlanStep(
                    N_(
                        "Cast %(trump)s (cost %(cost)s) on turn %(turn)s at the earliest, once "
                        "enough soul charge stands ready."
                    ),
                    {"trump": names[card], "cost": cost, "turn": turn},
                    (card,),
                )
            )
        else:
            steps.append(
                PlanStep(
                    N_("%(trump)s (cost %(cost)s) is never castable: soul charge is set to 0."),
                    {"trump": names[card], "cost": cost},
                    (card,),
                )
            )
    idle = [c for c in hand if p.kind[c] == K_OTHER]
    if idle:
        steps.append(
            PlanStep(
                NP_(
                    "%(cards)s stays in hand: this goldfish never plays traps or terrain.",
                    "%(cards)s stay in hand: this goldfish never plays traps or terrain.",
                    "count",
                ),
                {"cards": ", ".join(names[c] for c in idle), "count": len(idle)},
                tuple(idle),
            )
        )
    line_up = [hp for hp in p.dummy_line_up if hp > 0]
    attacks = sum(-(-hp // p.attack_damage) for hp in line_up)
    steps.append(
        PlanStep(
            N_(
                "Attack every turn for %(damage)s damage: the dummy's %(units)s units "
                "(%(hp)s HP in all) need %(attacks)s attacks."
            ),
            {
                "damage": p.attack_damage,
                "units": len(line_up),
                "hp": sum(line_up),
                "attacks": attacks,
            },
            (),
        )
    )
    return steps
