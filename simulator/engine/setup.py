"""How a game deals its test hands and odds (pure Python): its draw schedule, the note shown
beside it, the schedule numbers a player may change and what an empty deck means. Each game
declares one as ``SETUP`` in its ``schedule.py``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from simulator.engine.i18n import N_, Text, render
from simulator.engine.params import Param, ParamSpec
from simulator.engine.schedule import DrawSchedule

#: every schedule number a game may let players change: one sent to a game that does not take
#: it is refused
SCHEDULE_PARAM_NAMES = ("opening", "per_turn", "used_per_turn")
EMPTY_DECK = N_("The deck is empty.")


def _untranslated(text: str) -> str:
    return text


def _english_plural(singular: str, plural: str, number: int) -> str:
    return singular if number == 1 else plural


def _with_default(param: Param, schedule: DrawSchedule) -> Param:
    """The parameter's default is the schedule's own number, so the two never disagree."""
    if param.name not in SCHEDULE_PARAM_NAMES:
        raise ValueError(f"{param.name!r} is not a schedule number ({SCHEDULE_PARAM_NAMES})")
    return replace(param, default=getattr(schedule, param.name))


@dataclass(frozen=True)
class GameSetup:
    """How a game deals. ``params`` take their defaults from ``schedule``."""

    schedule: DrawSchedule
    #: shown beside the schedule: N_-marked English, translated when shown, then formatted
    #: with the numbers actually asked (``%(per_turn)d``), so it never contradicts them
    note: Text = ""
    params: ParamSpec = field(default_factory=ParamSpec)
    empty_note: str = EMPTY_DECK
    #: the damage a player takes for each card an empty deck cannot give (0: none); a test
    #: hand goes on past an empty deck only when this is above 0, and the game's own panel
    #: shows what it adds up to
    damage_per_missing_card: int = 0

    def __post_init__(self) -> None:
        params = tuple(_with_default(p, self.schedule) for p in self.params.params)
        object.__setattr__(self, "params", ParamSpec(params))

    def schedule_with(self, values: Mapping[str, Any]) -> DrawSchedule:
        """The schedule with the player's (already cleaned) numbers."""
        changes = {p.name: values[p.name] for p in self.params.params if p.name in values}
        return replace(self.schedule, **changes) if changes else self.schedule

    def note_for(
        self, schedule: DrawSchedule, translate: Any = None, translate_plural: Any = None
    ) -> str:
        """The note, translated by ``translate`` (gettext; ``translate_plural``, ngettext, for
        a note marked with ``NP_``) and filled with ``schedule``'s numbers."""
        if not self.note:
            return ""
        values = {
            "opening": schedule.opening,
            "per_turn": schedule.per_turn,
            "used_per_turn": schedule.used_per_turn,
            "end_phase_draws": schedule.end_phase_draws,
        }
        return render(
            self.note,
            values,
            translate or _untranslated,
            translate_plural or _english_plural,
        )
