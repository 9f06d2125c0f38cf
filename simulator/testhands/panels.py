"""What a game shows beside a test hand: its panels, declared as ``PANELS`` in the game's
``testhand.py`` (Recharge's best formation, Unmatched's best attack, the first moves of the
other engines).

A panel computes plain JSON-ready data from the hand (card indexes into the ``SimDeck``), so
the page (through the panel's template) and the API (under ``panels.<key>``) show the same
answer. Pure Python: templates are named, never loaded, here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games import registry
from simulator.engine.cards import SimDeck
from simulator.engine.i18n import render
from simulator.engine.plan import PlanStep

PanelData = Mapping[str, Any]


@dataclass(frozen=True)
class Panel:
    #: its key in the API's ``panels`` object
    key: str
    #: the template drawing it, given ``data`` (None: nothing to show) and ``hand_count``
    template: str
    compute: Callable[[SimDeck, Sequence[int]], PanelData | None]


@dataclass(frozen=True)
class PanelResult:
    panel: Panel
    data: PanelData | None


#: the shared template of ``plan_panel``: a list of steps, each a sentence
PLAN_TEMPLATE = "simulator/testhand/_plan.html"
PLAN_KEY = "first_moves"


def plan_panel(
    engine: Any,
    hand_plan: Callable[[SimDeck, Sequence[int], dict[str, Any]], Sequence[PlanStep]],
    translate: Callable[[str], str],
    translate_plural: Callable[[str, str, int], str],
) -> Panel:
    """A panel of an engine's ``hand_plan`` (steps with an N_ or NP_ template, its values and
    the cards involved): what the engine would place, equip or play first, sentence by
    sentence, in the reader's language (``translate`` is gettext, ``translate_plural``
    ngettext)."""

    def compute(deck: SimDeck, hand: Sequence[int]) -> PanelData | None:
        if engine.deck_problems(deck):
            return None
        steps = hand_plan(deck, hand, engine.params.clean({}))
        return {
            "steps": [
                {
                    "text": render(step.text, step.values, translate, translate_plural),
                    "cards": [deck.cards[i].name for i in step.cards],
                }
                for step in steps
            ]
        }

    return Panel(PLAN_KEY, PLAN_TEMPLATE, compute)


def panels_of(slug: str) -> tuple[Panel, ...]:
    panels: tuple[Panel, ...] = tuple(registry.get(slug).declared("testhand", "PANELS", ()))
    return panels


def panel_results(slug: str, deck: SimDeck, hand: Sequence[int]) -> list[PanelResult]:
    """Every panel of the game for ``hand`` (an empty hand computes nothing)."""
    return [PanelResult(p, p.compute(deck, hand) if hand else None) for p in panels_of(slug)]
