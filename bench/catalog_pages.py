"""Benchmark: SQL queries per catalog page at two data sizes, and a big set page's server time.

    .venv/bin/python bench/catalog_pages.py [--requests N] [--extra-sets K]

Targets: every catalog page (home, each game page, a set page, a card page, a product page)
costs at most 10 queries whatever the data size; a set page of 1,000 cards is served in at
most 150 ms (median of N requests through Django's test client, DEBUG off).

Size "catalog" is the project's own catalog files (manage.py load_catalogs). Size "large" adds
K synthetic Unmatched sets of 1,000 demo cards each (one printing per card, in its set) and a
product per set listing 200 of its cards: the same pages must not cost more queries. Runs in a
throwaway PostgreSQL database (see bench/_bench.py).
"""

from __future__ import annotations

import argparse
import io
import time
from typing import Any

from _bench import django_on, machine, median_ms, throwaway_database, verdict

MAX_QUERIES = 10
TARGET_MS = 150.0
BIG_SET_CARDS = 1000
PRODUCT_CARDS = 200
GAME = "unmatched"


def catalog_pages() -> list[tuple[str, str]]:
    """(label, URL) of every page measured, picked from what is in the database."""
    from catalog.models import Card, CardSet, Game, Product

    pages = [("home", "/")]
    pages += [(f"game {g.slug}", g.get_absolute_url()) for g in Game.objects.all()]
    pages.append((f"game {GAME}, name search 'a'", f"/games/{GAME}/?q=a"))
    real_set = CardSet.objects.filter(game__slug=GAME, is_demo=False).order_by("code").first()
    card = Card.objects.filter(game__slug=GAME, card_type="character").order_by("code").first()
    product = Product.objects.filter(game__slug=GAME, is_demo=False).order_by("code").first()
    for label, row in (("set", real_set), ("card", card), ("product", product)):
        if row is not None:
            pages.append((f"{label} {row.code}", row.get_absolute_url()))
    return pages


def synthetic_pages() -> list[tuple[str, str]]:
    from catalog.models import CardSet, Product

    big = CardSet.objects.filter(game__slug=GAME, code__startswith="bench-").order_by("code")
    products = Product.objects.filter(game__slug=GAME, code__startswith="bench-").order_by("code")
    pages: list[tuple[str, str]] = []
    if big:
        url = big[0].get_absolute_url()
        pages.append((f"set {big[0].code} ({BIG_SET_CARDS} cards)", url))
        pages.append(
            (f"set {big[0].code}, last page, sorted by name", f"{url}?sort=name&page=last")
        )
    if products:
        pages.append((f"product {products[0].code}", products[0].get_absolute_url()))
    return pages


def add_synthetic_sets(count: int) -> int:
    """Add ``count`` demo sets of BIG_SET_CARDS cards, each with a product; return cards added.

    Attributes are copied round-robin from the real Unmatched cards, so every row is one the
    game's schemas accept.
    """
    from catalog.models import Card, CardSet, Game, Printing, Product, ProductItem
    from catalog.search import search_key
    from games.unmatched.catalog import HERO_DECK

    game = Game.objects.get(slug=GAME)
    models = list(
        Printing.objects.filter(card__game=game)
        .exclude(card__card_type="character")
        .select_related("card")
        .order_by("id")[:200]
    )
    if not models:
        raise SystemExit("The Unmatched catalog is empty: did load_catalogs load it?")
    added = 0
    for index in range(1, count + 1):
        card_set = CardSet.objects.create(
            game=game,
            code=f"bench-{index}",
            name_en=f"Benchmark set {index}",
            name_ja=f"ベンチマークセット{index}",
            kind=CardSet.Kind.BOX,
            official_size=BIG_SET_CARDS,
            is_demo=True,
        )
        cards = []
        for n in range(BIG_SET_CARDS):
            model = models[n % len(models)].card
            name_en, name_ja = f"Bench card {index}-{n:04d}", f"ベンチカード{index}-{n:04d}"
            cards.append(
                Card(
                    game=game,
                    code=f"bench-{index}-{n:04d}",
                    name_en=name_en,
                    name_ja=name_ja,
                    card_type=model.card_type,
                    attributes=model.attributes,
                    is_demo=True,
                    search_key=search_key(name_en, name_ja),
                )
            )
        Card.objects.bulk_create(cards, batch_size=1000)
        printings = Printing.objects.bulk_create(
            [
                Printing(
                    card=card,
                    card_set=card_set,
                    collector_number=f"{n + 1:04d}",
                    attributes=models[n % len(models)].attributes,
                )
                for n, card in enumerate(cards)
            ],
            batch_size=1000,
        )
        product = Product.objects.create(
            game=game,
            card_set=card_set,
            code=f"bench-{index}-deck",
            name_en=f"Benchmark deck {index}",
            kind=HERO_DECK,
            card_count=PRODUCT_CARDS * 2,
            is_demo=True,
        )
        ProductItem.objects.bulk_create(
            [
                ProductItem(product=product, printing=p, zone="deck", quantity=2)
                for p in printings[:PRODUCT_CARDS]
            ]
        )
        added += len(cards)
    return added


def count_queries(client: Any, url: str) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    if response.status_code != 200:
        raise SystemExit(f"{url} answered {response.status_code}")
    return len(captured.captured_queries)


def server_times(client: Any, url: str, requests: int) -> list[float]:
    for _ in range(3):  # warm-up: templates compiled, connection open
        client.get(url)
    samples = []
    for _ in range(requests):
        start = time.perf_counter()
        response = client.get(url)
        samples.append(time.perf_counter() - start)
        if response.status_code != 200:
            raise SystemExit(f"{url} answered {response.status_code}")
    return samples


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--extra-sets", type=int, default=5)
    args = parser.parse_args()

    with throwaway_database("pages") as url:
        django_on(url)
        from django.conf import settings
        from django.core.management import call_command
        from django.test import Client

        from catalog.models import Card

        assert not settings.DEBUG
        call_command("load_catalogs", stdout=io.StringIO())
        client = Client(HTTP_HOST="localhost")
        print("Catalog pages: SQL queries per page, and a big set page's server time")
        print(f"machine: {machine()}; DEBUG={settings.DEBUG}")

        pages = catalog_pages()
        small_cards = Card.objects.count()
        small = {page_url: count_queries(client, page_url) for _label, page_url in pages}
        added = add_synthetic_sets(args.extra_sets)
        large_pages = pages + synthetic_pages()
        large = {page_url: count_queries(client, page_url) for _label, page_url in large_pages}

        print(
            f"\n{'page':<58} {'catalog':>8} {'large':>8}   "
            f"(catalog: {small_cards} cards; large: +{added} cards)"
        )
        worst = 0
        for label, page_url in large_pages:
            before = small.get(page_url)
            after = large[page_url]
            worst = max(worst, after, before or 0)
            shown = "-" if before is None else str(before)
            print(f"{label[:58]:<58} {shown:>8} {after:>8}")
        queries_ok = worst <= MAX_QUERIES
        print(f"most queries on a page: {worst} (target <= {MAX_QUERIES}: {verdict(queries_ok)})")

        big_url = synthetic_pages()[0][1]
        samples = server_times(client, big_url, args.requests)
        median = median_ms(samples)
        ordered = sorted(samples)
        p90 = ordered[int(0.9 * (len(ordered) - 1))] * 1000
        time_ok = median <= TARGET_MS
        print(
            f"\nset page with {BIG_SET_CARDS} cards ({big_url}), {args.requests} requests: "
            f"median {median:.1f} ms, p90 {p90:.1f} ms, min {ordered[0] * 1000:.1f} ms "
            f"(target <= {TARGET_MS:.0f} ms: {verdict(time_ok)})"
        )
        return 0 if queries_ok and time_ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
