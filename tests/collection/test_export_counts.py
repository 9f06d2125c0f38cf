"""An export of one game counts that game's items to decide whether a worker writes it (the
page, the API and the job's progress): counted by the set each item carries, so the count
joins no item to its printing (200 ms at 100,000 items, 30 ms by the set; issue 19), and
counts only that game's items."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from catalog.models import Printing
from collection.jobs import collection_job_run, collection_job_submit
from collection.models import CollectionJob
from tests.catalog.factories import CardFactory, CardSetFactory, GameFactory, PrintingFactory
from tests.collection.conftest import Shelf, add

API = "/api/v1/collection"


@pytest.fixture
def two_games(shelf: Shelf, owner: Any, settings: Any) -> Printing:
    """Three Mattsan items and four Unmatched ones; "big" is more than three items."""
    unmatched = GameFactory(slug="unmatched")
    card = CardFactory(game=unmatched, code="UX-001", name_en="Other Game's Card")
    printing = PrintingFactory(
        card=card, card_set=CardSetFactory(game=unmatched, code="UX1"), collector_number="1"
    )
    for base in shelf.base_printings:
        add(owner, base, 1)
    for binder in ("a", "b", "c", "d"):
        add(owner, printing, 1, binder=binder)
    settings.COLLECTION_JOB_THRESHOLD = 3
    return printing


def _counts(seen: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in seen.captured_queries if "COUNT(" in q["sql"]]


def test_the_api_exports_one_game_in_the_request_counting_its_items_by_their_sets(
    two_games: Printing, owner_client: Client
) -> None:
    with CaptureQueriesContext(connection) as seen:
        exported = owner_client.get(f"{API}/export/?game=mattsan")
    assert exported.status_code == 200, exported.content
    assert exported.json()["rows"] == 3
    counts = _counts(seen)
    assert counts and not [sql for sql in counts if "catalog_printing" in sql], counts


def test_the_page_exports_one_game_in_the_request_and_sends_the_whole_collection_to_a_worker(
    two_games: Printing, owner_client: Client
) -> None:
    with CaptureQueriesContext(connection) as seen:
        one_game = owner_client.get("/collection/export/?game=mattsan")
    assert one_game.status_code == 200
    assert b'id="export-big"' not in one_game.content
    assert b"Download 3 items" in one_game.content
    counts = _counts(seen)
    assert counts and not [sql for sql in counts if "catalog_printing" in sql], counts
    unmatched = owner_client.get("/collection/export/?game=unmatched")
    assert b'id="export-big"' in unmatched.content and b"4 items" in unmatched.content
    everything = owner_client.get("/collection/export/")
    assert b'id="export-big"' in everything.content and b"7 items" in everything.content


def test_an_export_job_of_one_game_writes_that_game_s_items(
    two_games: Printing, owner: Any
) -> None:
    job = collection_job_submit(
        owner=owner,
        kind=CollectionJob.Kind.EXPORT,
        params={"format": "decklab", "game": "unmatched"},
    )
    with CaptureQueriesContext(connection) as seen:
        done = collection_job_run(job_id=job.pk, worker="test")
    assert done is not None and done.status == CollectionJob.Status.SUCCEEDED, done
    assert done.result["rows"] == 4 and "UX-001" in done.content and "MTC-001" not in done.content
    counts = _counts(seen)
    assert counts and not [sql for sql in counts if "catalog_printing" in sql], counts
