"""Results charts as inline SVG, drawn by pygal on the server the way the deck statistics are
(decks/stats.py): no script, no CDN, labels escaped by pygal's XML library."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import pygal
from django.utils.safestring import SafeString, mark_safe

from decks.stats import CHART_STYLE

# pygal always embeds its tooltip config as a <script>; these charts need none. Its text is
# XML-escaped by pygal, so no literal "</script>" can occur inside and this match is exact.
_SCRIPT = re.compile(r"<script\b[^>]*>.*?</script>", re.DOTALL)


@dataclass(frozen=True)
class Point:
    label: str
    value: float | None
    #: the 95 % interval, drawn as an error bar when given
    low: float | None = None
    high: float | None = None


def _pygal_value(point: Point) -> object:
    if point.value is None:
        return None
    if point.low is None or point.high is None:
        return point.value
    return {"value": point.value, "ci": {"low": point.low, "high": point.high}}


def axis_top(points: list[Point]) -> float:
    """A round number (1, 2, 2.5 or 5 times a power of ten) at or above every value and
    interval end, so nothing is drawn above the highest labelled tick."""
    highest = max((max(p.value or 0, p.high or 0) for p in points), default=0.0)
    if highest <= 0:
        return 1.0
    magnitude = 10 ** math.floor(math.log10(highest))
    return next(step * magnitude for step in (1, 2, 2.5, 5, 10) if step * magnitude >= highest)


def render_series(
    points: list[Point],
    *,
    name: str,
    line: bool = False,
    percent: bool = False,
    whole_range: bool = False,
    width: int = 560,
    height: int = 260,
) -> SafeString:
    """One series (by turn, by value) as a bar or line chart with its interval bars, its
    axis from 0 (to 100 % with ``whole_range``, for chances)."""
    kind = pygal.Line if line else pygal.Bar
    top = axis_top(points)
    chart = kind(
        style=CHART_STYLE,
        width=width,
        height=height,
        js=[],
        show_legend=False,
        print_values=False,
        x_label_rotation=0 if len(points) <= 20 else 45,
        show_minor_x_labels=len(points) <= 30,
        x_labels_major_every=None if len(points) <= 30 else 5,
        disable_xml_declaration=True,
        explicit_size=False,
        # the axis reaches the highest bar and interval, with a labelled tick there: pygal's
        # own range follows the values alone and left interval bars above the last label
        range=(0, 100) if whole_range else (0, top),
        include_x_axis=True,
        # value_formatter draws the axis ticks: no trailing zeros on whole numbers (0, 2.5, 5);
        # formatter draws the values themselves, to two decimals
        value_formatter=(lambda v: f"{v:g} %") if percent else (lambda v: f"{v:g}"),
        formatter=(lambda v: f"{v:.1f} %") if percent else (lambda v: f"{v:.2f}"),
        title=None,
        margin=8,
    )
    chart.x_labels = [p.label for p in points]
    chart.y_labels = (
        [0, 25, 50, 75, 100] if whole_range else [round(top * i / 4, 6) for i in range(5)]
    )
    chart.add(name, [_pygal_value(p) for p in points])
    rendered: str = chart.render()
    # The SVG is built by pygal from escaped text, and its only script is removed above.
    return mark_safe(_SCRIPT.sub("", rendered))
