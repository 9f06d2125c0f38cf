"""The "Improve this deck" section of a deck's simulation page: the tuning form, or why the
deck cannot be tuned, and the player's earlier tunings of the deck."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from decks.models import Deck
from simulator.decks import sim_deck_for
from simulator.engine.engine import Engine
from simulator.engine.goals import goal_by_code
from simulator.models import TuningJob
from simulator.selectors import tunings_of_deck
from simulator.tuning.forms import TuningForm
from simulator.tuning.report import goal_label
from simulator.tuning.services import NOT_TUNABLE


@dataclass(frozen=True)
class Listed:
    job: TuningJob
    goal_label: str


#: earlier tunings listed on the page (the newest)
TUNINGS_LISTED = 10


def tuning_section(
    request: HttpRequest,
    deck: Deck,
    engine: Engine[Any, Any],
    form: TuningForm | None = None,
) -> dict[str, Any]:
    """The section's context: ``tuning_form`` when the deck may be tuned, else
    ``tuning_refusals`` saying why; ``tunings``, the player's earlier ones."""
    context: dict[str, Any] = {}
    if not engine.goals:
        context["tuning_refusals"] = [str(NOT_TUNABLE)]
    else:
        sim_deck = sim_deck_for(deck, language=get_language() or "en")
        problems = engine.tune_problems(sim_deck) + engine.deck_problems(sim_deck)
        if problems:
            context["tuning_refusals"] = [_(p) for p in problems]
        else:
            context["tuning_form"] = form or TuningForm(engine=engine, sim_deck=sim_deck)
    context["tunings"] = [
        Listed(job, goal_label(goal_by_code(engine.goals, job.goal), job.turn))
        for job in tunings_of_deck(deck=deck, user=request.user)[:TUNINGS_LISTED]
    ]
    return context
