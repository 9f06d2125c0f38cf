"""央華封神's test-hand panel: what the goldfish engine would do first with the hand
(``engine.hand_plan``), sentence by sentence."""

from __future__ import annotations

from django.utils.translation import gettext, ngettext

from games.ouka_fushin.engine import ENGINE, hand_plan
from simulator.testhands.panels import plan_panel

PANELS = (plan_panel(ENGINE, hand_plan, gettext, ngettext),)
