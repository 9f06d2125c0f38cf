"""Unmatched: how test hands and odds deal. Each player draws 5 (unmatched.md:23); a turn is
two actions (unmatched.md:26) and each maneuver draws 1 (unmatched.md:27), so odds assume
``per_turn`` maneuvers a turn, a number the player changes."""

from __future__ import annotations

from simulator.engine.i18n import N_, NP_
from simulator.engine.params import Param, ParamSpec
from simulator.engine.schedule import DrawSchedule
from simulator.engine.setup import GameSetup

OPENING_HAND = 5  # unmatched.md:23
EXHAUSTION_DAMAGE = 2  # unmatched.md:37, per card not drawn
# One maneuver draw a turn is the odds default: a turn may take 0-2 maneuvers (line 27).
SCHEDULE = DrawSchedule(opening=OPENING_HAND, per_turn=1, draws_on_first_turn=True)
SETUP = GameSetup(
    schedule=SCHEDULE,
    note=NP_(
        "Draws come from maneuvers: %(per_turn)d maneuver a turn is assumed; change it in the "
        "panel.",
        "Draws come from maneuvers: %(per_turn)d maneuvers a turn are assumed; change it in "
        "the panel.",
        "per_turn",
    ),
    params=ParamSpec(
        (
            Param(
                "per_turn",
                N_("Maneuvers a turn"),
                "int",
                SCHEDULE.per_turn,
                minimum=0,
                maximum=2,
                help=N_("A turn is two actions; each maneuver draws 1 card."),
            ),
        )
    ),
    empty_note=N_(
        "The deck is empty: there is no reshuffle, and you take 2 damage for each card you "
        "cannot draw (unmatched.md:37)."
    ),
    damage_per_missing_card=EXHAUSTION_DAMAGE,
)
