"""Charts hold under the Content Security Policy: pygal's SVG leaves without its own <style>
and <script>, and every rule pygal would have put in it is in the static chart stylesheet
(served at /decks/charts.css), which the pages that show charts link."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pygal
import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from decks.charts import SCOPE, chart_options, chart_stylesheet
from decks.stats import ChartData, render_chart
from simulator.views.charts import Point, render_series

TEMPLATES = Path(settings.BASE_DIR) / "templates"
_SVG = "{http://www.w3.org/2000/svg}"


def _rules(css: str) -> set[str]:
    """A stylesheet's rules, comments and whitespace aside, for comparing as sets."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.DOTALL)
    return {re.sub(r"\s+", "", rule).rstrip(";") + "}" for rule in css.split("}") if rule.strip()}


def _charts() -> dict[str, str]:
    points = [Point(str(n), n * 1.5, n, n * 2) for n in range(1, 6)]
    stacked = ChartData("value", "Values", ["1", "2"], [("Alice", [1, 2]), ("Bob", [2, 1])])
    return {
        "deck statistics": render_chart(ChartData("type", "Types", ["A", "B"], [("c", [1, 2])])),
        "deck statistics, stacked": render_chart(stacked),
        "simulation bars": str(render_series(points, name="Damage")),
        "simulation line": str(render_series(points, name="Damage", line=True)),
    }


@pytest.mark.parametrize("kind", sorted(_charts()))
def test_a_chart_carries_no_style_or_script_the_policy_would_refuse(kind: str) -> None:
    svg = _charts()[kind]
    assert "<style" not in svg and "<script" not in svg
    root = ElementTree.fromstring(svg)
    # the stylesheet's rules reach the chart through this class
    assert "pygal-chart" in root.attrib["class"].split()


def _served_stylesheet() -> str:
    response = Client().get(reverse("decks:chart-stylesheet"))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/css; charset=utf-8"
    return response.content.decode("utf-8")


def test_the_served_chart_stylesheet_is_the_one_the_chart_style_generates() -> None:
    assert _served_stylesheet() == chart_stylesheet()


@pytest.mark.parametrize("series", [1, 3, 7])
def test_every_rule_pygal_would_embed_in_a_chart_is_in_the_stylesheet(series: int) -> None:
    chart = pygal.StackedBar(**chart_options())
    for index in range(series):
        chart.add(f"series {index}", [index, 1])
    style = ElementTree.fromstring(chart.render()).find(f"{_SVG}defs/{_SVG}style")
    assert style is not None and style.text
    embedded = _rules(style.text.replace(f"#chart-{chart.uuid}", SCOPE))
    missing = embedded - _rules(_served_stylesheet())
    assert not missing, sorted(missing)[:5]


@pytest.mark.parametrize("template", ["decks/detail.html", "decks/edit.html", "simulator/run.html"])
def test_the_pages_that_show_charts_link_the_chart_stylesheet(template: str) -> None:
    text = (TEMPLATES / template).read_text(encoding="utf-8")
    assert "{% url 'decks:chart-stylesheet' %}" in text
