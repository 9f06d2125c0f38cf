"""The deck statistics' charts keep every axis label whole: long and Japanese labels are turned
and given room below the plot instead of being shortened or cropped."""

from __future__ import annotations

import re

import pytest

from decks.stats import ChartData, render_chart

LONG = ["Character card", "Versatile", "Defense", "Scheme"]
JAPANESE = ["キャラクターカード", "ストーリー", "クライマックス"]


@pytest.mark.parametrize("labels", [LONG, JAPANESE], ids=["english", "japanese"])
def test_long_axis_labels_are_drawn_whole_and_turned(labels: list[str]) -> None:
    svg = render_chart(ChartData("type", "Types", labels, [("cards", [3] * len(labels))]))
    for label in labels:
        assert f">{label}<" in svg
    assert "…" not in svg
    assert re.search(r"rotate\(35", svg)


def test_a_few_short_labels_stay_level() -> None:
    svg = render_chart(ChartData("value", "Values", ["1", "2", "3"], [("cards", [1, 2, 3])]))
    assert "rotate(" not in svg
