"""Benchmark: the 央華封神 goldfish engine (games/ouka_fushin/engine.py), games per second.

    .venv/bin/python bench/ouka_fushin_engine.py [--games N] [--repeats N]

Target: at least 5,000 games/s on one core for the default parameters. Each figure is
``run_games`` as a worker runs it (one seeded generator per game, the engine's ``play``, the
metrics) for N games, in games per second of the process's CPU time (pinned to one CPU where the
system allows it). The machine may be shared and noisy, so each deck is run R times and the
median and best are printed. No Django: the demo prebuilt deck is read straight from the
catalog file (games/ouka_fushin/catalog.json), and the golden deck comes from games.ouka_fushin.
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

from games.ouka_fushin.engine import ENGINE  # noqa: E402
from games.ouka_fushin.golden import GOLDEN_DECK  # noqa: E402
from simulator.engine.cards import SimCard, SimDeck  # noqa: E402
from simulator.engine.engine import run_games  # noqa: E402
from simulator.engine.metrics import summarise  # noqa: E402

TARGET = 5_000
CATALOG = ROOT / "games" / "ouka_fushin" / "catalog.json"


def demo_prebuilt(code: str = "OFD-PB1") -> SimDeck:
    """A prebuilt product of the catalog file as a SimDeck, zone by zone (the card's own
    attributes; the demo printings carry none)."""
    data = json.loads(CATALOG.read_text(encoding="utf-8"))
    rows = {row["code"]: row for row in data["cards"]}
    (product,) = (p for p in data["products"] if p["code"] == code)
    cards: list[SimCard] = []
    index: dict[str, int] = {}
    zones: dict[str, list[tuple[int, int]]] = {}
    for item in product["items"]:
        row = rows[item["card"]]
        if row["code"] not in index:
            index[row["code"]] = len(cards)
            cards.append(
                SimCard(len(cards), row["code"], row["name_en"], row["type"], row["attributes"])
            )
        zones.setdefault(item["zone"], []).append((index[row["code"]], item["quantity"]))
    return SimDeck(
        "ouka-fushin", tuple(cards), {z: tuple(v) for z, v in zones.items()}, draw_zone="main"
    )


def rates(deck: SimDeck, params: dict[str, Any], games: int, repeats: int) -> list[float]:
    """Games per second of CPU time, one figure per repeat."""
    return round_rates(ENGINE, deck, params, games, repeats)[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    pinned = pin_to_one_cpu()
    print(f"{os.cpu_count()} cores ({pinned}), Python {platform.python_version()}")
    print(
        f"央華封神 goldfish engine v{ENGINE.version}: {args.games} games per run, "
        f"{args.repeats} runs; target ≥ {TARGET:,} games/s on one core (default parameters)"
    )
    cases = (
        ("demo prebuilt OFD-PB1", demo_prebuilt(), {}),
        ("golden deck", GOLDEN_DECK, {}),
        ("demo, hold to 150 points", demo_prebuilt(), {"climax_min_points": 150}),
    )
    default_medians = []
    for label, deck, params in cases:
        found = rates(deck, params, args.games, args.repeats)
        median = statistics.median(found)
        if not params:
            default_medians.append(median)
        slow = state_api_rate(ENGINE, deck, params, max(1, args.games // 10))
        summary = summarise(run_games(ENGINE, deck, params, run_seed=9, start=0, count=2000))
        total = summary["means"]["points_total"]["value"]
        deck_out = summary["rates"]["deck_out"]["value"]
        print(
            f"  {label:<26} median {median:>7,.0f} games/s (best {max(found):>7,.0f};"
            f" {1e6 / median:6.1f} µs a game)  state API {slow:>6,.0f}/s  "
            f"total {total:6.1f} points, deck-out {deck_out:.1%}"
        )
    worst = min(default_medians)
    verdict = "ok" if worst >= TARGET else "UNDER TARGET"
    print(f"slowest default-parameter median: {worst:,.0f} games/s — {verdict}")


if __name__ == "__main__":
    main()
