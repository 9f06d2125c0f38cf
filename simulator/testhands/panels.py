"""What a game shows beside a test hand: its panels, declared as ``PANELS`` in the game's
``testhand.py`` (the best play the hand allows, the first moves an engine would
make).

A panel computes plain JSON-ready data from the hand (card indexes into the ``SimDeck``), so
the page (through the panel's template) and the API (under ``panels.<key>``) show the same
answer. A panel that needs what the deal says beside the cards (how many the empty deck could
not give) gives ``compute_dealt`` instead, which gets those facts as a ``DealFacts``. Pure
Python: templates are named, never loaded, here.
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
class DealFacts:
    """What the deal says beside the hand's cards, for the panels that read it."""

    #: the cards the empty deck could not give so far
    missing: int = 0


@dataclass(frozen=True)
class Panel:
    #: its key in the API's ``panels`` object
    key: str
    #: the template drawing it, given ``data`` (None: nothing to show) and ``hand_count``
    template: str
    #: the panel's data from the hand alone
    compute: Callable[[SimDeck, Sequence[int]], PanelData | None] | None = None
    #: or, for a panel that reads the deal too, from the hand and the deal's facts
    compute_dealt: Callable[[SimDeck, Sequence[int], DealFacts], PanelData | None] | None = None

    def __post_init__(self) -> None:
        if (self.compute is None) == (self.compute_dealt is None):
            raise TypeError(f"The panel {self.key!r} needs one of compute or compute_dealt")

    def data(self, deck: SimDeck, hand: Sequence[int], deal: DealFacts) -> PanelData | None:
        if self.compute_dealt is not None:
            return self.compute_dealt(deck, hand, deal)
        assert self.compute is not None  # one of the two, checked when declared
        return self.compute(deck, hand)


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
    return tuple(registry.get(slug).panels)


def panel_results(
    slug: str, deck: SimDeck, hand: Sequence[int], deal: DealFacts | None = None
) -> list[PanelResult]:
    """Every panel of the game for ``hand`` dealt as ``deal`` says (an empty hand computes
    nothing)."""
    facts = deal or DealFacts()
    return [PanelResult(p, p.data(deck, hand, facts) if hand else None) for p in panels_of(slug)]
