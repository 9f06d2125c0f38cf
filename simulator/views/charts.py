"""Results charts as inline SVG, drawn by pygal on the server the way the deck statistics are
(decks/stats.py): no script, no CDN, labels escaped by pygal's XML library, styled by the
static chart stylesheet (decks/charts.py)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import pygal
from django.utils.safestring import SafeString, mark_safe

from decks.charts import chart_options, chart_svg


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
        **chart_options(),
        width=width,
        height=height,
        show_legend=False,
        print_values=False,
        x_label_rotation=0 if len(points) <= 20 else 45,
        show_minor_x_labels=len(points) <= 30,
        x_labels_major_every=None if len(points) <= 30 else 5,
        # the axis reaches the highest bar and interval, with a labelled tick there: pygal's
        # own range follows the values alone and left interval bars above the last label
        range=(0, 100) if whole_range else (0, top),
        include_x_axis=True,
        # value_formatter draws the axis ticks: no trailing zeros on whole numbers (0, 2.5, 5);
        # formatter draws the values themselves, to two decimals
        value_formatter=(lambda v: f"{v:g} %") if percent else (lambda v: f"{v:g}"),
        formatter=(lambda v: f"{v:.1f} %") if percent else (lambda v: f"{v:.2f}"),
    )
    chart.x_labels = [p.label for p in points]
    chart.y_labels = (
        [0, 25, 50, 75, 100] if whole_range else [round(top * i / 4, 6) for i in range(5)]
    )
    chart.add(name, [_pygal_value(p) for p in points])
    # The SVG is built by pygal from escaped text, without its <style> and <script>.
    return mark_safe(chart_svg(chart))
