"""Benchmark: server time of an exact odds answer (the odds panel's htmx answer and the API).

    .venv/bin/python bench/odds.py [--requests N]

Target: at most 20 ms per answer (median of N requests through Django's test client, DEBUG
off), for one public deck of each game built from its catalog product, asking about the first
card type up to turn 30 (31 rows, the panel's largest question). The test hand page (opening
hand and ten turns of faces, with the odds panel) is timed too, for information. Runs in a
throwaway PostgreSQL database (see bench/_bench.py).
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import time
from typing import Any

from _bench import ROOT, django_on, machine, median_ms, throwaway_database, verdict

TARGET_MS = 20.0
#: a deck-making product of each game's committed catalog
PRODUCTS = {
    "monster-hunter": "mh-demo-ember-hunt",
    "ouka-fushin": "OFD-PB1",
    "recharge": "rc-demo-heroes-united",
    "unmatched": "alice",
    "mattsan": "MTD-ST1",
}
GROUPS = {
    "monster-hunter": "type:monster",
    "ouka-fushin": "attr:school=goton",
    "recharge": "type:hero",
    "unmatched": "attr:value>=3",
    "mattsan": "type:unit",
}

# Used only while the project does not mount the test hand URLs itself yet.
urlpatterns: list[Any] = []


def _mount_if_needed() -> None:
    from django.conf import settings
    from django.urls import NoReverseMatch, clear_url_caches, include, path, reverse

    try:
        reverse("testhands:odds", kwargs={"public_id": "x"})
        reverse("testhands-api:deck-odds", kwargs={"public_id": "x"})
    except NoReverseMatch:
        from decklab import urls as project_urls

        urlpatterns[:] = [
            path("decks/<str:public_id>/", include("simulator.testhands.urls")),
            path("api/v1/", include("simulator.testhands.api")),
            *project_urls.urlpatterns,
        ]
        settings.ROOT_URLCONF = __name__
        clear_url_caches()


def server_times(
    client: Any, url: str, requests: int, **headers: str
) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU seconds of each request. The test client serves in this process,
    so CPU time is the server's own work (without PostgreSQL's), which other processes on a
    busy machine do not inflate; the verdict is still on wall-clock time."""
    for _ in range(5):  # warm-up: templates compiled, connection open, caches filled
        client.get(url, headers=headers)
    wall, cpu = [], []
    for _ in range(requests):
        start, start_cpu = time.perf_counter(), time.process_time()
        response = client.get(url, headers=headers)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        if response.status_code != 200:
            raise SystemExit(f"{url} answered {response.status_code}")
    return wall, cpu


def p95_ms(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=20)[-1] * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()

    with throwaway_database("odds") as url:
        django_on(url)
        from django.conf import settings
        from django.contrib.auth import get_user_model
        from django.core.management import call_command
        from django.test import Client

        from catalog.models import Product
        from decks.models import Deck
        from decks.services import deck_from_product

        assert not settings.DEBUG
        for slug in PRODUCTS:
            catalog = ROOT / "games" / slug.replace("-", "_") / "catalog.json"
            call_command("import_catalog", str(catalog), stdout=io.StringIO())
        _mount_if_needed()
        owner = get_user_model().objects.create_user(username="bench", password="-")
        client = Client(HTTP_HOST="localhost")
        print("Exact odds: server time of one answer (31 rows: turns 0-30)")
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        print(
            f"machine: {machine()}; DEBUG={settings.DEBUG}; {args.requests} requests each; "
            f"load average {load:.1f} at the start"
        )
        print(
            f"\n{'game':<16} {'answer':<22} {'median ms':>10} {'p95 ms':>8} {'cpu ms':>8}  target"
        )
        worst = 0.0
        for slug, code in PRODUCTS.items():
            deck = deck_from_product(product=Product.objects.get(code=code), user=owner)
            Deck.objects.filter(pk=deck.pk).update(visibility=Deck.Visibility.PUBLIC)
            query = f"?group={GROUPS[slug]}&k=2&turns=30"
            answers = (
                (
                    "odds panel (htmx)",
                    f"/decks/{deck.public_id}/odds/{query}",
                    {"HX-Request": "true"},
                ),
                ("API", f"/api/v1/decks/{deck.public_id}/odds/{query}", {}),
            )
            for label, answer_url, headers in answers:
                wall, cpu = server_times(client, answer_url, args.requests, **headers)
                median = median_ms(wall)
                worst = max(worst, median)
                print(
                    f"{slug:<16} {label:<22} {median:>10.2f} {p95_ms(wall):>8.2f} "
                    f"{median_ms(cpu):>8.2f}  {verdict(median <= TARGET_MS)}"
                )
            page = f"/decks/{deck.public_id}/test-hand/?seed=123456&turn=10"
            wall, cpu = server_times(client, page, max(20, args.requests // 10))
            print(
                f"{slug:<16} {'test hand page (info)':<22} {median_ms(wall):>10.2f} "
                f"{p95_ms(wall):>8.2f} {median_ms(cpu):>8.2f}"
            )
        print(
            f"\nworst median odds answer: {worst:.2f} ms (target {TARGET_MS:g} ms): "
            f"{verdict(worst <= TARGET_MS)}"
        )
        return 0 if worst <= TARGET_MS else 1


if __name__ == "__main__":
    raise SystemExit(main())
