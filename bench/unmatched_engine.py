"""Benchmark: the Unmatched goldfish engine (games/unmatched/engine.py), games per second.

    .venv/bin/python bench/unmatched_engine.py [--games N] [--repeats N]

Target: at least 10,000 games/s on one core. Each figure is ``run_games`` as a worker runs it
(the batch path: deals and measures per thousand games, the fast loop) for N games, the best of R
repeats, in games per second of the process's CPU time (on one CPU: the process is pinned
where the system allows it). The machine may be shared, so CPU time, not the wall clock, is
the figure judged; the wall-clock rate is printed beside it.

Decks: the real Medusa hero deck, read from the project's catalog file through the catalog
importer's parser and simulator.decks.sim_deck_from_facts (no database), and a synthetic
30-card deck of plain attacks, versatiles, defense and schemes. The state API (the step-by-step
path the tests compare with) is timed too, for scale.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")

import django  # noqa: E402

django.setup()

from _engines import pin_to_one_cpu, round_rates, state_api_rate  # noqa: E402
from engine_speed import product_deck  # noqa: E402

from games.unmatched.engine import ENGINE  # noqa: E402
from simulator.engine.cards import SimCard, SimDeck  # noqa: E402
from simulator.engine.engine import run_games  # noqa: E402
from simulator.engine.metrics import summarise  # noqa: E402

TARGET = 10_000


def medusa() -> SimDeck:
    """The Medusa hero-deck product of the catalog file, each line on its printed box."""
    deck: SimDeck = product_deck("unmatched", "medusa", ROOT)
    return deck


def synthetic() -> SimDeck:
    """30 cards: ten different ones, three copies each, for the hero, the sidekick and anyone."""
    hero = SimCard(0, "character-bench", "Bench Hero", "character", {"hp": 15, "sidekick": "Aide"})
    kinds = (
        ("attack", 4, "Bench Hero"),
        ("attack", 3, "Bench Hero"),
        ("attack", 2, "Aide"),
        ("versatile", 3, "any"),
        ("versatile", 2, "any"),
        ("versatile", 1, "Aide"),
        ("defense", 3, "Bench Hero"),
        ("defense", 2, "any"),
        ("scheme", None, "Bench Hero"),
        ("scheme", None, "any"),
    )
    cards = [hero]
    for i, (card_type, value, fighter) in enumerate(kinds, start=1):
        attributes: dict[str, Any] = {"fighter": fighter, "boost": i % 4}
        if value is not None:
            attributes["value"] = value
        cards.append(SimCard(i, f"bench-{i}", f"Bench card {i}", card_type, attributes))
    zones = {"hero": ((0, 1),), "deck": tuple((i, 3) for i in range(1, len(kinds) + 1))}
    return SimDeck("unmatched", tuple(cards), zones, "deck")


def fast_rate(
    deck: SimDeck, params: dict[str, Any], games: int, repeats: int
) -> tuple[float, float]:
    """Games per second of CPU time and of wall-clock time, each the best of the repeats."""
    cpu, wall = round_rates(ENGINE, deck, params, games, repeats)
    return max(cpu), max(wall)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    pinned = pin_to_one_cpu()
    print(f"{os.cpu_count()} cores ({pinned}), Python {platform.python_version()}")
    print(
        f"Unmatched goldfish engine v{ENGINE.version}: {args.games} games per run, "
        f"best of {args.repeats}; target ≥ {TARGET:,} games/s on one core"
    )
    cases = (
        ("Medusa hero deck", medusa(), {}),
        ("Medusa, opponent 40 HP", medusa(), {"opponent_hp": 40}),
        ("synthetic 30-card deck", synthetic(), {}),
    )
    worst = float("inf")
    for label, deck, params in cases:
        rate, wall = fast_rate(deck, params, args.games, args.repeats)
        worst = min(worst, rate)
        slow = state_api_rate(ENGINE, deck, params, max(1, args.games // 10))
        summary = summarise(run_games(ENGINE, deck, params, run_seed=9, start=0, count=2000))
        falls = summary["distributions"].get("opponent_falls_turn", {}).get("mean", {})
        print(
            f"  {label:<24} {rate:>7,.0f} games/s ({1e6 / rate:5.1f} µs a game; "
            f"wall clock {wall:>7,.0f}/s)  state API {slow:>6,.0f}/s  "
            f"opponent falls on turn {falls.get('value', float('nan')):.2f} on average"
        )
    print(f"slowest: {worst:,.0f} games/s — {'ok' if worst >= TARGET else 'UNDER TARGET'}")


if __name__ == "__main__":
    main()
