"""Tunings under concurrency: 20 requests released at once by a barrier through the API, on
PostgreSQL, each race ending in an exact state. Twenty starts leave exactly the player's limit
of tunings, each with its one round; twenty applies of one move make exactly the revisions the
deck's rules allow, the deck's quantities matching them."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from decks.models import DeckRevision
from simulator.models import RunStatus, SimulationRun, TuningJob
from simulator.services import MAX_ACTIVE_RUNS
from simulator.tuning.services import tuning_create
from tests.collection.test_concurrency import THREADS, _client, _json, race
from tests.simulator.fake_games._builders import WITH_FAKE_GAMES
from tests.simulator.test_tuning_jobs import SEED, _candidate, _deck, play

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="row locks under concurrency: PostgreSQL"
    ),
]


@pytest.fixture(autouse=True)
def _fake_games() -> Any:
    with WITH_FAKE_GAMES:
        yield


def test_twenty_starts_at_once_leave_exactly_the_players_limit(owner: Any) -> None:
    deck, _cards = _deck(owner, [1, 2, 3, 4, 5])
    _candidate("fresh", 5)
    client = _client(owner)
    body = {"source": "list", "cards": ["fresh"], "budget_games": 50_000, "seed": SEED}
    url = f"/api/v1/decks/{deck.public_id}/tunings/"
    statuses = race([_json(client, "post", url, body) for _ in range(THREADS)])
    assert sorted(statuses) == [201] * MAX_ACTIVE_RUNS + [429] * (THREADS - MAX_ACTIVE_RUNS)
    jobs = TuningJob.objects.filter(owner=owner)
    assert jobs.count() == MAX_ACTIVE_RUNS
    # each tuning with exactly its first round, queued: none lost, none doubled
    for job in jobs:
        assert SimulationRun.objects.filter(tuning=job, status=RunStatus.QUEUED).count() == 1
    assert SimulationRun.objects.filter(owner=owner).count() == MAX_ACTIVE_RUNS


def test_twenty_applies_of_one_move_at_once_make_exactly_the_revisions_the_rules_allow(
    owner: Any,
) -> None:
    # three copies of each card: a swap of a cd-00 for "fresh" can be made three times, and
    # then the deck holds no cd-00 to cut (the fourth "fresh" would break the copy limit too)
    deck, _cards = _deck(owner, [1, 2, 3], copies=3)
    _candidate("fresh", 5)
    job = play(
        tuning_create(
            owner=owner,
            deck=deck,
            source="list",
            cards=["fresh"],
            budget_games=20_000,
            seed=SEED,
        ),
        1,
    )
    index = job.moves.index(["cd-00", "fresh"])
    before = DeckRevision.objects.filter(deck=deck).count()
    client = _client(owner)
    url = f"/api/v1/tunings/{job.public_id}/apply/"
    statuses = race([_json(client, "post", url, {"move": index}) for _ in range(THREADS)])
    assert sorted(statuses) == [200] * 3 + [400] * (THREADS - 3)
    held = dict(deck.entries.values_list("card__code", "quantity"))
    assert "cd-00" not in held and held["fresh"] == 3
    assert (held["cd-01"], held["cd-02"]) == (3, 3)
    assert DeckRevision.objects.filter(deck=deck).count() == before + 3
    deck.refresh_from_db()
    assert deck.version == 1 + 3  # one version a revision: no write lost, none doubled
