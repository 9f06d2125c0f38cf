"""Before and after, side by side: the headline figures of the benchmark scripts, measured in
two checkouts of DeckLab in alternating rounds on the same machine, with the ratio of medians.

    git worktree add /tmp/before <commit>         # the code before a change
    .venv/bin/python bench/before_after.py /tmp/before [--rounds 3]

Each round runs every script once in the "before" checkout and once in this one (the order
alternating from round to round, so drift on a shared machine falls on both sides), each with
that checkout's own bench script and code. A ratio above 1 means this checkout is faster
(for times, before / after; for rates, after / before).
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import statistics
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Figure:
    label: str
    script: str
    args: tuple[str, ...]
    #: the figure's line; group 1 is the number (commas allowed)
    pattern: str
    #: "time": lower is better; "rate": higher is better
    kind: str


FIGURES = (
    Figure(
        "legality check, slowest 60-entry deck (ms, median)",
        "legality.py",
        ("--runs", "2000"),
        r"slowest 60-entry median: ([\d.]+) ms",
        "time",
    ),
    Figure(
        "editor change, Monster Hunter add+remove (ms, median)",
        "decks.py",
        ("--rounds", "20", "--runs", "200"),
        r"monster-hunter[^\n]*\n(?:[^\n]*\n){3}\s+both\s+median\s+([\d.]+) ms",
        "time",
    ),
    Figure(
        "odds answer, worst game (ms, median)",
        "odds.py",
        ("--requests", "100"),
        r"worst median odds answer: ([\d.]+) ms",
        "time",
    ),
    Figure(
        "test hand page, Unmatched (ms, median)",
        "odds.py",
        ("--requests", "100"),
        r"unmatched\s+test hand page \(info\)\s+([\d.]+)",
        "time",
    ),
    Figure(
        "Unmatched engine, slowest deck (games/s)",
        "unmatched_engine.py",
        ("--games", "20000", "--repeats", "3"),
        r"slowest: ([\d,]+) games/s",
        "rate",
    ),
    Figure(
        "Recharge solver, 6-card hands, basic rules (hands/s)",
        "recharge_solver.py",
        ("--hands", "5000", "--runs", "3"),
        r"6-card hands, basic rules :\s+([\d,]+) hands/s",
        "rate",
    ),
)


def run(tree: Path, figure: Figure, cache: dict[tuple[Path, str, tuple[str, ...]], str]) -> float:
    """The figure measured in ``tree`` (a script's output is reused by the figures it holds)."""
    key = (tree, figure.script, figure.args)
    if key not in cache:
        env = {**os.environ, "PYTHONPATH": str(tree)}
        done = subprocess.run(
            [sys.executable, str(tree / "bench" / figure.script), *figure.args],
            cwd=tree,
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )
        cache[key] = done.stdout + done.stderr
    found = re.search(figure.pattern, cache[key])
    if found is None:
        raise SystemExit(
            f"{figure.label}: no figure in the output of {tree}:\n{cache[key][-2000:]}"
        )
    return float(found.group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path, help="a checkout of the code before the change")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    trees = {"before": args.before.resolve(), "after": HERE}
    print(
        f"machine: {os.cpu_count()} cores, Python {platform.python_version()}, {os.uname().release}"
    )
    print(f"before: {trees['before']}; after: {trees['after']}; {args.rounds} alternating rounds")
    values: dict[str, dict[str, list[float]]] = {
        f.label: {"before": [], "after": []} for f in FIGURES
    }
    for round_ in range(args.rounds):
        order = ["before", "after"] if round_ % 2 == 0 else ["after", "before"]
        for side in order:
            cache: dict[tuple[Path, str, tuple[str, ...]], str] = {}
            for figure in FIGURES:
                values[figure.label][side].append(run(trees[side], figure, cache))
        print(f"round {round_ + 1} done")
    print(f"\n{'figure':<56} {'before':>10} {'after':>10} {'ratio':>7}")
    for figure in FIGURES:
        before = statistics.median(values[figure.label]["before"])
        after = statistics.median(values[figure.label]["after"])
        ratio = before / after if figure.kind == "time" else after / before
        print(f"{figure.label:<56} {before:>10,.2f} {after:>10,.2f} {ratio:>6.2f}x")
    print("ratio > 1: this checkout is faster; medians of the rounds")


if __name__ == "__main__":
    main()
