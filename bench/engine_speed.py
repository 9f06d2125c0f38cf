"""Benchmark: the Unmatched and Recharge engines' games per second on one core, this checkout
against another one side by side (issue 10, "cheaper games").

    git worktree add /tmp/before <commit>
    .venv/bin/python bench/engine_speed.py --before /tmp/before [--rounds 5]
    .venv/bin/python bench/engine_speed.py                 # this checkout alone

Each figure is ``run_games`` exactly as a worker calls it for one chunk: ``prepare`` (so every
cache starts cold, as in a chunk) and N games, timed in CPU seconds of a process pinned to one
core. Each round measures every case in a fresh subprocess per checkout, the order of the two
checkouts alternating from round to round, so drift on a shared machine falls on both sides;
the figure is the median of the rounds and the ratio after / before (> 1: this checkout is
faster). The decks are real: the Medusa hero deck and Recharge's 50-card product
"rc-demo-heroes-united", read from each checkout's own catalog files; plus Recharge's golden
deck of 25 cards.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent

#: (label, game, deck, parameters, games per chunk)
CASES: tuple[tuple[str, str, str, dict[str, Any], int], ...] = (
    ("Unmatched, Medusa, defaults", "unmatched", "medusa", {}, 50_000),
    ("Unmatched, Medusa, opponent 40 HP", "unmatched", "medusa", {"opponent_hp": 40}, 50_000),
    ("Recharge, 50-card product, defaults", "recharge", "rc-demo-heroes-united", {}, 20_000),
    (
        "Recharge, 50-card product, chaining on",
        "recharge",
        "rc-demo-heroes-united",
        {"chain_power_cards": True},
        20_000,
    ),
    ("Recharge, 50-card product, 5,000-game chunk", "recharge", "rc-demo-heroes-united", {}, 5_000),
    ("Recharge, golden deck, defaults", "recharge", "golden", {}, 20_000),
)


def product_deck(game: str, code: str, root: Path | None = None) -> Any:
    """A product of the game's catalog file (under ``root``, else the working directory) as a
    SimDeck, each line on its printed box (no database; Django set up)."""
    from catalog.importers.service import bundles_from_path
    from decks.legality.facts import CardFacts, DeckFacts, EntryFacts, PrintingFacts
    from simulator.decks import sim_deck_from_facts

    (bundle,) = bundles_from_path((root or Path.cwd()) / "games" / game / "catalog.json")
    rows = {row.code: row for row in bundle.cards}
    (product,) = (p for p in bundle.products if p.code == code)
    entries = []
    for item in product.items:
        row = rows[item.card_code]
        printings = tuple(
            PrintingFacts(p.set_code, p.collector_number, p.variant, p.attributes)
            for p in row.printings
        )
        pinned = next(
            p
            for p in printings
            if item.set_code in (None, p.set_code) and item.collector_number in (None, p.number)
        )
        card = CardFacts(
            row.code,
            game,
            row.card_type,
            row.name_en,
            row.name_ja,
            row.attributes,
            row.copy_limit,
            printings,
        )
        entries.append(EntryFacts(card, item.zone, item.quantity, pinned))
    return sim_deck_from_facts(DeckFacts(game=game, entries=tuple(entries)))


def measure() -> None:
    """In the checkout that is the working directory: every case once, as JSON on stdout."""
    sys.path.insert(0, os.getcwd())
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    import django

    django.setup()
    from games import registry
    from simulator.engine.engine import run_games

    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[-1]})
    rates: dict[str, float] = {}
    for label, game, deck_name, params, games in CASES:
        engine = registry.engines()[game]
        if deck_name == "golden":
            from games.recharge.golden import GOLDEN_DECK as deck
        else:
            deck = product_deck(game, deck_name)
        started = time.process_time()
        run_games(engine, deck, params, run_seed=1, start=0, count=games)
        rates[label] = games / (time.process_time() - started)
    print(
        json.dumps(
            {
                "version": {g: registry.engines()[g].version for g in ("unmatched", "recharge")},
                "rates": rates,
            }
        )
    )


def run_in(tree: Path) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, str(HERE / "bench" / "engine_speed.py"), "--measure"],
        cwd=tree,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="the other checkout (e.g. a worktree)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        measure()
        return
    trees = {"after": HERE}
    if args.before:
        trees = {"before": args.before.resolve(), "after": HERE}
    print(f"{os.cpu_count()} cores (one used), Python {platform.python_version()}")
    rates: dict[str, dict[str, list[float]]] = {name: {} for name in trees}
    versions: dict[str, Any] = {}
    for round_ in range(args.rounds):
        order = list(trees) if round_ % 2 == 0 else list(reversed(trees))
        for name in order:
            got = run_in(trees[name])
            versions[name] = got["version"]
            for label, rate in got["rates"].items():
                rates[name].setdefault(label, []).append(rate)
    for name in trees:
        print(f"{name}: {trees[name]} (engine versions {versions[name]})")
    print(f"median of {args.rounds} rounds, games per CPU second, one core:")
    for label, *_rest in CASES:
        after = statistics.median(rates["after"][label])
        line = f"  {label:<44} after {after:>9,.0f}/s"
        if "before" in trees:
            before = statistics.median(rates["before"][label])
            line += f"   before {before:>9,.0f}/s   after/before {after / before:5.2f}×"
        print(line)


if __name__ == "__main__":
    main()
