"""What an engine's ``hand_plan`` returns: the steps its policy would take first with an
opening hand, for the test-hand page (``simulator.testhands.panels.plan_panel``). Pure Python."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from simulator.engine.i18n import Text


@dataclass(frozen=True)
class PlanStep:
    """One step: ``text`` is an N_()-marked template (or an NP_() plural) with %(name)s
    placeholders filled from ``values``; ``cards`` are card indexes into ``SimDeck.cards``."""

    text: Text
    values: Mapping[str, object]
    cards: tuple[int, ...]
