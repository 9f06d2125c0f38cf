"""Benchmark: the Recharge formation solver (simulator/games/recharge_solver.py).

    .venv/bin/python bench/recharge_solver.py [--hands N] [--runs N] [--seed N]

Target: at least 2,000 six-card hands per second on one core (basic rules). The hands are drawn
at random from the demo set, read straight from games/recharge/catalog.json (no database, no
Django): every printing is a card of the pool, so a Power Plus copy may share a hand with its
normal version, as the tournament rules allow (recharge.md:25). Each figure is the best of
N runs over the same hands (the median run beside it), each hand solved from scratch; then
7-card hands and the optional chaining rule, and, for scale, the goldfish engine's games per
second on the golden deck.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.recharge.engine import ENGINE  # noqa: E402
from games.recharge.golden import GOLDEN_DECK  # noqa: E402
from games.recharge.solver import (  # noqa: E402
    RCard,
    best_formation,
    card_from_attributes,
)
from simulator.engine.engine import run_games  # noqa: E402

TARGET_HANDS_PER_SECOND = 2000
CATALOG = ROOT / "games" / "recharge" / "catalog.json"


def demo_pool() -> list[RCard]:
    data = json.loads(CATALOG.read_text(encoding="utf-8"))
    pool = []
    for card in data["cards"]:
        for printing in card.get("printings") or [{}]:
            pool.append(
                card_from_attributes(
                    card["type"],
                    card.get("attributes") or {},
                    variant=printing.get("variant", ""),
                    name=card.get("name_en", card["code"]),
                )
            )
    return pool


def hands_per_second(
    hands: Sequence[Sequence[RCard]], *, chain: bool, runs: int
) -> tuple[float, float]:
    """(best, median) hands per second over ``runs`` runs: the best run is the machine's
    speed, the median shows how much a busy machine took away."""
    rates = []
    for _ in range(runs):
        started = time.perf_counter()
        for hand in hands:
            best_formation(hand, chain_power_cards=chain)
        rates.append(len(hands) / (time.perf_counter() - started))
    return max(rates), statistics.median(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000, help="hands per figure")
    parser.add_argument("--runs", type=int, default=3, help="runs per figure (best and median)")
    parser.add_argument("--seed", type=int, default=20250601)
    args = parser.parse_args()

    pool = demo_pool()
    rng = random.Random(args.seed)
    print(
        f"{os.cpu_count()} cores (one used), Python {platform.python_version()}; "
        f"{len(pool)} demo printings from {CATALOG.relative_to(ROOT)}"
    )
    print(f"{args.hands} random hands per figure, best of {args.runs} runs")
    for size in (6, 7):
        hands = [rng.sample(pool, size) for _ in range(args.hands)]
        for chain in (False, True):
            rate, median = hands_per_second(hands, chain=chain, runs=args.runs)
            rules = "chaining on " if chain else "basic rules "
            line = (
                f"{size}-card hands, {rules}: {rate:9,.0f} hands/s ({1e6 / rate:6.1f} µs/hand;"
                f" median run {median:,.0f}/s)"
            )
            if size == 6 and not chain:
                ok = rate >= TARGET_HANDS_PER_SECOND
                line += f"  target {TARGET_HANDS_PER_SECOND:,}/s: {'ok' if ok else 'UNDER TARGET'}"
            print(line)

    games = 2000
    for params in ({}, {"chain_power_cards": True}):
        started = time.perf_counter()
        run_games(ENGINE, GOLDEN_DECK, params, run_seed=args.seed, start=0, count=games)
        rate = games / (time.perf_counter() - started)
        shown = ", ".join(f"{k}={v}" for k, v in params.items()) or "defaults"
        print(f"engine, golden deck ({shown}): {rate:,.0f} games/s of 10 turns")


if __name__ == "__main__":
    main()
