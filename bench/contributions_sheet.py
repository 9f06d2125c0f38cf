"""Benchmark: checking a 300-row Monster Hunter card sheet (contributions.sheet.sheet_check).

    .venv/bin/python bench/contributions_sheet.py [--rows N] [--runs N]

Target: at most 2 s for one check (parse, the importer's validator, the near-duplicate names
against the sheet and against a set of 200 existing cards). Timed twice: a clean sheet, and
the same sheet with a bad value in every row (every problem placed, with its did-you-mean).
The median of the runs is the figure. Runs in a throwaway database (see bench/_bench.py).
"""

from __future__ import annotations

import argparse
import csv
import io
import statistics
import time

from _bench import django_on, machine, throwaway_database, verdict

TARGET_SECONDS = 2.0
GAME = "monster-hunter"
SET = "MH1"
EXISTING = 200
WORDS = ("Iron", "Bone", "Wyvern", "Flame", "Frost", "Thunder", "Dragon", "Storm", "Shadow")
THINGS = ("Blade", "Hammer", "Lance", "Bow", "Mail", "Helm", "Potion", "Bomb", "Fang", "Claw")


def seed_catalog() -> None:
    """Set MH1 with EXISTING cards, as the importer writes them."""
    from catalog.importers.bundle import CardRow, CatalogBundle, PrintingRow, SetRow
    from catalog.importers.service import import_bundles

    bundle = CatalogBundle(game=GAME, origin="bench", sets=[SetRow("bench", SET, "Bench set")])
    for i in range(EXISTING):
        bundle.cards.append(
            CardRow(
                where="bench",
                code=f"old-{i}",
                card_type="armor",
                name_en=f"Old Guard {i}",
                name_ja=f"古い防具{i}",
                attributes={"defence": 1, "cost": 1},
                printings=[PrintingRow("bench", SET, f"{i:03d}")],
            )
        )
    import_bundles([bundle])


def sheet(rows: int, *, bad: bool) -> str:
    """``rows`` rows over every card type; ``bad`` puts a misspelt value in each."""
    header = [
        "code",
        "type",
        "name_en",
        "name_ja",
        "set",
        "number",
        "attack",
        "movement",
        "reach",
        "hp",
        "rank",
        "material_points",
        "weapon_icon",
        "item_icons",
        "cost",
        "defence",
    ]
    cells = {
        "hunter": {"attack": "2", "movement": "2", "reach": "1", "item_icons": "meat"},
        "monster": {
            "attack": "3",
            "movement": "1",
            "reach": "1",
            "hp": "8",
            "rank": "2",
            "material_points": "2",
        },
        "weapon": {
            "attack": "3",
            "movement": "0",
            "reach": "1",
            "weapon_icon": "bow" if not bad else "bwo",
            "cost": "2",
        },
        "armor": {"defence": "1", "cost": "1" if not bad else "100"},
        "item": {"item_icons": "medicine|ball" if not bad else "medicine|bal"},
    }
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    types = list(cells)
    for i in range(rows):
        card_type = types[i % len(types)]
        name = f"{WORDS[i % len(WORDS)]} {THINGS[(i // len(WORDS)) % len(THINGS)]} {i}"
        row = {
            "code": f"new-{i}",
            "type": card_type,
            "name_en": name,
            "name_ja": f"新しいカード{i}",
            "set": SET,
            "number": f"{EXISTING + i:03d}",
            **cells[card_type],
        }
        writer.writerow([row.get(column, "") for column in header])
    return out.getvalue()


def timed(text: str, runs: int) -> tuple[float, int]:
    from contributions.sheet import sheet_check

    samples = []
    problems = 0
    for _ in range(runs):
        start = time.perf_counter()
        result = sheet_check(text, game_slug=GAME)
        samples.append(time.perf_counter() - start)
        problems = len(result.problems)
    return statistics.median(samples), problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=300)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    with throwaway_database("sheet") as url:
        django_on(url)
        seed_catalog()
        print(f"sheet_check of a {args.rows}-row {GAME} sheet, set of {EXISTING} cards")
        print(f"machine: {machine()}")
        clean_s, clean_problems = timed(sheet(args.rows, bad=False), args.runs)
        bad_s, bad_problems = timed(sheet(args.rows, bad=True), args.runs)
        print(f"  clean sheet: {clean_s:.3f} s ({clean_problems} problems)")
        print(f"  a bad value in every row: {bad_s:.3f} s ({bad_problems} problems)")
        worst = max(clean_s, bad_s)
        print(
            f"median of {args.runs}, the slower: {worst:.3f} s "
            f"(target <= {TARGET_SECONDS:.0f} s: {verdict(worst <= TARGET_SECONDS)})"
        )
        return 0 if worst <= TARGET_SECONDS and clean_problems == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
