"""Benchmark: the legality check of one deck (``decks.legality.check.check_deck``).

    .venv/bin/python bench/legality.py [--runs N] [--warmup N]

Target: at most 2 ms per check of a 60-entry deck. The decks are built as DeckFacts, so no
database is used: 60-entry decks of 央華封神, Recharge (basic and tournament) and the other
games, then each game's demo deck read from the project's own catalog files (games/*/catalog.json,
through the catalog importer's parser; for Unmatched, which has no demo deck, the real Medusa
hero deck). Each figure is the median and the 95th percentile of N checks after a warm-up;
messages are not rendered (the check builds lazy templates; rendering happens when shown).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")

import django  # noqa: E402

django.setup()

from catalog.importers.bundle import CardRow, CatalogBundle, PrintingRow  # noqa: E402
from catalog.importers.service import bundles_from_path  # noqa: E402
from decks.legality.check import check_deck  # noqa: E402
from decks.legality.facts import CardFacts, DeckFacts, EntryFacts, PrintingFacts  # noqa: E402
from decks.legality.problems import Problem  # noqa: E402
from games.recharge.catalog import POWER_PLUS  # noqa: E402

TARGET_MS = 2.0
ENTRIES = 60
GAMES = ROOT / "games"
#: the product measured per game: a demo prebuilt, or a real deck where there is no demo
UNMATCHED_DECK = "medusa"


# --- 60-entry decks ----------------------------------------------------------------------------


def _card(code: str, game: str, card_type: str, **attributes: object) -> CardFacts:
    return CardFacts(
        code=code,
        game=game,
        card_type=card_type,
        name_en=code.title(),
        name_ja=code,
        attributes=attributes,
        printings=(PrintingFacts("bench", code),),
    )


def ouka_fushin_60() -> DeckFacts:
    """55 different deck cards (characters of the protagonist among them) + protagonist,
    two missions, a substitute and one spare: 60 entries, every rule of the game at work."""
    game = "ouka-fushin"
    main = [
        EntryFacts(_card(f"c{i:02d}", game, "character", character="taikoubou"), "main", 1)
        for i in range(10)
    ]
    main += [
        EntryFacts(_card(f"s{i:02d}", game, "story" if i % 3 else "climax"), "main", 1)
        for i in range(45)
    ]
    beside = [
        EntryFacts(
            _card("taikoubou", game, "protagonist", character="taikoubou"), "protagonist", 1
        ),
        EntryFacts(_card("m1", game, "mission"), "missions", 1),
        EntryFacts(_card("m2", game, "mission"), "missions", 1),
        EntryFacts(_card("nataku", game, "protagonist", character="nataku"), "substitute", 1),
        EntryFacts(_card("n1", game, "character", character="nataku"), "spares", 3),
    ]
    return DeckFacts(game=game, entries=(*main, *beside))


def recharge_60(variant: str) -> DeckFacts:
    """60 different cards, one in four pinned to its Power Plus printing, plus 25 chips."""
    game = "recharge"
    entries = []
    for i in range(ENTRIES):
        code = f"rc{i:02d}"
        printings = (PrintingFacts("bench", code), PrintingFacts("bench", code, POWER_PLUS))
        card = CardFacts(code, game, ("hero", "teamwork", "power")[i % 3], printings=printings)
        entries.append(EntryFacts(card, "main", 1, printings[1 if i % 4 == 0 else 0]))
    return DeckFacts(game=game, entries=tuple(entries), variant=variant, extras={"chips": [2] * 25})


def monster_hunter_60() -> DeckFacts:
    game = "monster-hunter"
    types = ("monster", "weapon", "armor", "item")
    main = [EntryFacts(_card(f"mh{i:02d}", game, types[i % 4]), "main", 1) for i in range(59)]
    hunter = EntryFacts(_card("hunter", game, "hunter"), "hunter", 1)
    return DeckFacts(game=game, entries=(*main, hunter))


def unmatched_60() -> DeckFacts:
    """A hero and 59 action cards printed for other fighters: the fighter rule's worst case."""
    game = "unmatched"
    hero = CardFacts(
        "character-medusa",
        game,
        "character",
        name_en="Medusa",
        attributes={"sidekick": "Harpies"},
        printings=(PrintingFacts("bench", "medusa", "", {"fighter": "Medusa"}),),
    )
    actions = [
        EntryFacts(
            CardFacts(
                f"um{i:02d}",
                game,
                ("attack", "defense", "versatile", "scheme")[i % 4],
                name_en=f"Um {i}",
                printings=(PrintingFacts("bench", "other", "", {"fighter": f"Hero {i % 7}"}),),
            ),
            "deck",
            1,
        )
        for i in range(59)
    ]
    return DeckFacts(game=game, entries=(EntryFacts(hero, "hero", 1), *actions))


def mattsan_60() -> DeckFacts:
    game = "mattsan"
    types = ("unit", "trump", "trap", "terrain")
    return DeckFacts(
        game=game,
        entries=tuple(
            EntryFacts(_card(f"mt{i:02d}", game, types[i % 4]), "main", 1) for i in range(ENTRIES)
        ),
    )


# --- the catalog's demo decks, without a database ----------------------------------------------


def _printing(row: PrintingRow) -> PrintingFacts:
    return PrintingFacts(row.set_code, row.collector_number, row.variant, row.attributes)


def _card_facts(game: str, row: CardRow) -> CardFacts:
    return CardFacts(
        code=row.code,
        game=game,
        card_type=row.card_type,
        name_en=row.name_en,
        name_ja=row.name_ja,
        attributes=row.attributes,
        copy_limit=row.copy_limit,
        printings=tuple(_printing(p) for p in row.printings),
    )


def catalog_decks(
    bundle: CatalogBundle, wanted: Callable[[str, bool], bool]
) -> dict[str, DeckFacts]:
    """Products of a parsed catalog file as decks (the importer's rows, read as load.py does)."""
    cards = {row.code: row for row in bundle.cards}
    facts = {code: _card_facts(bundle.game, row) for code, row in cards.items()}
    decks = {}
    for product in bundle.products:
        if not product.items or not wanted(product.code, product.is_demo):
            continue
        entries = []
        for item in product.items:
            row = cards[item.card_code]
            printing = next(
                (
                    p
                    for p in row.printings
                    if (item.set_code in (None, p.set_code))
                    and (item.collector_number in (None, p.collector_number))
                    and (item.variant in (None, p.variant))
                ),
                row.printings[0],
            )
            entries.append(
                EntryFacts(facts[item.card_code], item.zone, item.quantity, _printing(printing))
            )
        decks[product.code] = DeckFacts(game=bundle.game, entries=tuple(entries))
    return decks


def demo_decks() -> dict[str, DeckFacts]:
    found: dict[str, DeckFacts] = {}
    for path in sorted(GAMES.glob("*/catalog.json")):
        for bundle in bundles_from_path(path):
            if bundle.problems:
                raise SystemExit(f"{path}: {bundle.problems[0]}")
            for code, deck in catalog_decks(
                bundle, lambda code, demo: demo or code == UNMATCHED_DECK
            ).items():
                found[f"{bundle.game} {code}"] = deck
    return found


# --- timing ------------------------------------------------------------------------------------


def timed(deck: DeckFacts, runs: int, warmup: int) -> tuple[float, float, list[Problem]]:
    """Median and 95th percentile in ms of ``runs`` checks, after ``warmup`` untimed ones."""
    problems: list[Problem] = []
    for _ in range(warmup):
        problems = check_deck(deck)
    samples = []
    clock = time.perf_counter
    for _ in range(runs):
        start = clock()
        check_deck(deck)
        samples.append(clock() - start)
    samples.sort()
    p95 = samples[min(len(samples) - 1, int(len(samples) * 0.95))]
    return statistics.median(samples) * 1000, p95 * 1000, problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5000)
    parser.add_argument("--warmup", type=int, default=500)
    args = parser.parse_args()

    print(f"Legality check, {args.runs} runs after {args.warmup} warm-up runs")
    print(f"machine: {os.cpu_count()} cores, Python {platform.python_version()}")
    worst = 0.0
    rows: list[tuple[str, DeckFacts]] = [
        ("ouka-fushin, 60 entries", ouka_fushin_60()),
        ("recharge basic, 60 entries", recharge_60("basic")),
        ("recharge tournament, 60 entries", recharge_60("tournament")),
        ("monster-hunter, 60 entries", monster_hunter_60()),
        ("unmatched, 60 entries (59 refused)", unmatched_60()),
        ("mattsan, 60 entries", mattsan_60()),
    ]
    rows += [(f"demo {name}", deck) for name, deck in demo_decks().items()]
    print(f"  {'deck':<44} {'entries':>7} {'median':>9} {'p95':>9}  problems")
    for label, deck in rows:
        median, p95, problems = timed(deck, args.runs, args.warmup)
        if len(deck.entries) >= ENTRIES:
            worst = max(worst, median)
        found = ", ".join(sorted({p.code for p in problems})) or "none"
        print(f"  {label:<44} {len(deck.entries):>7} {median:>7.3f}ms {p95:>7.3f}ms  {found}")
    ok = worst <= TARGET_MS
    print(
        f"slowest 60-entry median: {worst:.3f} ms (target <= {TARGET_MS:.0f} ms: "
        f"{'ok' if ok else 'OVER TARGET'})"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
