"""Metric accumulators that merge exactly, and summaries with 95 % confidence intervals.

An accumulator holds only integers and exact sums (counts, sums, sums of squares, and
histograms keyed by integers), so merging the chunks of a run in any order gives the same
numbers as playing all games in one process. Floats enter only in ``summarise``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from scipy import stats


@dataclass
class Metrics:
    games: int = 0
    #: how many games an event happened in (e.g. "opened_by_turn_3")
    counts: Counter[str] = field(default_factory=Counter)
    #: per-game values, as sums and sums of squares (integers; scale fractional values first)
    sums: Counter[str] = field(default_factory=Counter)
    squares: Counter[str] = field(default_factory=Counter)
    #: distributions: name -> {integer value or turn: count}
    histograms: dict[str, Counter[int]] = field(default_factory=dict)

    def count(self, name: str, n: int = 1) -> None:
        self.counts[name] += n

    def add(self, name: str, value: int) -> None:
        """One game's integer value of ``name`` (mean and interval over games)."""
        self.sums[name] += value
        self.squares[name] += value * value

    def observe(self, name: str, key: int, n: int = 1) -> None:
        """One observation in a histogram (a turn, a value)."""
        histogram = self.histograms.get(name)
        if histogram is None:
            histogram = self.histograms[name] = Counter()
        histogram[key] += n

    def merge(self, other: Metrics) -> Metrics:
        self.games += other.games
        self.counts.update(other.counts)
        self.sums.update(other.sums)
        self.squares.update(other.squares)
        for name, histogram in other.histograms.items():
            self.histograms.setdefault(name, Counter()).update(histogram)
        return self

    @classmethod
    def merged(cls, parts: Iterable[Metrics]) -> Metrics:
        total = cls()
        for part in parts:
            total.merge(part)
        return total

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "counts": dict(sorted(self.counts.items())),
            "sums": dict(sorted(self.sums.items())),
            "squares": dict(sorted(self.squares.items())),
            "histograms": {
                name: {str(k): v for k, v in sorted(h.items())}
                for name, h in sorted(self.histograms.items())
            },
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Metrics:
        return cls(
            games=int(data.get("games", 0)),
            counts=Counter({k: int(v) for k, v in data.get("counts", {}).items()}),
            sums=Counter({k: int(v) for k, v in data.get("sums", {}).items()}),
            squares=Counter({k: int(v) for k, v in data.get("squares", {}).items()}),
            histograms={
                name: Counter({int(k): int(v) for k, v in h.items()})
                for name, h in data.get("histograms", {}).items()
            },
        )


@dataclass(frozen=True)
class Estimate:
    """A mean or a proportion with its 95 % confidence interval."""

    value: float
    low: float
    high: float
    n: int

    def as_dict(self) -> dict[str, float | int]:
        return {"value": self.value, "low": self.low, "high": self.high, "n": self.n}


def mean_estimate(total: int, squares: int, n: int) -> Estimate:
    """Mean of n values from their sum and sum of squares, with a Student-t 95 % interval."""
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    mean = total / n
    if n == 1:
        return Estimate(mean, mean, mean, 1)
    variance = max(0.0, (squares - n * mean * mean) / (n - 1))
    half = float(stats.t.ppf(0.975, n - 1)) * math.sqrt(variance / n)
    return Estimate(mean, mean - half, mean + half, n)


def proportion_estimate(successes: int, n: int) -> Estimate:
    """A proportion with its Wilson 95 % interval (sound near 0 and 1, unlike the normal one)."""
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    z = float(stats.norm.ppf(0.975))
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    # At p = 0 or 1 the Wilson bound is exactly 0 or 1; rounding must not push it inside.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return Estimate(p, low, high, n)


def histogram_mean(histogram: Mapping[int, int]) -> Estimate:
    n = sum(histogram.values())
    total = sum(k * v for k, v in histogram.items())
    squares = sum(k * k * v for k, v in histogram.items())
    return mean_estimate(total, squares, n)


def summarise(metrics: Metrics) -> dict[str, Any]:
    """Every metric as a plain, JSON-ready summary."""
    n = metrics.games
    return {
        "games": n,
        "rates": {
            k: proportion_estimate(v, n).as_dict() for k, v in sorted(metrics.counts.items())
        },
        "means": {
            k: mean_estimate(metrics.sums[k], metrics.squares[k], n).as_dict()
            for k in sorted(metrics.sums)
        },
        "distributions": {
            name: {
                "counts": {str(k): v for k, v in sorted(h.items())},
                "mean": histogram_mean(h).as_dict(),
            }
            for name, h in sorted(metrics.histograms.items())
        },
    }
