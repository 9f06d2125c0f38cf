"""A finished run's summary as the results page shows it: tables with 95 % intervals, and
charts for what runs by turn or is a distribution.

Engines name their metrics freely; the page reads the names' shape. Names ending in a number
after a separator (``damage_by_turn:07``, ``opened_by_turn_3``) form a series by turn, charted
with its interval bars; histograms are charted as distributions; everything else is a row of
a table. Labels come from the engine's ``metric_labels`` (English marked with N_) when it
declares them, else from the name itself; either way they are passed through gettext.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from simulator.engine.engine import Engine
from simulator.views.charts import Point, render_series

_SERIES = re.compile(r"^(?P<base>.*?[^0-9A-Za-z])(?P<turn>\d+)$")


@dataclass(frozen=True)
class Estimate:
    value: float | None
    low: float | None
    high: float | None
    n: int


@dataclass(frozen=True)
class Row:
    key: str
    label: str
    estimate: Estimate
    #: a rate, shown as a percentage
    percent: bool = False


@dataclass(frozen=True)
class Chart:
    key: str
    title: str
    svg: SafeString
    #: "rate", "mean" (both by turn) or "distribution"
    kind: str
    rows: list[Row]
    #: for distributions: the mean of the values, with its interval
    mean: Estimate | None = None
    observations: int = 0


@dataclass(frozen=True)
class ResultsView:
    games: int
    rates: list[Row]
    means: list[Row]
    charts: list[Chart]


def metric_label(engine: Engine[Any, Any] | None, key: str) -> str:
    labels: Mapping[str, str] = getattr(engine, "metric_labels", None) or {}
    text = labels.get(key)
    if text is None:
        words = key.strip(":_- ").replace("_", " ").replace(":", " ")
        text = words[:1].upper() + words[1:]
    return _(text)


def _estimate(data: Mapping[str, Any], *, scale: float = 1.0) -> Estimate:
    def scaled(name: str) -> float | None:
        value = data.get(name)
        return None if value is None else float(value) * scale

    return Estimate(scaled("value"), scaled("low"), scaled("high"), int(data.get("n") or 0))


def _split(estimates: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, dict[int, str]]]:
    """Plain metrics, and series: base name -> {turn: full name} (two turns at least)."""
    series: dict[str, dict[int, str]] = defaultdict(dict)
    for key in estimates:
        match = _SERIES.match(key)
        if match:
            series[match["base"]][int(match["turn"])] = key
    series = {base: turns for base, turns in series.items() if len(turns) > 1}
    in_series = {key for turns in series.values() for key in turns.values()}
    plain = {k: v for k, v in estimates.items() if k not in in_series}
    return plain, dict(sorted(series.items()))


def _series_chart(
    engine: Engine[Any, Any] | None,
    base: str,
    turns: dict[int, str],
    estimates: Mapping[str, Any],
    *,
    percent: bool,
) -> Chart:
    title = metric_label(engine, base)
    rows = [
        Row(
            key=turns[turn],
            label=_("Turn %(turn)s") % {"turn": turn},
            estimate=_estimate(estimates[turns[turn]], scale=100.0 if percent else 1.0),
            percent=percent,
        )
        for turn in sorted(turns)
    ]
    points = [
        Point(str(turn), row.estimate.value, row.estimate.low, row.estimate.high)
        for turn, row in zip(sorted(turns), rows, strict=True)
    ]
    svg = render_series(points, name=title, line=not percent, percent=percent, whole_range=percent)
    return Chart(base, title, svg, "rate" if percent else "mean", rows)


def _distribution_chart(
    engine: Engine[Any, Any] | None, key: str, data: Mapping[str, Any]
) -> Chart:
    counts = {int(k): int(v) for k, v in (data.get("counts") or {}).items()}
    total = sum(counts.values())
    title = metric_label(engine, key)
    rows = [
        Row(
            key=str(value),
            label=str(value),
            estimate=Estimate(100.0 * n / total if total else None, None, None, n),
            percent=True,
        )
        for value, n in sorted(counts.items())
    ]
    points = [Point(row.label, row.estimate.value) for row in rows]
    svg = render_series(points, name=title, percent=True)
    mean = _estimate(data.get("mean") or {})
    return Chart(key, title, svg, "distribution", rows, mean=mean, observations=total)


def results_view(summary: Mapping[str, Any], engine: Engine[Any, Any] | None) -> ResultsView:
    rates, rate_series = _split(summary.get("rates") or {})
    means, mean_series = _split(summary.get("means") or {})
    charts = [
        _series_chart(engine, base, turns, summary["rates"], percent=True)
        for base, turns in rate_series.items()
    ]
    charts += [
        _series_chart(engine, base, turns, summary["means"], percent=False)
        for base, turns in mean_series.items()
    ]
    charts += [
        _distribution_chart(engine, key, data)
        for key, data in sorted((summary.get("distributions") or {}).items())
    ]
    return ResultsView(
        games=int(summary.get("games") or 0),
        rates=[
            Row(k, metric_label(engine, k), _estimate(v, scale=100.0), percent=True)
            for k, v in sorted(rates.items())
        ],
        means=[Row(k, metric_label(engine, k), _estimate(v)) for k, v in sorted(means.items())],
        charts=charts,
    )
