"""The simulation API: start a run (201), read it (progress, then results), cancel it, list
the engines. Bad input is a 400 naming the field and the reason, never a 500; other people's
runs are 404."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from rest_framework.test import APIClient

from decks.models import Deck
from games import registry
from simulator.models import RunStatus, SimulationRun
from simulator.services import (
    GAMES_BOUNDS,
    MAX_ACTIVE_RUNS,
    PARAM_UNKNOWN,
    PARAM_WHOLE_RANGE,
    UNKNOWN_ENGINE,
    run_chunk_execute,
)
from tests.simulator.fake_games._builders import WITH_FAKE_GAMES, countdown_deck

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.simulator.fake_games._urls")]
RUNS = "/api/v1/runs/"


@pytest.fixture(autouse=True)
def fake_games() -> Iterator[None]:
    with WITH_FAKE_GAMES:
        yield


def api_for(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def body(of: Deck, **overrides: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "deck": of.public_id,
        "engine": "countdown",
        "params": {"opponent_hp": 10},
        "games": 1_000,
        "seed": 5,
        "chunk_size": 500,
    }
    data.update(overrides)
    return data


def test_starting_a_run_answers_201_with_the_run(owner: Any) -> None:
    deck = countdown_deck(owner)

    response = api_for(owner).post(RUNS, body(deck), format="json")

    assert response.status_code == 201
    data = response.json()
    run = SimulationRun.objects.get()
    assert data["id"] == run.public_id and data["url"] == f"{RUNS}{run.public_id}/"
    assert (data["deck"], data["revision"], data["engine"], data["engine_version"]) == (
        deck.public_id,
        1,
        "countdown",
        3,
    )
    assert data["params"] == {"opponent_hp": 10, "explode": False, "style": "calm"}
    assert (data["games"], data["seed"], data["status"], data["progress"]) == (1000, 5, "queued", 0)
    assert (data["chunks_total"], data["results"]) == (2, None)


def test_a_run_reads_its_progress_then_its_results(owner: Any) -> None:
    api = api_for(owner)
    created = api.post(RUNS, body(countdown_deck(owner)), format="json").json()
    run = SimulationRun.objects.get()

    run_chunk_execute(run_id=run.pk, index=0)
    halfway = api.get(created["url"]).json()
    run_chunk_execute(run_id=run.pk, index=1)
    done = api.get(created["url"]).json()

    assert (halfway["status"], halfway["progress"], halfway["chunks_done"]) == ("running", 50, 1)
    assert halfway["results"] is None
    assert (done["status"], done["progress"]) == ("succeeded", 100)
    summary = done["results"]["summary"]
    assert summary["games"] == 1000 and set(summary["rates"]["fell"]) == {
        "value",
        "low",
        "high",
        "n",
    }
    assert done["results"]["metrics"]["games"] == 1000


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        (
            {"params": {"opponent_hp": 0}},
            {"params": {"opponent_hp": [str(PARAM_WHOLE_RANGE % {"min": "1", "max": "100"})]}},
        ),
        ({"params": {"speed": 3}}, {"params": {"speed": [str(PARAM_UNKNOWN)]}}),
        ({"games": 2_000_000}, {"games": [str(GAMES_BOUNDS % {"min": 1, "max": "1,000,000"})]}),
        ({"engine": "chess"}, {"engine": [str(UNKNOWN_ENGINE)]}),
        ({"deck": "no-such-deck"}, {"deck": ["No deck with this id."]}),
    ],
)
def test_bad_input_is_a_400_naming_the_field_and_the_reason(
    owner: Any, overrides: dict[str, Any], expected: dict[str, Any]
) -> None:
    response = api_for(owner).post(RUNS, body(countdown_deck(owner), **overrides), format="json")

    assert response.status_code == 400
    assert response.json() == expected
    assert not SimulationRun.objects.exists()


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"params": [1, 2]}, "params"),
        ({"games": "many"}, "games"),
        ({"seed": 1.5}, "seed"),
        ({"params": {"explode": "perhaps", "style": "loud"}}, "params"),
    ],
)
def test_input_of_the_wrong_type_is_a_400_too(
    owner: Any, overrides: dict[str, Any], field: str
) -> None:
    response = api_for(owner).post(RUNS, body(countdown_deck(owner), **overrides), format="json")
    assert response.status_code == 400 and field in response.json()


def test_a_private_deck_of_someone_else_is_no_deck(owner: Any, stranger: Any) -> None:
    response = api_for(stranger).post(RUNS, body(countdown_deck(owner)), format="json")
    assert response.status_code == 400 and list(response.json()) == ["deck"]


def test_a_public_deck_of_someone_else_may_be_simulated(owner: Any, stranger: Any) -> None:
    deck = countdown_deck(owner, visibility=Deck.Visibility.PUBLIC)
    response = api_for(stranger).post(RUNS, body(deck), format="json")
    assert response.status_code == 201
    assert SimulationRun.objects.get().owner == stranger


def test_too_many_runs_at_once_is_a_429_that_says_so(owner: Any) -> None:
    api, deck = api_for(owner), countdown_deck(owner)
    for _ in range(MAX_ACTIVE_RUNS):
        assert api.post(RUNS, body(deck), format="json").status_code == 201

    response = api.post(RUNS, body(deck), format="json")

    assert response.status_code == 429
    assert response.json()["code"] == "too_many_runs" and "at most 3" in response.json()["detail"]


def test_other_peoples_runs_are_404(owner: Any, stranger: Any) -> None:
    deck = countdown_deck(owner, visibility=Deck.Visibility.PUBLIC)
    created = api_for(owner).post(RUNS, body(deck), format="json").json()
    stranger_api = api_for(stranger)

    assert stranger_api.get(created["url"]).status_code == 404
    assert stranger_api.post(f"{created['url']}cancel/").status_code == 404
    assert stranger_api.get(RUNS).json()["results"] == []
    assert SimulationRun.objects.get().status == RunStatus.QUEUED


def test_anonymous_callers_are_401(owner: Any) -> None:
    assert APIClient().post(RUNS, body(countdown_deck(owner)), format="json").status_code == 401
    assert APIClient().get(RUNS).status_code == 401


def test_the_owner_cancels_a_run_once(owner: Any) -> None:
    api = api_for(owner)
    created = api.post(RUNS, body(countdown_deck(owner)), format="json").json()

    cancelled = api.post(f"{created['url']}cancel/")
    again = api.post(f"{created['url']}cancel/")

    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    assert again.status_code == 200


def test_a_finished_run_cannot_be_cancelled(owner: Any) -> None:
    api = api_for(owner)
    created = api.post(RUNS, body(countdown_deck(owner)), format="json").json()
    run = SimulationRun.objects.get()
    for index in range(run.chunks_total):
        run_chunk_execute(run_id=run.pk, index=index)

    response = api.post(f"{created['url']}cancel/")

    assert response.status_code == 409
    run.refresh_from_db()
    assert run.status == RunStatus.SUCCEEDED


def test_the_engines_list_their_parameters_and_what_they_do_not_model() -> None:
    response = APIClient().get("/api/v1/engines/")

    assert response.status_code == 200
    engines = {engine["slug"]: engine for engine in response.json()}
    countdown = engines["countdown"]
    assert countdown["version"] == 3
    assert countdown["params"][0] == {
        "name": "opponent_hp",
        "label": "Opponent HP",
        "kind": "int",
        "default": 20,
        "minimum": 1,
        "maximum": 100,
        "choices": [],
        "help": "",
    }
    assert countdown["params"][2]["choices"] == [
        {"code": "calm", "label": "Calm"},
        {"code": "wild", "label": "Wild"},
    ]
    assert countdown["not_modelled"] == ["Everything but drawing and dealing damage."]
    assert "unmatched" in engines
    assert set(engines) == set(registry.engines())  # every engine of the registry, no other
