"""Benchmark (issue 19): every documented search form and the game page at 211,000 printings.

    .venv/bin/python bench/scale_search.py build [--small NAME]
    .venv/bin/python bench/scale_search.py measure [--database NAME] [--small NAME] [--requests R]

``build`` makes the small catalog's database (the five games' catalogs, imported with
``import_catalog``); the big one is ``bench/scale.py build``'s (211,000 printings), named by
``--database``.
``measure`` times each form of ``bench/scale.py``'s ``SEARCH_FORMS`` through the API
(``/api/v1/games/<game>/cards/?q=``: a page of rows and its count), sequentially (p50, p95)
and with 8 clients at once (p95), on both databases, and the game page of each game. Server
time is the Django test client's request time, DEBUG off, after warm-up requests.

Targets: each form's sequential p95 <= 50 ms at 211,000 printings; at concurrency 8 no worse
than 3x the small catalog's p95; the game page <= 100 ms.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

from _bench import ADMIN_URL, _admin_connection, _with_database, django_on, machine, verdict

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TARGET_P95_MS = 50.0
TARGET_GAME_PAGE_MS = 100.0
CONCURRENCY = 8


def _create_database(name: str) -> str:
    from psycopg import sql

    with _admin_connection() as conn:  # type: ignore[attr-defined]
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return _with_database(ADMIN_URL, name)


def _import_catalogs() -> None:
    from django.core.management import call_command

    from games import registry

    for slug in ("unmatched", "monster-hunter", "ouka-fushin", "recharge", "mattsan"):
        call_command("import_catalog", str(registry.get(slug).catalog_file), verbosity=0)


def build_small(small: str) -> None:
    """The small catalog: the five games' own catalogs, through ``import_catalog``."""
    django_on(_create_database(small))
    _import_catalogs()


def _p95(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[max(0, round(0.95 * len(ordered)) - 1)] * 1000


def _client() -> Any:
    """A signed-in client: ``is:owned`` and its kin need a player."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    client = Client(HTTP_HOST="localhost", secure=True)
    player, _created = get_user_model().objects.get_or_create(username="scale-search")
    client.force_login(player)
    return client


def _sequential(url: str, requests: int) -> list[float]:
    client = _client()
    for _ in range(3):
        status = client.get(url).status_code
    if status != 200:  # the committed code may not know a form: its 400 is not timed
        print(f"HTTP {status}: {url}")
        return []
    samples = []
    for _ in range(requests):
        start = time.perf_counter()
        client.get(url)
        samples.append(time.perf_counter() - start)
    return samples


def _concurrent(url: str, requests: int) -> list[float]:
    from django.db import connections

    samples: list[float] = []
    lock = threading.Lock()
    barrier = threading.Barrier(CONCURRENCY)

    def worker() -> None:
        client = _client()
        client.get(url)
        barrier.wait()
        mine = []
        for _ in range(requests):
            start = time.perf_counter()
            client.get(url)
            mine.append(time.perf_counter() - start)
        with lock:
            samples.extend(mine)
        connections.close_all()

    threads = [threading.Thread(target=worker) for _ in range(CONCURRENCY)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return samples


def _measure_on(requests: int, concurrent: bool, only: str | None) -> dict[str, Any]:
    from scale import SEARCH_FORMS as DOCUMENTED_FORMS

    figures: dict[str, Any] = {}
    for slug, query in DOCUMENTED_FORMS:
        label = f"{slug}: {query}"
        if only and only not in label:
            continue
        url = f"/api/v1/games/{slug}/cards/?q={quote(query)}"
        seq = _sequential(url, requests)
        if not seq:
            continue
        row = {"p50": statistics.median(seq) * 1000, "p95": _p95(seq)}
        if concurrent:
            row["c8"] = _p95(_concurrent(url, max(3, requests // 4)))
        figures[label] = row
    for slug in ("unmatched", "monster-hunter", "ouka-fushin", "recharge", "mattsan"):
        label = f"game page {slug}"
        if only and only not in label:
            continue
        seq = _sequential(f"/games/{slug}/", requests)
        figures[label] = {"p50": statistics.median(seq) * 1000, "p95": _p95(seq)}
    return figures


def measure(
    database: str, compare: Path | None, requests: int, concurrent: bool, only: str | None
) -> int:
    """Time every form on one database; its figures go to ``/tmp/scale_search_<db>.json``.
    With ``compare`` (the small catalog's file), judge concurrency against 3x its p95."""
    django_on(_with_database(ADMIN_URL, database))
    print(machine())
    figures = _measure_on(requests, concurrent, only)
    Path(f"/tmp/scale_search_{database}.json").write_text(json.dumps(figures, indent=1))
    small = json.loads(compare.read_text()) if compare else {}
    failures = 0
    print(f"{'form':58} {'small p95':>9} {'p50':>7} {'p95':>7} {'c8 p95':>7}")
    for label, row in figures.items():
        small_row = small.get(label, {})
        target = TARGET_GAME_PAGE_MS if label.startswith("game page") else TARGET_P95_MS
        ok = row["p95"] <= target
        c8 = row.get("c8")
        base = small_row.get("c8", small_row.get("p95"))
        c8_ok = c8 is None or base is None or c8 <= 3 * max(base, 1.0)
        failures += not (ok and c8_ok)
        print(
            f"{label[:58]:58} {small_row.get('p95', float('nan')):9.1f} {row['p50']:7.1f} "
            f"{row['p95']:7.1f} {(c8 if c8 is not None else float('nan')):7.1f} "
            f"{verdict(ok)}/{verdict(c8_ok)}"
        )
    p50s = [row["p50"] for label, row in figures.items() if not label.startswith("game page")]
    over = [
        label
        for label, row in figures.items()
        if not label.startswith("game page") and row["p95"] > TARGET_P95_MS
    ]
    if p50s:
        print(f"median p50 {statistics.median(p50s):.1f} ms; {len(over)} forms over 50 ms p95")
    return 1 if failures else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("action", choices=("build", "measure"))
    parser.add_argument("--database", default="decklab_scale12")
    parser.add_argument("--small", default="decklab_small12")
    parser.add_argument("--compare", type=Path, help="the small catalog's figures (JSON)")
    parser.add_argument("--requests", type=int, default=20)
    parser.add_argument("--no-concurrency", action="store_true")
    parser.add_argument("--only", help="only the forms whose label holds this")
    args = parser.parse_args()
    if args.action == "build":
        build_small(args.small)
        return 0
    return measure(args.database, args.compare, args.requests, not args.no_concurrency, args.only)


if __name__ == "__main__":
    raise SystemExit(main())
