"""The 央華封神 test-hand page: what the policy would do first with an opening hand (pure
Python)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.ouka_fushin.constants import K_CLIMAX, NO_CHECK, P_IMMORTAL, P_STORY, SUB_NONE
from games.ouka_fushin.dice import Dice, hidden_faces, plain_faces
from games.ouka_fushin.policy import card_value
from games.ouka_fushin.state import OukaState, card_names, keyword_names
from simulator.engine.cards import SimDeck
from simulator.engine.i18n import N_, NP_
from simulator.engine.plan import PlanStep


def hand_plan(deck: SimDeck, hand: Sequence[int], params: dict[str, Any]) -> list[PlanStep]:
    """What the policy would do first with this opening hand (card indexes into
    ``deck.cards``), before knowing turn 1's two draws: the immortal phase, the story (its
    odds), the climax it could reach, and the cards it can never use."""
    # imported here, not at the top: engine.py imports this module to re-export hand_plan
    from games.ouka_fushin.engine import ENGINE

    p = ENGINE.prepare(deck, params)
    state = OukaState(p, Dice(random.Random(0)), [], 0, SUB_NONE)
    state.hand = list(hand)
    state.turn = 1
    state.phase = P_IMMORTAL
    state.settle()
    steps = [
        PlanStep(
            N_(
                "Turn 1 starts by drawing 2 cards (the first player draws too); this plan uses "
                "the %(count)d cards of the opening hand."
            ),
            {"count": len(hand)},
            (),
        )
    ]
    hero = p.protagonists[0]
    if state.phase == P_IMMORTAL:
        kind, card = state.plan
        text = {
            "grow": N_("Grow %(protagonist)s to destiny %(level)d with %(card)s."),
            "grow_immortal": N_("Grow the immortal with %(card)s."),
            "place": N_("Place %(card)s as an immortal."),
        }[kind]
        values = {"protagonist": hero.name, "level": p.destiny[card], "card": p.names[card]}
        steps.append(PlanStep(text, values, (card,)))
        state._step((kind, card))
    else:
        steps.append(PlanStep(N_("No character card to use in the immortal phase."), {}, ()))
    if state.phase == P_STORY and state.plan[0] == "story":
        _kind, card, group = state.plan
        need = p.need[0][state.level][card]
        if need == NO_CHECK:
            steps.append(
                PlanStep(
                    NP_(
                        "Play %(card)s: no check, %(points)d point.",
                        "Play %(card)s: no check, %(points)d points.",
                        "points",
                    ),
                    {"card": p.names[card], "points": p.points[card]},
                    (card,),
                )
            )
        else:
            steps.append(
                PlanStep(
                    NP_(
                        "Play %(card)s: the die needs %(need)d or more, %(chance)d in 6 "
                        "(%(hidden)d in 6 with a hidden success), for %(points)d point.",
                        "Play %(card)s: the die needs %(need)d or more, %(chance)d in 6 "
                        "(%(hidden)d in 6 with a hidden success), for %(points)d points.",
                        "points",
                    ),
                    {
                        "card": p.names[card],
                        "need": max(need, 1),
                        "chance": plain_faces(need),
                        "hidden": hidden_faces(need),
                        "points": p.points[card],
                    },
                    (card,),
                )
            )
        state.hand.remove(card)
        state._place(card, group)
    else:
        steps.append(PlanStep(N_("No story can be played from this hand yet."), {}, ()))
    playable = state._playable()
    if playable:
        steps.append(
            PlanStep(
                N_("Then play the climax %(card)s: its keywords are on the field."),
                {"card": p.names[playable[0]]},
                (playable[0],),
            )
        )
    for c in sorted(set(hand)):
        if p.kind[c] == K_CLIMAX and c not in playable:
            missing = p.cond[c] & ~state.kw_open
            steps.append(
                PlanStep(
                    N_("The climax %(card)s still needs the keywords %(keywords)s."),
                    {"card": p.names[c], "keywords": keyword_names(p, missing)},
                    (c,),
                )
            )
    dead = tuple(sorted({c for c in hand if card_value(state, c) == 0 and c in state.hand}))
    if dead:
        steps.append(
            PlanStep(
                N_("Never used by the goldfish: %(cards)s (discarded first)."),
                {"cards": card_names(p, dead)},
                dead,
            )
        )
    return steps
