"""Benchmark: every engine's games per second on one core, as a worker runs a chunk: this
checkout's compiled kernels, its Python batch path, and another checkout side by side
(issues 10 and 22).

    git worktree add /tmp/before <commit>
    .venv/bin/python bench/engine_speed.py --before /tmp/before [--rounds 5]
    .venv/bin/python bench/engine_speed.py                 # this checkout alone
    .venv/bin/python bench/engine_speed.py --compile       # each kernel's compile and load

Each figure is ``run_games`` exactly as a worker calls it for one chunk: ``prepare`` (so every
cache starts cold, as in a chunk) and N games, timed in CPU seconds of a process pinned to one
core. Each round measures every case in a fresh subprocess per variant -- this checkout with
its kernels ("compiled"), this checkout with ``DECKLAB_COMPILED=0`` (its Python batch path,
what a worker without numba plays) and, with ``--before``, the other checkout -- the order of
the variants turning from round to round, so drift on a shared machine falls on all of them;
the figure is the median of the rounds, with the ratios. Before timing, each subprocess calls
every engine's ``warm()`` as a worker does when it starts (kernels loaded from numba's disk
cache, or compiled on the very first run): its time is printed apart ("warm-up"), since no
chunk waits for it. The decks are real: the Medusa hero deck, Recharge's 50-card product
"rc-demo-heroes-united" and Recharge's golden deck of 25 cards, Monster Hunter's demo products,
央華封神's prebuilt OFD-PB1 and Mattsan's starter MTD-ST1, read from each checkout's own
catalog files.

``--compile`` times each engine's ``warm()`` in a subprocess given an empty numba cache
(the compile a machine pays once per kernel change), then in a second one that finds that
cache filled (what every worker start pays), in CPU and wall seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
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
    ("Monster Hunter, Ember Hunt, defaults", "monster-hunter", "mh-demo-ember-hunt", {}, 20_000),
    (
        "Monster Hunter, Harbor Barrage, defaults",
        "monster-hunter",
        "mh-demo-harbor-barrage",
        {},
        20_000,
    ),
    ("央華封神, prebuilt OFD-PB1, defaults", "ouka-fushin", "OFD-PB1", {}, 10_000),
    ("Mattsan, starter MTD-ST1, defaults", "mattsan", "MTD-ST1", {}, 20_000),
)
#: games per chunk are multiplied by this for this checkout's compiled kernels (a chunk of a
#: compiled engine is that much bigger, so it runs long enough to time)
COMPILED_SCALE = 10


def product_deck(game: str, code: str, root: Path | None = None) -> Any:
    """A product of the game's catalog file (under ``root``, else the working directory) as a
    SimDeck, each line on its printed box (no database; Django set up)."""
    from catalog.importers.service import bundles_from_path
    from decks.legality.facts import CardFacts, DeckFacts, EntryFacts, PrintingFacts
    from simulator.decks import sim_deck_from_facts

    folder = game.replace("-", "_")
    (bundle,) = bundles_from_path((root or Path.cwd()) / "games" / folder / "catalog.json")
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
    engines = registry.engines()
    warm: dict[str, float] = {}
    for slug, engine in engines.items():
        started = time.perf_counter()
        getattr(engine, "warm", lambda: None)()
        warm[slug] = time.perf_counter() - started
    compiled = os.environ.get("DECKLAB_COMPILED", "1") != "0" and _has_kernels()
    rates: dict[str, float] = {}
    for label, game, deck_name, params, games in CASES:
        if game not in engines:
            continue
        engine = engines[game]
        if deck_name == "golden":
            from games.recharge.golden import GOLDEN_DECK as deck
        else:
            deck = product_deck(game, deck_name)
        count = games * COMPILED_SCALE if compiled else games
        started = time.process_time()
        run_games(engine, deck, params, run_seed=1, start=0, count=count)
        rates[label] = count / (time.process_time() - started)
    print(
        json.dumps(
            {
                "version": {slug: engine.version for slug, engine in engines.items()},
                "rates": rates,
                "warm": warm,
            }
        )
    )


def _has_kernels() -> bool:
    try:
        from simulator.engine import compiled
    except ImportError:  # a checkout from before the kernels
        return False
    return compiled.available()


def warm_one(slug: str) -> None:
    """In a subprocess: warm one engine, printing its CPU and wall seconds as JSON."""
    sys.path.insert(0, os.getcwd())
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    import django

    django.setup()
    from games import registry

    engine = registry.engines()[slug]
    cpu, wall = time.process_time(), time.perf_counter()
    engine.warm()
    print(json.dumps({"cpu": time.process_time() - cpu, "wall": time.perf_counter() - wall}))


def compile_times() -> None:
    """Each engine's kernel compiled into an empty cache, then loaded from it."""
    sys.path.insert(0, str(HERE))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    import django

    django.setup()
    from games import registry

    print("engine          compile (empty cache) CPU / wall    load (filled cache) CPU / wall")
    for slug in registry.engines():
        with tempfile.TemporaryDirectory(prefix="numba-bench-") as cache:
            times = []
            for _ in ("compile", "load"):
                out = subprocess.run(
                    [sys.executable, str(HERE / "bench" / "engine_speed.py"), "--warm", slug],
                    cwd=HERE,
                    check=True,
                    capture_output=True,
                    text=True,
                    env={**os.environ, "NUMBA_CACHE_DIR": cache},
                ).stdout
                times.append(json.loads(out.strip().splitlines()[-1]))
        (made, loaded) = times
        print(
            f"  {slug:<15} {made['cpu']:8.2f} s / {made['wall']:6.2f} s"
            f"              {loaded['cpu']:8.2f} s / {loaded['wall']:6.2f} s"
        )


def run_in(tree: Path, env: dict[str, str]) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, str(HERE / "bench" / "engine_speed.py"), "--measure"],
        cwd=tree,
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, **env},
    ).stdout
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="the other checkout (e.g. a worktree)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--compile", action="store_true", help="time compiling and loading")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--warm", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        measure()
        return
    if args.warm:
        warm_one(args.warm)
        return
    if args.compile:
        compile_times()
        return
    variants: dict[str, tuple[Path, dict[str, str]]] = {
        "compiled": (HERE, {}),
        "python": (HERE, {"DECKLAB_COMPILED": "0"}),
    }
    if args.before:
        variants["before"] = (args.before.resolve(), {})
    print(f"{os.cpu_count()} cores (one used), Python {platform.python_version()}")
    rates: dict[str, dict[str, list[float]]] = {name: {} for name in variants}
    warm: dict[str, dict[str, list[float]]] = {name: {} for name in variants}
    versions: dict[str, Any] = {}
    for round_ in range(args.rounds):
        names = list(variants)
        order = names[round_ % len(names) :] + names[: round_ % len(names)]
        for name in order:
            got = run_in(*variants[name])
            versions[name] = got["version"]
            for label, rate in got["rates"].items():
                rates[name].setdefault(label, []).append(rate)
            for slug, seconds in got.get("warm", {}).items():
                warm[name].setdefault(slug, []).append(seconds)
    for name, (tree, env) in variants.items():
        print(f"{name}: {tree} {env or ''} (engine versions {versions[name]})")
    print(f"median of {args.rounds} rounds, games per CPU second, one core:")
    for label, *_rest in CASES:
        figures = {
            name: statistics.median(rates[name][label]) for name in variants if label in rates[name]
        }
        line = f"  {label:<44}" + "".join(
            f" {name} {rate:>11,.0f}/s" for name, rate in figures.items()
        )
        if "compiled" in figures and "python" in figures:
            line += f"   compiled/python {figures['compiled'] / figures['python']:6.1f}×"
        if "compiled" in figures and "before" in figures:
            line += f"   compiled/before {figures['compiled'] / figures['before']:6.1f}×"
        print(line)
    print("warm-up at process start (median seconds; the first round may include compiling):")
    for name in variants:
        shown = ", ".join(
            f"{slug} {statistics.median(times):.2f} s (first {times[0]:.2f})"
            for slug, times in warm[name].items()
        )
        print(f"  {name}: {shown}")


if __name__ == "__main__":
    main()
