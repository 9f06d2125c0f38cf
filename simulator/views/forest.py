"""A forest plot of a tuning's moves: each move's effect as a dot on its 95 % interval, one
row a move, beside a line at "no change".

Drawn as a small SVG template (templates/simulator/_forest.html) whose every coordinate is
computed here and whose look comes from classes in static/simulator/tuning.css: the Content
Security Policy refuses style elements and scripts, and this chart needs neither. pygal has
no horizontal interval chart, so it is not used here.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass

#: moves drawn at most (the table lists every move)
MAX_ROWS = 30
WIDTH = 640
LABEL_WIDTH = 300
PLOT_LEFT = LABEL_WIDTH + 10
PLOT_RIGHT = WIDTH - 16
ROW_HEIGHT = 20
TOP = 8
AXIS_HEIGHT = 28
#: a move's label kept in the chart, in half-width characters (a kana or kanji counts two: it
#: is drawn twice as wide); the table has it whole
LABEL_CHARS = 44


@dataclass(frozen=True)
class ForestRow:
    label: str
    standing: str
    value: float
    low: float
    high: float


@dataclass(frozen=True)
class DrawnRow:
    label: str
    standing: str
    y: float
    x: float
    x_low: float
    x_high: float
    #: the label's baseline (a little below the row's middle line)
    text_y: float


@dataclass(frozen=True)
class Tick:
    x: float
    label: str


@dataclass(frozen=True)
class Forest:
    rows: list[DrawnRow]
    ticks: list[Tick]
    zero_x: float
    width: int
    height: int
    plot_left: int
    plot_right: int
    plot_top: int
    plot_bottom: int
    axis_label_y: int


def _nice_step(span: float, wanted: int = 5) -> float:
    raw = span / wanted
    magnitude = 10 ** math.floor(math.log10(raw))
    return next(s * magnitude for s in (1, 2, 2.5, 5, 10) if s * magnitude >= raw)


def _cells(char: str) -> int:
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def _short(label: str) -> str:
    """The label cut to ``LABEL_CHARS`` half-width cells, with an ellipsis when cut."""
    if sum(map(_cells, label)) <= LABEL_CHARS:
        return label
    kept, used = [], 0
    for char in label:
        used += _cells(char)
        if used > LABEL_CHARS - 1:
            break
        kept.append(char)
    return "".join(kept) + "…"


def _tick_label(value: float, step: float) -> str:
    decimals = max(0, -math.floor(math.log10(step))) if step < 1 else 0
    text = f"{value:+.{decimals}f}" if value else "0"
    return text.replace("-", "−")


def forest(rows: list[ForestRow]) -> Forest | None:
    """The chart's geometry for the first ``MAX_ROWS`` moves with an estimate (None: none)."""
    shown = [r for r in rows if all(math.isfinite(v) for v in (r.value, r.low, r.high))]
    shown = shown[:MAX_ROWS]
    if not shown:
        return None
    lo = min(0.0, *(r.low for r in shown))
    hi = max(0.0, *(r.high for r in shown))
    if hi - lo < 1e-12:
        lo, hi = lo - 1.0, hi + 1.0
    step = _nice_step(hi - lo)
    lo = math.floor(lo / step) * step
    hi = math.ceil(hi / step) * step
    span = hi - lo

    def x(value: float) -> float:
        return round(PLOT_LEFT + (value - lo) / span * (PLOT_RIGHT - PLOT_LEFT), 2)

    drawn = []
    for k, row in enumerate(shown):
        y = TOP + k * ROW_HEIGHT + ROW_HEIGHT / 2
        drawn.append(
            DrawnRow(
                label=_short(row.label),
                standing=row.standing,
                y=y,
                x=x(row.value),
                x_low=x(row.low),
                x_high=x(row.high),
                text_y=y + 4,
            )
        )
    ticks = []
    count = round(span / step)
    for n in range(count + 1):
        value = lo + n * step
        ticks.append(Tick(x=x(value), label=_tick_label(round(value, 10), step)))
    plot_bottom = TOP + len(shown) * ROW_HEIGHT
    return Forest(
        rows=drawn,
        ticks=ticks,
        zero_x=x(0.0),
        width=WIDTH,
        height=plot_bottom + AXIS_HEIGHT,
        plot_left=PLOT_LEFT,
        plot_right=PLOT_RIGHT,
        plot_top=TOP,
        plot_bottom=plot_bottom,
        axis_label_y=plot_bottom + 16,
    )
