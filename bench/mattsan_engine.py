"""Benchmark: the Mattsan goldfish engine (games/mattsan/engine.py), games per second.

    .venv/bin/python bench/mattsan_engine.py [--games N] [--rounds N]

Target: at least 5,000 games/s on one core for the default parameters. Each figure is
``run_games`` as a worker runs it (one seeded generator per game, the fast loop, the metrics)
for N games, measured in R rounds; the median round is reported, in games per second of the
process's CPU time (the process is pinned to one CPU where the system allows it; the machine
may be shared, so CPU time is the figure judged, the wall clock is printed beside it).

Decks (no Django needed): the demo starter "Robo Shopping Street" read from
games/mattsan/catalog.json, and the golden deck of games/mattsan/golden.py. The state API
(the step-by-step path the tests compare with) is timed too, for scale.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _engines import pin_to_one_cpu, round_rates, state_api_rate  # noqa: E402

from games.mattsan.engine import ENGINE  # noqa: E402
from games.mattsan.golden import GOLDEN_DECK  # noqa: E402
from simulator.engine.cards import SimCard, SimDeck  # noqa: E402
from simulator.engine.engine import run_games  # noqa: E402
from simulator.engine.metrics import summarise  # noqa: E402

TARGET = 5_000
CATALOG = ROOT / "games" / "mattsan" / "catalog.json"
STARTER = "MTD-ST1"


def starter() -> SimDeck:
    """The demo starter's 30 cards, each card's attributes over its first printing's."""
    data = json.loads(CATALOG.read_text(encoding="utf-8"))
    rows = {row["code"]: row for row in data["cards"]}
    (product,) = (p for p in data["products"] if p["code"] == STARTER)
    cards: list[SimCard] = []
    zone: list[tuple[int, int]] = []
    for item in product["items"]:
        row = rows[item["card"]]
        printing = row["printings"][0]["attributes"] if row.get("printings") else {}
        attributes = {**printing, **row["attributes"]}
        zone.append((len(cards), item["quantity"]))
        cards.append(SimCard(len(cards), row["code"], row["name_en"], row["type"], attributes))
    return SimDeck("mattsan", tuple(cards), {"main": tuple(zone)}, "main")


def rates(deck: SimDeck, params: dict[str, Any], games: int, rounds: int) -> tuple[float, float]:
    """The median round's games per second of CPU time, and of wall-clock time."""
    cpu, wall = round_rates(ENGINE, deck, params, games, rounds)
    return statistics.median(cpu), statistics.median(wall)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    pinned = pin_to_one_cpu()
    print(f"{os.cpu_count()} cores ({pinned}), Python {platform.python_version()}")
    print(
        f"Mattsan goldfish engine v{ENGINE.version}: {args.games} games per round, median of "
        f"{args.rounds}; target ≥ {TARGET:,} games/s on one core (default parameters)"
    )
    defaults = ENGINE.params.clean({})
    cases = (
        ("demo starter, defaults", starter(), defaults),
        ("golden deck, defaults", GOLDEN_DECK, defaults),
        (
            "golden deck, dummy hits 5",
            GOLDEN_DECK,
            ENGINE.params.clean({"dummy_damage": 5, "dummy_hp_4": 6}),
        ),
    )
    worst = float("inf")
    for index, (label, deck, params) in enumerate(cases):
        rate, wall = rates(deck, params, args.games, args.rounds)
        if index < 2:  # the target is for the default parameters
            worst = min(worst, rate)
        slow = state_api_rate(ENGINE, deck, params, max(1, args.games // 10))
        summary = summarise(run_games(ENGINE, deck, params, run_seed=9, start=0, count=2000))
        won = summary["rates"]["win_line_up_defeated"]["value"]
        print(
            f"  {label:<26} {rate:>7,.0f} games/s ({1e6 / rate:5.1f} µs a game; "
            f"wall clock {wall:>7,.0f}/s)  state API {slow:>6,.0f}/s  "
            f"line-up defeated in {won:.1%} of games"
        )
    print(
        f"slowest (defaults): {worst:,.0f} games/s — {'ok' if worst >= TARGET else 'UNDER TARGET'}"
    )


if __name__ == "__main__":
    main()
