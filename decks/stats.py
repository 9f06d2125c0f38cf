"""Deck statistics per game, computed from the same facts as legality and drawn by pygal.

Each game declares its ``Stat``s beside its rules (decks/games/*.py); card types are charted
for every game. Charts are SVG rendered on the server, so htmx can swap them in with the
legality panel after each editor change, with no script or CDN.
"""

from __future__ import annotations

import math
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import pygal
from django.utils.translation import gettext as _

from catalog.spec import get_game
from decks.charts import chart_options, chart_svg
from decks.game_rules import DeckRules, Stat
from decks.legality.facts import DeckFacts, EntryFacts


@dataclass(frozen=True)
class ChartData:
    key: str
    title: str
    labels: list[str]
    series: list[tuple[str, list[int]]]

    @property
    def total(self) -> int:
        return sum(sum(values) for _name, values in self.series)


def _printing_attrs(entry: EntryFacts) -> dict[str, Any]:
    printing = entry.printing or (entry.card.printings[0] if entry.card.printings else None)
    return dict(printing.attributes) if printing else {}


def _value(entry: EntryFacts, key: str, on: str) -> Any:
    if on == "printing":
        return _printing_attrs(entry).get(key)
    value = entry.card.attributes.get(key)
    return value if value is not None else _printing_attrs(entry).get(key)


def _choice_label(game: str, entry: EntryFacts, key: str, value: Any) -> str:
    field = get_game(game).schema_for(entry.card.card_type).base_fields.get(key)
    choices = dict(getattr(field, "choices", ()) or ())
    return str(choices.get(value, value))


def _ordered(labels: Iterable[Any], numeric: bool) -> list[Any]:
    if numeric:
        return sorted(labels, key=lambda v: (not isinstance(v, int | float), v))
    return sorted(labels, key=str)


def _stat_chart(facts: DeckFacts, entries: list[EntryFacts], stat: Stat) -> ChartData | None:
    counts: dict[str, Counter[Any]] = defaultdict(Counter)
    labels: dict[Any, str] = {}
    for entry in entries:
        raw = _value(entry, stat.key, stat.on)
        if raw is None:
            continue
        series = str(_value(entry, stat.split_by, "card") or "") if stat.split_by else ""
        for value in raw if isinstance(raw, list) else [raw]:
            counts[series][value] += entry.quantity
            labels.setdefault(value, _choice_label(facts.game, entry, stat.key, value))
    if not counts:
        return None
    order = _ordered(labels, stat.numeric)
    return ChartData(
        key=stat.key,
        title=str(stat.label),
        labels=[labels[v] for v in order],
        series=[
            (name or str(stat.label), [counter.get(v, 0) for v in order])
            for name, counter in sorted(counts.items())
        ],
    )


def deck_statistics(facts: DeckFacts, rules: DeckRules) -> list[ChartData]:
    """Charts of the deck proper (the zones that are shuffled): types, then the game's own."""
    deck_zones = {z.code for z in rules.deck_zones}
    entries = [e for e in facts.entries if e.zone in deck_zones and e.card.game == facts.game]
    types: Counter[str] = Counter()
    for entry in entries:
        types[entry.card.card_type] += entry.quantity
    charts = []
    if types:
        spec = get_game(facts.game)
        order = [t for t in spec.card_type_codes if t in types]
        charts.append(
            ChartData(
                key="card_type",
                title=_("Card types"),
                labels=[spec.card_type_label(t) for t in order],
                series=[(_("Cards"), [types[t] for t in order])],
            )
        )
    for stat in rules.stats:
        chart = _stat_chart(facts, entries, stat)
        if chart is not None:
            charts.append(chart)
    return charts


def _label_width(labels: list[str]) -> int:
    """The widest label in half-width characters (a Japanese character counts two)."""
    return max(
        (
            sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in str(label))
            for label in labels
        ),
        default=0,
    )


def render_chart(chart: ChartData, *, width: int = 420, height: int = 240) -> str:
    """The chart as inline SVG, styled by the chart stylesheet (decks/charts.py). pygal
    builds it with an XML library, so labels taken from card data are escaped."""
    stacked = len(chart.series) > 1
    kind = pygal.StackedBar if stacked else pygal.Bar
    turned = len(chart.labels) > 6 or _label_width(chart.labels) * len(chart.labels) > 48
    svg = kind(
        **chart_options(),
        width=width,
        height=height,
        show_legend=stacked,
        legend_at_bottom=True,
        legend_at_bottom_columns=3,
        print_values=not stacked,
        # whole labels, turned when they would not fit side by side, with room below for them
        # (pygal otherwise shortens them to "Charac…" and crops turned ones at the bottom)
        x_label_rotation=35 if turned else 0,
        truncate_label=-1,
        margin_bottom=8 + (min(_label_width(chart.labels), 24) * 4 if turned else 0),
    )
    svg.x_labels = chart.labels
    # counts of cards are whole numbers: ticks at integers only (pygal picks 0.1 steps)
    top = max(
        (sum(column) for column in zip(*(v for _n, v in chart.series), strict=True)), default=0
    )
    step = max(1, math.ceil(top / 5))
    svg.y_labels = list(range(0, top + step, step))
    for name, values in chart.series:
        svg.add(name, values)
    return chart_svg(svg)
