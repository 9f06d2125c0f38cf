"""Monster Hunter: how test hands and odds deal. The hand is filled to 6 in the first hand
phase (monster-hunter.md:38) and refilled to 6 each turn after discarding
(monster-hunter.md:45); how many cards a turn uses is the player's, so odds assume
``per_turn`` cards used a turn, a number the player changes."""

from __future__ import annotations

from simulator.engine.i18n import N_, NP_
from simulator.engine.params import Param, ParamSpec
from simulator.engine.schedule import DrawSchedule
from simulator.engine.setup import GameSetup

SCHEDULE = DrawSchedule(opening=6, per_turn=2, draws_on_first_turn=False)
SETUP = GameSetup(
    schedule=SCHEDULE,
    note=NP_(
        "Refills assume %(per_turn)d card used a turn; change it in the odds panel.",
        "Refills assume %(per_turn)d cards used a turn; change it in the odds panel.",
        "per_turn",
    ),
    params=ParamSpec(
        (
            # monster-hunter.md:45: the hand is refilled to 6, so a turn draws what the last used
            Param(
                "per_turn",
                N_("Cards used a turn"),
                "int",
                SCHEDULE.per_turn,
                minimum=0,
                maximum=6,
                help=N_(
                    "The hand is refilled to 6 each turn: a turn draws what the last one used."
                ),
            ),
        )
    ),
    empty_note=N_(
        "The deck is empty: you retreat (+1 retreat) and shuffle your discard pile into a new "
        "deck (monster-hunter.md:59); test hands do not keep a discard pile."
    ),
)
