"""The deck tuning API: start a tuning of a deck (201), read it as the field narrows, cancel
it, apply one of its moves (a new revision of the deck). Bad input is a 400 naming the field
and the reason, never a 500; other people's tunings are 404, and only a deck's owner applies
a move to it. The engines list their goals."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from rest_framework.test import APIClient

from decks.models import Deck, DeckRevision
from games import registry
from simulator.engine.goals import Goal, turn_limit
from simulator.models import RunStatus, TuningJob, TuningSource
from simulator.tuning.services import MAX_BUDGET, MIN_BUDGET
from tests.simulator._tuning import finish, new_tuning, tunable_deck
from tests.simulator.fake_games._builders import WITH_FAKE_GAMES

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.simulator.fake_games._urls")]
TUNINGS = "/api/v1/tunings/"


@pytest.fixture(autouse=True)
def fake_games() -> Iterator[None]:
    with WITH_FAKE_GAMES:
        yield


def api_for(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def create_url(deck: Deck) -> str:
    return f"/api/v1/decks/{deck.public_id}/tunings/"


def goals() -> tuple[Goal, ...]:
    found = registry.engines()["unmatched"].goals
    assert found, "the Unmatched engine offers goals (games/unmatched/goals.py)"
    return found


def body(**overrides: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "goal": goals()[0].code,
        "source": TuningSource.ALL,
        "budget_games": MIN_BUDGET,
        "seed": 9,
    }
    data.update(overrides)
    return data


# --- starting one -----------------------------------------------------------------------------


def test_starting_a_tuning_answers_201_with_the_race(owner: Any) -> None:
    deck = tunable_deck(owner)

    response = api_for(owner).post(create_url(deck), body(sizes=True), format="json")

    assert response.status_code == 201, response.json()
    data = response.json()
    job = TuningJob.objects.get()
    assert data["id"] == job.public_id and data["url"] == f"{TUNINGS}{job.public_id}/"
    assert data["page"] == f"/sim/tunings/{job.public_id}/"
    assert (data["deck"], data["revision"], data["status"]) == (deck.public_id, 1, "running")
    assert data["goal"]["code"] == goals()[0].code
    assert data["goal"]["direction"] in ("higher", "lower")
    assert (data["budget"], data["seed"], data["sizes"]) == (MIN_BUDGET, 9, True)
    assert data["moves"] == len(job.moves) == data["in_race"] == len(data["ranking"])


def test_a_typed_list_is_read_line_by_line(owner: Any) -> None:
    deck = tunable_deck(owner)
    name = deck.entries.filter(zone="deck").select_related("card").first().card.name_en  # type: ignore[union-attr]

    response = api_for(owner).post(
        create_url(deck), body(source=TuningSource.LIST, cards=[name]), format="json"
    )

    assert response.status_code == 201, response.json()


def test_starting_a_tuning_needs_a_signed_in_player_who_sees_the_deck(
    owner: Any, stranger: Any
) -> None:
    deck = tunable_deck(owner)

    assert APIClient().post(create_url(deck), body(), format="json").status_code == 401
    assert api_for(stranger).post(create_url(deck), body(), format="json").status_code == 404
    assert not TuningJob.objects.exists()


def _turn_cases() -> list[tuple[str, dict[str, Any], str]]:
    engine = registry.engines()["unmatched"]
    last = turn_limit(engine, engine.params.clean({}))
    at_turn = next(g for g in engine.goals if g.at_turn)
    bounds = f"Give a turn from 1 to {last}."
    return [
        ("turn 0", {"goal": at_turn.code, "turn": 0}, bounds),
        ("turn past the limit", {"goal": at_turn.code, "turn": last + 1}, bounds),
    ]


REFUSALS: list[tuple[str, dict[str, Any], str, str]] = [
    ("bad goal", {"goal": "nope"}, "goal", "Choose one of the engine's goals."),
    (
        "both budgets",
        {"budget_games": MIN_BUDGET, "budget_seconds": 2},
        "budget",
        "Give the budget in games or in seconds, not both.",
    ),
    (
        "too few games",
        {"budget_games": MIN_BUDGET - 1},
        "budget_games",
        f"Give a number of games from {MIN_BUDGET:,} to {MAX_BUDGET:,}.",
    ),
    (
        "too many games",
        {"budget_games": MAX_BUDGET + 1},
        "budget_games",
        f"Give a number of games from {MIN_BUDGET:,} to {MAX_BUDGET:,}.",
    ),
    ("too few seconds", {"budget_games": None, "budget_seconds": 0.01}, "budget_seconds", ""),
    ("too many seconds", {"budget_games": None, "budget_seconds": 1e9}, "budget_seconds", ""),
    ("negative seed", {"seed": -1}, "seed", ""),
    ("seed too big", {"seed": 2**63}, "seed", ""),
    ("unknown source", {"source": "nowhere"}, "source", ""),
    ("empty list", {"source": TuningSource.LIST, "cards": []}, "cards", ""),
    ("unknown pin", {"pins": ["not-a-card"]}, "pins", ""),
    ("unknown parameter", {"params": {"nope": 1}}, "params", ""),
]


@pytest.mark.parametrize(
    ("case", "overrides", "field", "message"),
    REFUSALS,
    ids=[case for case, *_rest in REFUSALS],
)
def test_bad_input_is_a_400_naming_the_field(
    owner: Any, case: str, overrides: dict[str, Any], field: str, message: str
) -> None:
    response = api_for(owner).post(
        create_url(tunable_deck(owner)), body(**overrides), format="json"
    )

    assert response.status_code == 400, case
    errors = response.json()
    assert field in errors, errors
    if message:
        assert errors[field] == [message]
    assert not TuningJob.objects.exists()


def test_a_turn_out_of_bounds_is_a_400_on_the_turn(owner: Any) -> None:
    deck = tunable_deck(owner)
    for case, overrides, message in _turn_cases():
        response = api_for(owner).post(create_url(deck), body(**overrides), format="json")

        assert response.status_code == 400, case
        assert response.json() == {"turn": [message]}, case


def test_an_unknown_typed_card_is_a_400_with_a_guess(owner: Any) -> None:
    deck = tunable_deck(owner)
    name = deck.entries.filter(zone="deck").select_related("card").first().card.name_en  # type: ignore[union-attr]
    typo = name[:-1] + "x" + name[-1]

    response = api_for(owner).post(
        create_url(deck), body(source=TuningSource.LIST, cards=[name, typo]), format="json"
    )

    assert response.status_code == 400
    (message,) = response.json()["cards"]
    assert message.startswith(f"Line 2: no card of this game is called “{typo}”. Did you mean:")
    assert f"“{name}”" in message


def test_a_player_at_their_limit_gets_a_429(owner: Any) -> None:
    deck = tunable_deck(owner)
    client = api_for(owner)
    answers = [client.post(create_url(deck), body(), format="json").status_code for _ in range(4)]

    assert answers == [201, 201, 201, 429]


def _fuzzed(rng: random.Random) -> Any:
    values: list[Any] = [
        None,
        True,
        0,
        -1,
        2**70,
        1.5,
        float("1e308"),
        "",
        "x" * 300,
        "owned",
        "list",
        [],
        ["a", None],
        [1, 2],
        {},
        {"a": {"b": []}},
        "\x00",
        "１２",
    ]
    fields = [*body(), "turn", "cards", "pins", "sizes", "budget_seconds", "params", "unknown"]
    chosen = rng.sample(fields, rng.randint(1, len(fields)))
    return {name: rng.choice(values) for name in chosen}


def test_fuzzed_bodies_are_answered_never_with_a_500(owner: Any) -> None:
    deck = tunable_deck(owner)
    client = api_for(owner)
    rng = random.Random(23)
    bodies: list[Any] = [[], "text", 5, None, {"goal": {"$ne": 1}}, {"cards": "a\nb"}]
    bodies += [
        {"source": "list", "cards": ["\x00"]},
        {"goal": "\x00"},
        {"pins": ["\x00"]},
        {"params": {"\x00": 1}},
        {"budget_seconds": "NaN"},
        {"budget_seconds": "Infinity"},
        {"turn": "1e3"},
        {"seed": "12345678901234567890123"},
    ]
    bodies += [_fuzzed(rng) for _ in range(60)]
    for sent in bodies:
        response = client.post(create_url(deck), sent, format="json")

        assert response.status_code in (201, 400, 429), (sent, response.content[:300])
        if response.status_code == 201:
            TuningJob.objects.filter(public_id=response.json()["id"]).delete()
    broken = client.post(create_url(deck), b"{not json", content_type="application/json")
    assert broken.status_code == 400


# --- reading, cancelling ----------------------------------------------------------------------


def test_reading_a_finished_tuning_gives_its_ranking(
    owner: Any, django_assert_max_num_queries: Any
) -> None:
    job = finish(new_tuning(owner))

    with django_assert_max_num_queries(4):
        response = api_for(owner).get(f"{TUNINGS}{job.public_id}/")

    assert response.status_code == 200
    data = response.json()
    assert data["status"] == "succeeded" and data["progress"] == 100
    ranking = data["ranking"]
    assert [row["rank"] for row in ranking] == list(range(1, len(job.moves) + 1))
    assert ranking[0]["standing"] == "leader"
    assert {row["standing"] for row in ranking} <= {"leader", "close", "behind", "dropped"}
    best = ranking[0]
    assert best["effect"]["low"] <= best["effect"]["value"] <= best["effect"]["high"]
    assert best["add"]["name_ja"] and best["cut"]["code"] == job.moves[best["index"]][0]
    assert data["baseline"]["n"] == data["games"] > 0


def test_a_tuning_is_private_to_its_owner(owner: Any, stranger: Any) -> None:
    job = new_tuning(owner)
    url = f"{TUNINGS}{job.public_id}/"

    assert api_for(stranger).get(url).status_code == 404
    assert APIClient().get(url).status_code == 401
    assert api_for(stranger).post(f"{url}cancel/").status_code == 404
    assert api_for(stranger).post(f"{url}apply/", {"move": 0}, format="json").status_code == 404
    assert api_for(owner).get(f"{TUNINGS}no-such-tuning/").status_code == 404


def test_cancelling_a_running_tuning_stops_it_and_again_changes_nothing(owner: Any) -> None:
    job = new_tuning(owner)
    client = api_for(owner)

    first = client.post(f"{TUNINGS}{job.public_id}/cancel/")
    again = client.post(f"{TUNINGS}{job.public_id}/cancel/")

    assert first.status_code == 200 and first.json()["status"] == "cancelled"
    assert again.status_code == 200 and again.json()["status"] == "cancelled"
    job.refresh_from_db()
    assert job.status == RunStatus.CANCELLED


def test_cancelling_a_finished_tuning_is_a_409(owner: Any) -> None:
    job = finish(new_tuning(owner))

    response = api_for(owner).post(f"{TUNINGS}{job.public_id}/cancel/")

    assert response.status_code == 409
    assert response.json() == {
        "detail": "This tuning had already finished, so it was not cancelled."
    }


# --- applying a move --------------------------------------------------------------------------


def test_applying_a_move_makes_a_new_revision(owner: Any) -> None:
    job = finish(new_tuning(owner))
    best = api_for(owner).get(f"{TUNINGS}{job.public_id}/").json()["ranking"][0]

    response = api_for(owner).post(
        f"{TUNINGS}{job.public_id}/apply/", {"move": best["index"]}, format="json"
    )

    assert response.status_code == 200, response.json()
    data = response.json()
    assert job.deck is not None
    assert (data["deck"], data["revision"]) == (job.deck.public_id, 2)
    assert DeckRevision.objects.filter(deck=job.deck).count() == 2
    # the player owns no card: the deck lacks every copy of the added card it holds
    added = job.deck.entries.get(card__code=best["add"]["code"])
    assert data["missing"] == added.quantity > 0
    assert best["add"]["name_en"] in data["note"] and best["add"]["name_en"] in data["move"]


@pytest.mark.parametrize("move", [-1, 10_000, "one", None, True, 1.5])
def test_a_bad_move_is_a_400(owner: Any, move: Any) -> None:
    job = finish(new_tuning(owner))

    response = api_for(owner).post(
        f"{TUNINGS}{job.public_id}/apply/", {"move": move}, format="json"
    )

    assert response.status_code == 400 and "move" in response.json()
    assert DeckRevision.objects.filter(deck=job.deck).count() == 1


def test_only_the_decks_owner_applies_a_move(owner: Any, friend: Any) -> None:
    deck = tunable_deck(owner, visibility=Deck.Visibility.PUBLIC)
    theirs = finish(new_tuning(friend, deck))

    assert api_for(friend).get(f"{TUNINGS}{theirs.public_id}/").status_code == 200
    response = api_for(friend).post(
        f"{TUNINGS}{theirs.public_id}/apply/", {"move": 0}, format="json"
    )

    assert response.status_code == 404
    assert DeckRevision.objects.filter(deck=deck).count() == 1


# --- the engines ------------------------------------------------------------------------------


def test_the_engines_list_their_goals(client: Any) -> None:
    engines = {e["slug"]: e for e in APIClient().get("/api/v1/engines/").json()}

    listed = engines["unmatched"]["goals"]
    assert [g["code"] for g in listed] == [g.code for g in goals()]
    for shown, goal in zip(listed, goals(), strict=True):
        assert shown["kind"] == goal.kind and shown["turn"] == goal.turn
        assert shown["direction"] == ("higher" if goal.direction > 0 else "lower")
        assert shown["label"] and "%(turn)" not in shown["label"]
    assert engines["countdown"]["goals"] is not None
