"""Benchmark: a 200,000-row collection import leaves the web request (issue 17).

    .venv/bin/python bench/collection_jobs.py [--rows N]

Prints, for a DeckLab CSV of ``--rows`` distinct items (default 200,000, the largest import
allowed): how long the web request takes to hand each step to a worker (the import page's
upload, the API's preview, commit, export and undo: each should answer in a fraction of a
second), how long each job then takes (run here as the worker runs it,
``collection_job_run``), and the card page's time afterwards ("my copies" bounded).

A synthetic Mattsan catalog of 10 sets x 200 cards is made in a throwaway PostgreSQL database
(see bench/_bench.py); the broker is kombu's in-memory one, so no message leaves the process.
"""

from __future__ import annotations

import argparse
import csv
import io
import itertools
import json
import os
import sys
import time
from typing import Any

from _bench import django_on, machine, throwaway_database, verdict

#: what "a fraction of a second" means for handing work to a worker
ENQUEUE_TARGET_S = 0.5
SETS, CARDS_PER_SET = 10, 200


def _catalog() -> None:
    from catalog.importers.write import game_sync
    from catalog.models import Card, CardSet, Printing

    game = game_sync("mattsan")
    sets = CardSet.objects.bulk_create(
        CardSet(game=game, code=f"JB{s}", name_en=f"Jobs {s}", name_ja=f"ジョブ{s}", is_demo=True)
        for s in range(SETS)
    )
    cards = Card.objects.bulk_create(
        Card(
            game=game,
            code=f"JC-{i:05d}",
            name_en=f"Job Card {i}",
            name_ja=f"ジョブカード{i}",
            card_type="unit",
            attributes={"hp": 5, "soul": 2},
            is_demo=True,
            search_key=f"job card {i} | ジョブカード{i}",
        )
        for i in range(SETS * CARDS_PER_SET)
    )
    Printing.objects.bulk_create(
        Printing(
            card=card,
            card_set=sets[i // CARDS_PER_SET],
            collector_number=f"{i % CARDS_PER_SET + 1:03d}",
        )
        for i, card in enumerate(cards)
    )


def _source_file(printings: list[Any], rows: int) -> str:
    """``rows`` distinct items as DeckLab CSV with the columns a player's file would fill
    (printings x conditions x finishes x languages x binders); about 11 MB for 200,000."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    columns = ["game", "card", "set", "number", "quantity", "condition", "finish", "language"]
    writer.writerow([*columns, "binder"])
    combos = itertools.product(
        ["Box A", "Box B", "Box C", "Box D"],
        ["ja", "en"],
        ["normal", "foil"],
        ["mint", "near_mint", "excellent", "good", "lightly_played", "played", "poor"],
        printings,
    )
    for binder, language, finish, condition, p in itertools.islice(combos, rows):
        writer.writerow(
            [
                "mattsan",
                p.card.code,
                p.card_set.code,
                p.collector_number,
                4,
                condition,
                finish,
                language,
                binder,
            ]
        )
    return out.getvalue()


def _timed(call: Any) -> tuple[Any, float]:
    start = time.perf_counter()
    found = call()
    return found, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("--rows", type=int, default=200_000)
    args = parser.parse_args()
    # no message leaves the process: the jobs are run here, as a worker runs them
    os.environ["CELERY_BROKER_URL"] = "memory://"
    with throwaway_database("collection_jobs") as url:
        django_on(url)
        from django.contrib.auth import get_user_model
        from django.core.files.uploadedfile import SimpleUploadedFile
        from django.test import Client
        from django.test.client import encode_multipart

        from catalog.models import Printing
        from collection.jobs import collection_job_run
        from collection.models import CollectionItem, CollectionJob

        print(f"bench/collection_jobs.py on {machine()}; load {os.getloadavg()[0]:.2f}")
        _catalog()
        printings = list(Printing.objects.select_related("card__game", "card_set").order_by("pk"))
        text = _source_file(printings, args.rows)
        print(f"file: {args.rows:,} rows, {len(text.encode()) / 2**20:.1f} MB of DeckLab CSV")
        users = get_user_model().objects
        page_user = users.create_user("page", password="x")
        api_user = users.create_user("api", password="x")
        failures = 0

        def run(job_id: int) -> CollectionJob:
            job = collection_job_run(job_id=job_id, worker="bench")
            assert job is not None
            if job.status != "succeeded":
                raise SystemExit(f"job {job.kind} failed: {job.problems[:3]}")
            return job

        def request(label: str, call: Any, expected: int) -> int:
            nonlocal failures
            response, took = _timed(call)
            ok = response.status_code == expected and took <= ENQUEUE_TARGET_S
            failures += not ok
            print(
                f"{label}: HTTP {response.status_code} in {took:.3f} s "
                f"(target <= {ENQUEUE_TARGET_S} s) {verdict(ok)}"
            )
            return int(
                response.json()["id"]
                if expected == 202
                else response["Location"].rstrip("/").rsplit("/", 1)[1]
            )

        def job_time(label: str, job_id: int) -> CollectionJob:
            job, took = _timed(lambda: run(job_id))
            print(f"    {label}: {took:.1f} s on the worker")
            return job

        page = Client(HTTP_HOST="localhost")
        page.force_login(page_user)
        api = Client(HTTP_HOST="localhost")
        api.force_login(api_user)
        # warm-up: templates, URL patterns and the API's parameter check, built once a process
        page.get("/collection/import/")
        api.get("/api/v1/collection/items/?game=mattsan")
        # the form encoded beforehand, as a browser would send it: the server's time is timed
        upload = SimpleUploadedFile("big.csv", text.encode(), content_type="text/csv")
        form = encode_multipart("BenchBoundary", {"game": "mattsan", "file": upload})
        job_id = request(
            "import page, upload and preview",
            lambda: page.post(
                "/collection/import/",
                form,
                content_type="multipart/form-data; boundary=BenchBoundary",
            ),
            302,
        )
        job_time("preview job (page)", job_id)

        body = json.dumps({"content": text, "game": "mattsan", "file_name": "big.csv"})
        job_id = request(
            "API preview",
            lambda: api.post("/api/v1/collection/imports/", body, content_type="application/json"),
            202,
        )
        preview = job_time("preview job", job_id)
        batch = preview.batch_id
        job_id = request(
            "API commit", lambda: api.post(f"/api/v1/collection/imports/{batch}/commit/"), 202
        )
        job_time("commit job", job_id)
        items = CollectionItem.objects.filter(owner=api_user).count()
        print(f"    {items:,} items in the collection")

        card_url = printings[0].card.get_absolute_url()
        api.get(card_url)  # warm-up
        response, took = _timed(lambda: api.get(card_url))
        print(
            f"card page with my copies ({len(response.content) / 1024:.0f} KB): "
            f"HTTP {response.status_code} in {took:.3f} s"
        )
        job_id = request(
            "API export", lambda: api.get("/api/v1/collection/export/?format=decklab"), 202
        )
        job_time("export job", job_id)
        job_id = request(
            "API undo", lambda: api.post(f"/api/v1/collection/imports/{batch}/undo/"), 202
        )
        job_time("undo job", job_id)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
