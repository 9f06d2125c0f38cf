"""Results charts (simulator/views/charts.py): the value axis reaches the highest bar and
interval with a labelled tick there, so nothing is drawn above the last label."""

from __future__ import annotations

import re

import pytest

from simulator.views.charts import Point, axis_top, render_series


@pytest.mark.parametrize(
    ("highest", "top"),
    [(0, 1), (0.7, 1), (1, 1), (1.2, 2), (2.2, 2.5), (3, 5), (9.99, 10), (11, 20), (260, 500)],
)
def test_the_axis_ends_at_the_next_round_number(highest: float, top: float) -> None:
    assert axis_top([Point("1", highest)]) == pytest.approx(top)


def test_an_interval_above_every_bar_still_ends_below_the_last_label() -> None:
    points = [Point("1", 3.0, 2.0, 4.0), Point("2", 9.4, 7.5, 11.3)]
    assert axis_top(points) == 20
    svg = str(render_series(points, name="Damage"))
    labels = {
        float(t) for t in re.findall(r'<text[^>]*class="[^"]*"[^>]*>(\d+(?:\.\d+)?)</text>', svg)
    }
    assert {0.0, 5.0, 10.0, 15.0, 20.0} <= labels


@pytest.mark.parametrize(("rows", "drawn"), [(1, False), (2, True)])
def test_a_chart_of_a_single_value_is_its_table_instead(rows: int, drawn: bool) -> None:
    from types import SimpleNamespace

    from django.template.loader import render_to_string

    estimate = SimpleNamespace(value=40.0, low=30.0, high=50.0, n=4)
    chart = SimpleNamespace(
        key="first-open",
        kind="rate",
        title="Can open",
        svg="<svg data-drawn></svg>",
        rows=[
            SimpleNamespace(key=str(i), label=f"Turn {i}", estimate=estimate) for i in range(rows)
        ],
    )
    results = SimpleNamespace(games=100, rates=[], means=[], charts=[chart])
    html = render_to_string("simulator/_results.html", {"results": results})
    assert ("data-drawn" in html) is drawn
    assert ("data-single-value" in html) is not drawn
    assert ('<details class="small" open>' in html) is not drawn
