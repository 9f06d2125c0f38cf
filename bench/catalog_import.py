"""Benchmark: the whole Unmatched import (../shared/data/unmatched) into an empty database.

    .venv/bin/python bench/catalog_import.py [PATH] [--runs N]

Target: at most 10 s for parse + validate + write, into an empty PostgreSQL database. Each run
starts from empty catalog tables; the median is the figure. A second import of the same folder
(nothing to change) is timed too. Runs in a throwaway database (see bench/_bench.py).
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from _bench import SHARED_UNMATCHED, django_on, machine, throwaway_database, verdict

TARGET_SECONDS = 10.0


def empty_catalog() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE catalog_game RESTART IDENTITY CASCADE")


def timed_import(path: Path) -> tuple[float, float, str]:
    """Seconds to parse, seconds for the whole import, and the importer's own summary."""
    from catalog.importers.service import bundles_from_path, import_bundles

    start = time.perf_counter()
    bundles = bundles_from_path(path)
    parsed = time.perf_counter()
    report = import_bundles(bundles)
    done = time.perf_counter()
    return parsed - start, done - start, report.summary()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", type=Path, default=SHARED_UNMATCHED)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    if not args.path.is_dir():
        parser.error(f"no Unmatched data folder at {args.path}")

    with throwaway_database("import") as url:
        django_on(url)
        from catalog.models import Card, CardSet, Printing, Product, ProductItem

        print(f"Unmatched import from {args.path}")
        print(f"machine: {machine()}")
        totals: list[float] = []
        summary = ""
        for run in range(1, args.runs + 1):
            empty_catalog()
            parse_s, total_s, summary = timed_import(args.path)
            totals.append(total_s)
            print(f"  run {run}: {total_s:6.2f} s into empty tables (parsing {parse_s:.2f} s)")
        counts = {
            "sets": CardSet.objects.count(),
            "cards": Card.objects.count(),
            "printings": Printing.objects.count(),
            "products": Product.objects.count(),
            "product items": ProductItem.objects.count(),
        }
        _parse_s, again_s, again_summary = timed_import(args.path)

        median = statistics.median(totals)
        print("  rows: " + ", ".join(f"{n} {kind}" for kind, n in counts.items()))
        print(f"  first import: {summary}")
        print(f"  re-import, nothing to change: {again_s:.2f} s ({again_summary})")
        print(
            f"median of {len(totals)}: {median:.2f} s (target <= {TARGET_SECONDS:.0f} s: "
            f"{verdict(median <= TARGET_SECONDS)})"
        )
        return 0 if median <= TARGET_SECONDS else 1


if __name__ == "__main__":
    raise SystemExit(main())
