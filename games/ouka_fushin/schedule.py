"""央華封神: how test hands and odds deal. Each draws 6 (ouka-fushin.md:45), the first player
draws on its first turn (ouka-fushin.md:46), every turn starts with drawing 2
(ouka-fushin.md:56), and the end phase draws or discards the hand back to exactly 6
(ouka-fushin.md:68). How many cards a turn uses is the player's, so the odds take it as a
number the player changes: a turn using ``u`` cards draws ``max(0, u - 2)`` at its end. The
default, 2, is what the goldfish engine's policy uses at most (one character and one story a
turn), which makes the end phase draw nothing and the odds exact for the engine's games."""

from __future__ import annotations

from simulator.engine.i18n import N_, NP_
from simulator.engine.params import Param, ParamSpec
from simulator.engine.schedule import DrawSchedule
from simulator.engine.setup import GameSetup

HAND_SIZE = 6  # ouka-fushin.md:45 and 68
SCHEDULE = DrawSchedule(
    opening=HAND_SIZE, per_turn=2, draws_on_first_turn=True, refill_to=HAND_SIZE, used_per_turn=2
)
SETUP = GameSetup(
    schedule=SCHEDULE,
    note=NP_(
        "As the first player, who draws on the first turn. The end phase draws the hand back to "
        "6: with %(used_per_turn)d card used a turn, each end phase draws %(end_phase_draws)d "
        "(counted with the next turn's draws).",
        "As the first player, who draws on the first turn. The end phase draws the hand back to "
        "6: with %(used_per_turn)d cards used a turn, each end phase draws %(end_phase_draws)d "
        "(counted with the next turn's draws).",
        "used_per_turn",
    ),
    params=ParamSpec(
        (
            Param(
                "used_per_turn",
                N_("Cards used a turn"),
                "int",
                SCHEDULE.used_per_turn,
                minimum=0,
                maximum=8,
                help=N_(
                    "Characters, stories and other cards played in a turn: the end phase draws "
                    "back what the turn used beyond its 2 draws."
                ),
            ),
        )
    ),
    empty_note=N_(
        "The deck is empty: the game ends at the start of your next turn (deck-out, "
        "ouka-fushin.md:56)."
    ),
)
