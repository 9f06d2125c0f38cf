"""Benchmark: the collection's read paths at a community's scale (issue 19).

    .venv/bin/python bench/collection_scale.py [--runs N] [--database NAME]

211,000 printings (11 Mattsan sets, 100 Unmatched and 100 Monster Hunter sets of 1,000 cards)
and a 100,000-item Monster Hunter collection (50,000 printings in two conditions). Targets:

(a) the collection page (totals, set completion, first page of items) and set completion alone:
    at most 150 ms and 10 statements;
(b) an 18-entry deck's owned/missing report through the API: at most 5 statements.

Without ``--database`` the data set is built in a throwaway database (bench/_bench.py) and
dropped at the end. With ``--database NAME`` it is built once in that database (created if
missing) and reused by later runs, so the same rows can be measured before and after a change.
The volume rows are written with ``INSERT … SELECT generate_series``: a plain bulk insert, so
the build takes seconds; the import paths have their own benchmarks. Medians of ``--runs``,
server time through Django's test client with DEBUG off. Exits non-zero when a figure misses.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from contextlib import nullcontext
from typing import Any

from _bench import (
    ADMIN_URL,
    _admin_connection,
    _with_database,
    django_on,
    machine,
    median_ms,
    throwaway_database,
    verdict,
)

PAGE_TARGET_MS = 150.0
PAGE_STATEMENTS = 10
REPORT_STATEMENTS = 5
SET_SIZE = 1_000
GAMES = {"mattsan": 11, "unmatched": 100, "monster-hunter": 100}
COLLECTED_SETS = 50  # of Monster Hunter's: 50,000 printings, each in two conditions


def _ensure_database(name: str) -> str:
    from psycopg import sql

    with _admin_connection() as conn:  # type: ignore[attr-defined]
        found = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if not found:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return _with_database(ADMIN_URL, name)


def _build() -> None:
    """The catalog, the collection and a deck, unless an earlier run built them."""
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction

    from catalog.importers.write import game_sync
    from catalog.models import CardSet, Printing

    users = get_user_model().objects
    if users.filter(username="big").exists():
        return
    start = time.perf_counter()
    with transaction.atomic(), connection.cursor() as cursor:
        for slug, sets in GAMES.items():
            game = game_sync(slug)
            made = CardSet.objects.bulk_create(
                CardSet(
                    game=game,
                    code=f"S{s:03d}",
                    name_en=f"Scale {s}",
                    name_ja=f"規模{s}",
                    official_size=SET_SIZE,
                    is_demo=True,
                )
                for s in range(sets)
            )
            first_set = min(s.pk for s in made)
            cursor.execute(
                """
                INSERT INTO catalog_card (game_id, code, name_en, name_ja, source, is_demo,
                    card_type, attributes, search_key)
                SELECT %s, 'SC-' || lpad(n::text, 6, '0'), 'Scale Card ' || n, 'カード' || n,
                    '', true, 'unit', '{}'::jsonb, 'scale card ' || n
                FROM generate_series(0, %s) AS n
                """,
                [game.pk, sets * SET_SIZE - 1],
            )
            cursor.execute(
                """
                INSERT INTO catalog_printing (card_id, card_set_id, collector_number, variant,
                    attributes)
                SELECT c.id, %s + (substr(c.code, 4)::int / %s),
                    lpad((substr(c.code, 4)::int %% %s + 1)::text, 4, '0'), '', '{}'::jsonb
                FROM catalog_card c WHERE c.game_id = %s
                """,
                [first_set, SET_SIZE, SET_SIZE, game.pk],
            )
        big = users.create_user("big", password="x")
        mh = game_sync("monster-hunter")
        cursor.execute(
            """
            INSERT INTO collection_collectionitem (owner_id, printing_id, quantity,
                trade_quantity, condition, finish, language, binder, tags, note, currency,
                created_at, updated_at)
            SELECT %s, p.id, 1 + p.id %% 3, 0, cond, 'normal', 'ja', '', '[]'::jsonb, '', '',
                now(), now() - (p.id || ' seconds')::interval
            FROM catalog_printing p JOIN catalog_cardset s ON s.id = p.card_set_id
            CROSS JOIN (VALUES ('near_mint'), ('played')) AS c(cond)
            WHERE s.game_id = %s AND s.code < %s
            """,
            [big.pk, mh.pk, f"S{COLLECTED_SETS:03d}"],
        )
        _deck(big, mh)
        cursor.execute("ANALYZE")  # as autovacuum would after the bulk writes
    print(f"built the data set in {time.perf_counter() - start:.1f} s")
    print(f"  {Printing.objects.count():,} printings")


def _deck(owner: Any, game: Any) -> None:
    """An 18-entry deck: owned, missing and pinned entries."""
    from catalog.models import Printing
    from decks.models import Deck, DeckEntry

    deck = Deck.objects.create(owner=owner, game=game, name="Scale deck", public_id="scale-deck")
    # cards 0-8 are collected (set S000), cards from 60,000 on are not (set S060)
    printings = list(
        Printing.objects.filter(card__game=game, card__code__in=_codes()).order_by("card__code")
    )
    DeckEntry.objects.bulk_create(
        DeckEntry(
            deck=deck,
            card_id=p.card_id,
            zone="main",
            quantity=1 + i % 3,
            printing_id=p.pk if i % 3 == 0 else None,
        )
        for i, p in enumerate(printings)
    )


def _codes() -> list[str]:
    return [f"SC-{n:06d}" for n in (*range(9), *range(60_000, 60_009))]


def _statements(client: Any, url: str) -> tuple[int, list[str]]:
    """The test client's request_started signal clears connection.queries: count with an
    execute wrapper instead."""
    from django.db import connection

    found: list[str] = []

    def record(run: Any, sql: str, *args: Any) -> Any:
        begin = time.perf_counter()
        try:
            return run(sql, *args)
        finally:
            found.append(f"{(time.perf_counter() - begin) * 1000:7.1f} ms  {sql}")

    with connection.execute_wrapper(record):
        status = client.get(url).status_code
    if os.environ.get("BENCH_SHOW_SQL"):
        print("\n".join(q[:200] for q in found))
    return status, found


def _timed(run: Any, runs: int) -> float:
    run()  # warm-up
    samples = []
    for _ in range(runs):
        begin = time.perf_counter()
        run()
        samples.append(time.perf_counter() - begin)
    return median_ms(samples)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--database", help="build once in this database and reuse it")
    args = parser.parse_args()
    place = (
        nullcontext(_ensure_database(args.database))
        if args.database
        else throwaway_database("collection_scale")
    )
    with place as url:
        django_on(url)
        from django.contrib.auth import get_user_model
        from django.db import connection
        from django.db.models.functions import Now
        from django.test import Client
        from django.test.utils import CaptureQueriesContext

        from catalog.models import Game
        from collection.models import CollectionItem
        from collection.selectors import set_completion

        _build()
        print(f"bench/collection_scale.py on {machine()}; load {os.getloadavg()[0]:.2f}")
        with connection.cursor() as cursor:
            cursor.execute("SHOW jit")
            print(f"  jit for the app's connections: {cursor.fetchone()[0]}")
        big = get_user_model().objects.get(username="big")
        game = Game.objects.get(slug="monster-hunter")
        client = Client(HTTP_HOST="localhost")
        client.force_login(big)
        failures = 0

        with CaptureQueriesContext(connection) as queries:
            completion = set_completion(owner=big, game=game)
        ms = _timed(lambda: set_completion(owner=big, game=game), args.runs)
        ok = ms <= PAGE_TARGET_MS and len(queries) <= PAGE_STATEMENTS
        failures += not ok
        print(
            f"(a) set completion, {len(completion)} sets: {len(queries)} statements, median "
            f"{ms:.0f} ms (target <= {PAGE_STATEMENTS}, <= {PAGE_TARGET_MS:.0f} ms) {verdict(ok)}"
        )
        filtered = (" filtered (set, condition)", "?set=S003&condition=played")
        for label, query in (("", ""), filtered):
            url = f"/collection/monster-hunter/{query}"
            status, found = _statements(client, url)
            ms = _timed(lambda url=url: client.get(url), args.runs)
            ok = status == 200 and len(found) <= PAGE_STATEMENTS and ms <= PAGE_TARGET_MS
            failures += not ok
            print(
                f"(a) collection page{label} (HTTP {status}), 100,000 items: {len(found)} "
                f"statements, median {ms:.0f} ms (target <= {PAGE_STATEMENTS}, "
                f"<= {PAGE_TARGET_MS:.0f} ms) {verdict(ok)}"
            )
        # the first visit after a change of the collection: its aggregates counted again
        touched = CollectionItem.objects.filter(owner=big).order_by("pk")[:1]
        url = "/collection/monster-hunter/"

        def changed_then_visited() -> None:
            CollectionItem.objects.filter(pk__in=touched).update(updated_at=Now())
            client.get(url)

        ms = _timed(changed_then_visited, args.runs)
        print(f"    the same, first visit after a change of the collection: median {ms:.0f} ms")
        url = "/api/v1/decks/scale-deck/collection/"
        status, found = _statements(client, url)
        ms = _timed(lambda: client.get(url), args.runs)
        ok = status == 200 and len(found) <= REPORT_STATEMENTS
        failures += not ok
        print(
            f"(b) deck report through the API (HTTP {status}), 18 entries: {len(found)} "
            f"statements, median {ms:.0f} ms (target <= {REPORT_STATEMENTS}) {verdict(ok)}"
        )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
