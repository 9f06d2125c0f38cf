"""Benchmark: the collection's figures (issue 8).

    .venv/bin/python bench/collection.py [--runs N]

Targets:

(a) a 10,000-row CSV import, preview + commit, in at most 10 s (Deckbox dialect: cards named
    by name, the hardest lookup), and a 100,000-item collection imported (DeckLab CSV);
(b) a deck's owned/missing report in at most 3 SQL queries and 20 ms for a 60-entry deck
    while 10 other built decks reserve copies;
(c) the collection page with set completion in at most 10 SQL queries and 150 ms with
    100,000 items (server time through Django's test client, DEBUG off).

A synthetic Mattsan catalog of 10 sets x 200 cards is made in a throwaway PostgreSQL database
(see bench/_bench.py). Medians of ``--runs``. Exits non-zero when a figure misses its target.
Run it as a script (its name is the app's; ``django_on`` puts the project root first).
"""

from __future__ import annotations

import argparse
import csv
import io
import itertools
import os
import sys
import time
from typing import Any

from _bench import django_on, machine, median_ms, throwaway_database, verdict

IMPORT_TARGET_S = 10.0
REPORT_QUERIES = 3
REPORT_TARGET_MS = 20.0
PAGE_QUERIES = 10
PAGE_TARGET_MS = 150.0
SETS, CARDS_PER_SET = 10, 200


def _catalog() -> tuple[Any, list[Any]]:
    from catalog.importers.write import game_sync
    from catalog.models import Card, CardSet, Printing

    game = game_sync("mattsan")
    sets = CardSet.objects.bulk_create(
        CardSet(
            game=game,
            code=f"BS{s}",
            name_en=f"Bench {s}",
            name_ja=f"ベンチ{s}",
            official_size=CARDS_PER_SET,
            is_demo=True,
        )
        for s in range(SETS)
    )
    cards = Card.objects.bulk_create(
        Card(
            game=game,
            code=f"BC-{i:05d}",
            name_en=f"Bench Card {i}",
            name_ja=f"カード{i}",
            card_type="unit",
            attributes={"hp": 5, "soul": 2},
            is_demo=True,
            search_key=f"bench card {i} | カード{i}",
        )
        for i in range(SETS * CARDS_PER_SET)
    )
    printings = Printing.objects.bulk_create(
        Printing(
            card=card,
            card_set=sets[i // CARDS_PER_SET],
            collector_number=f"{i % CARDS_PER_SET + 1:03d}",
        )
        for i, card in enumerate(cards)
    )
    return game, printings


def _deckbox_csv(printings: list[Any], rows: int) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(
        [
            "Count",
            "Tradelist Count",
            "Name",
            "Edition",
            "Edition Code",
            "Card Number",
            "Condition",
            "Language",
            "Foil",
        ]
    )
    conditions = ["Mint", "Near Mint", "Good (Lightly Played)", "Played", "Poor"]
    for n, (condition, printing) in enumerate(itertools.product(conditions, printings)):
        if n == rows:
            break
        writer.writerow(
            [
                2,
                0,
                f"Bench Card {printing.card_id_index}",
                "",
                printing.set_code,
                printing.collector_number,
                condition,
                "Japanese",
                "",
            ]
        )
    return out.getvalue()


def _decklab_csv(printings: list[Any], rows: int) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(
        [
            "game",
            "card",
            "name_en",
            "name_ja",
            "set",
            "number",
            "variant",
            "quantity",
            "trade_quantity",
            "condition",
            "finish",
            "language",
            "binder",
            "tags",
            "acquired_on",
            "price",
            "currency",
            "note",
        ]
    )
    combos = itertools.product(
        ["Box A", "Box B"],
        ["ja", "en"],
        ["normal", "foil"],
        ["mint", "near_mint", "excellent", "good", "lightly_played", "played", "poor"],
        printings,
    )
    for n, (binder, language, finish, condition, p) in enumerate(combos):
        if n == rows:
            break
        writer.writerow(
            [
                "mattsan",
                p.card_code,
                "",
                "",
                p.set_code,
                p.collector_number,
                "",
                4,
                0,
                condition,
                finish,
                language,
                binder,
                "",
                "",
                "",
                "",
                "",
            ]
        )
    return out.getvalue()


def _timed_import(owner: Any, game: Any, text: str) -> tuple[float, float, int]:
    from collection.imports import collection_import_commit_batch, collection_import_preview

    start = time.perf_counter()
    preview = collection_import_preview(owner=owner, content=text, game=game)
    middle = time.perf_counter()
    if preview.batch is None:
        raise SystemExit(f"import refused: {preview.result.problems[:3]}")
    collection_import_commit_batch(batch=preview.batch)
    end = time.perf_counter()
    return middle - start, end - middle, preview.result.rows


def _decks(owner: Any, game: Any, printings: list[Any]) -> Any:
    from collection.services import deck_mark_built
    from decks.models import Deck, DeckEntry

    def deck(name: str, offset: int) -> Deck:
        made = Deck.objects.create(owner=owner, game=game, name=name)
        DeckEntry.objects.bulk_create(
            DeckEntry(
                deck=made,
                card_id=p.card_id,
                zone="main",
                quantity=1 + i % 3,
                printing_id=p.pk if i % 3 == 0 else None,
            )
            for i, p in enumerate(printings[offset : offset + 60])
        )
        return made

    for n in range(10):
        deck_mark_built(deck=deck(f"Built {n}", n * 20), user=owner)
    return deck("Target", 30)


def _page_queries(client: Any, url: str) -> tuple[int, list[str]]:
    """The test client's request_started signal clears connection.queries: count with an
    execute wrapper instead."""
    from django.db import connection

    queries: list[str] = []

    def record(run: Any, sql: str, *args: Any) -> Any:
        start = time.perf_counter()
        try:
            return run(sql, *args)
        finally:
            queries.append(f"{(time.perf_counter() - start) * 1000:6.1f} ms  {sql}")

    with connection.execute_wrapper(record):
        status = client.get(url).status_code
    if os.environ.get("BENCH_SHOW_SQL"):
        print("\n".join(q[:160] for q in queries))
    return status, queries


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--items", type=int, default=100_000)
    args = parser.parse_args()
    with throwaway_database("collection") as url:
        django_on(url)
        from django.contrib.auth import get_user_model
        from django.db import connection
        from django.test import Client
        from django.test.utils import CaptureQueriesContext

        from collection.report import deck_collection_report

        print(f"bench/collection.py on {machine()}; load {os.getloadavg()[0]:.2f}")
        game, printings = _catalog()
        for p in printings:
            p.card_id_index = int(p.card.code.split("-")[1])
            p.card_code = p.card.code
            p.set_code = p.card_set.code
        users = get_user_model().objects
        small = users.create_user("small", password="x")
        big = users.create_user("big", password="x")
        failures = 0

        preview_s, commit_s, rows = _timed_import(small, game, _deckbox_csv(printings, 10_000))
        ok = preview_s + commit_s <= IMPORT_TARGET_S
        failures += not ok
        print(
            f"(a) {rows:,}-row Deckbox CSV: preview {preview_s:.2f} s + commit "
            f"{commit_s:.2f} s = {preview_s + commit_s:.2f} s "
            f"(target <= {IMPORT_TARGET_S:.0f} s) {verdict(ok)}"
        )
        preview_s, commit_s, rows = _timed_import(big, game, _decklab_csv(printings, args.items))
        print(
            f"    {rows:,}-row DeckLab CSV (a 100,000-item collection): preview "
            f"{preview_s:.2f} s + commit {commit_s:.2f} s"
        )

        target = _decks(big, game, printings)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")  # as autovacuum would have after the bulk writes
        with CaptureQueriesContext(connection) as queries:
            report = deck_collection_report(deck=target, viewer=big)
        samples = []
        for _ in range(args.runs):
            start = time.perf_counter()
            deck_collection_report(deck=target, viewer=big)
            samples.append(time.perf_counter() - start)
        ok = len(queries) <= REPORT_QUERIES and median_ms(samples) <= REPORT_TARGET_MS
        failures += not ok
        print(
            f"(b) deck report, {len(report.entries)} entries, 10 built decks: "
            f"{len(queries)} queries, median {median_ms(samples):.1f} ms "
            f"(target <= {REPORT_QUERIES} queries, <= {REPORT_TARGET_MS:.0f} ms) {verdict(ok)}"
            f"; missing {report.missing_total}, held by {len(report.held_by)} decks"
        )

        client = Client(HTTP_HOST="localhost")
        client.force_login(big)
        for label, query in (("", ""), (" filtered (binder, set)", "?binder=Box+A&set=BS3")):
            url = f"/collection/mattsan/{query}"
            client.get(url)  # warm-up
            status, queries = _page_queries(client, url)
            samples = []
            for _ in range(max(5, args.runs // 5)):
                start = time.perf_counter()
                client.get(url)
                samples.append(time.perf_counter() - start)
            ok = (
                status == 200
                and len(queries) <= PAGE_QUERIES
                and (median_ms(samples) <= PAGE_TARGET_MS)
            )
            failures += not ok
            print(
                f"(c) collection page{label} (HTTP {status}), {args.items:,} items: "
                f"{len(queries)} queries, "
                f"median {median_ms(samples):.0f} ms (target <= {PAGE_QUERIES} queries, "
                f"<= {PAGE_TARGET_MS:.0f} ms) {verdict(ok)}"
            )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
