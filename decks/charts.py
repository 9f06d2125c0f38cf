"""Charts drawn by pygal that hold under the Content Security Policy.

pygal writes a ``<style>`` element into every SVG it draws, and the policy (``style-src 'self'``,
decklab/settings.py) refuses inline style elements: a chart whose style is refused fills every
path with SVG's default black, a black box. So the charts leave pygal without their
``<style>`` (and without the tooltip ``<script>``, which no chart uses) and the same rules come
from one stylesheet, generated from ``CHART_STYLE`` by this module, served at
``/decks/charts.css`` (decks/views/chart_css.py) and linked by the pages that show charts. The
SVGs are inlined in the HTML, so the page's stylesheets reach into them (an SVG in an ``<img>``
would not be styled by the page).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from typing import Any

import pygal
from pygal.style import Style

CHART_STYLE = Style(
    background="transparent",
    plot_background="transparent",
    foreground="#343a40",
    foreground_strong="#212529",
    foreground_subtle="#6c757d",
    colors=("#0d6efd", "#d63384", "#198754", "#fd7e14", "#6f42c1", "#20c997", "#dc3545"),
    font_family="system-ui, sans-serif",
    label_font_size=12,
    major_label_font_size=12,
    value_font_size=11,
    legend_font_size=12,
)

#: pygal puts this class on every chart's root; the stylesheet's rules are scoped under it
#: where pygal scopes them under one chart's id
SCOPE = "svg.pygal-chart"
#: series coloured by the stylesheet (pygal darkens the palette's colours past its length);
#: a chart split by a key's values (``split_by``) has at most a handful of series
SERIES_COLOURED = 14

# pygal's output is XML-escaped text, so neither element can hold a literal closing tag and
# these matches are exact.
_STYLE = re.compile(r"<style\b[^>]*>.*?</style>", re.DOTALL)
_SCRIPT = re.compile(r"<script\b[^>]*>.*?</script>", re.DOTALL)
_SVG = "{http://www.w3.org/2000/svg}"


def chart_options() -> dict[str, Any]:
    """The options every chart is drawn with: the house style, no script, sized by the page."""
    return {
        "style": CHART_STYLE,
        "js": [],
        "disable_xml_declaration": True,
        "explicit_size": False,
        "title": None,
        "margin": 8,
    }


def chart_svg(chart: pygal.graph.graph.Graph) -> str:
    """The chart as SVG for inlining in a page: pygal's own ``<style>`` and ``<script>`` are
    left out (the stylesheet carries the style), so nothing in it needs 'unsafe-inline'."""
    rendered: str = chart.render()
    return _SCRIPT.sub("", _STYLE.sub("", rendered))


def chart_stylesheet() -> str:
    """The rules pygal would embed in each chart, scoped to every chart instead of one: drawn
    from a sample chart with enough series for every colour the pages use."""
    sample = pygal.Bar(**{**chart_options(), "pretty_print": True})
    for index in range(SERIES_COLOURED):
        sample.add(str(index), [1])
    root = ElementTree.fromstring(sample.render())
    style = root.find(f"{_SVG}defs/{_SVG}style")
    assert style is not None and style.text, "pygal drew a chart without a <style>"
    css = style.text.replace(f"#chart-{sample.uuid}", SCOPE)
    lines = [line.rstrip() for line in css.strip().splitlines()]
    return "\n".join(lines) + "\n"
