"""The simulation pages: the form for any deck the player can see, the run page that polls
until the run is done (then stops), cancel and replay, and runs private to their owner."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from decks.models import Deck
from decks.services import deck_create
from games import registry
from simulator.models import RunStatus, SimulationRun
from simulator.services import MAX_ACTIVE_RUNS, run_chunk_execute, run_create
from tests.catalog.factories import GameFactory
from tests.simulator.fake_games._builders import (
    COUNTDOWN,
    ENGINELESS,
    WITH_FAKE_GAMES,
    countdown_deck,
    unmatched_deck,
)

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.simulator.fake_games._urls")]
HTMX = {"HX-Request": "true"}


@pytest.fixture(autouse=True)
def fake_games() -> Iterator[None]:
    with WITH_FAKE_GAMES:
        yield


def simulate_url(deck: Deck) -> str:
    return reverse("simulator:simulate", args=[deck.public_id])


def new_run(owner: Any, deck: Deck | None = None, games: int = 1_000) -> SimulationRun:
    return run_create(
        owner=owner,
        deck=deck or countdown_deck(owner),
        engine_slug=COUNTDOWN,
        params={"opponent_hp": 10},
        games=games,
        seed=11,
        chunk_size=500,
    )


def finish(run: SimulationRun) -> SimulationRun:
    for index in range(run.chunks_total):
        run_chunk_execute(run_id=run.pk, index=index)
    run.refresh_from_db()
    return run


# --- the form ---------------------------------------------------------------------------------


def test_the_form_shows_the_engines_parameters_and_what_it_does_not_model(
    owner: Any, owner_client: Client
) -> None:
    page = owner_client.get(simulate_url(countdown_deck(owner)))

    assert page.status_code == 200
    html = page.content.decode()
    for text in ("Opponent HP", "Fail on purpose", "Wild", 'name="games"', 'name="seed"'):
        assert text in html
    assert "Everything but drawing and dealing damage." in html
    assert "mattsan.md:19" in html


def test_a_player_may_simulate_any_deck_they_can_see_and_no_other(
    owner: Any, stranger_client: Client
) -> None:
    public = countdown_deck(owner, visibility=Deck.Visibility.PUBLIC)
    unlisted = countdown_deck(owner, visibility=Deck.Visibility.UNLISTED)
    private = countdown_deck(owner)

    assert stranger_client.get(simulate_url(public)).status_code == 200
    assert stranger_client.get(simulate_url(unlisted)).status_code == 200
    assert stranger_client.get(simulate_url(private)).status_code == 404
    assert stranger_client.post(simulate_url(private), {"games": 100}).status_code == 404


def test_signing_in_comes_first(owner: Any, client: Client) -> None:
    response = client.get(simulate_url(countdown_deck(owner, visibility="public")))
    assert response.status_code == 302 and "login" in response["Location"]


def test_posting_the_form_starts_a_run_of_the_players_own(
    owner: Any, stranger: Any, stranger_client: Client
) -> None:
    deck = countdown_deck(owner, visibility=Deck.Visibility.PUBLIC)

    response = stranger_client.post(
        simulate_url(deck),
        {"games": 1234, "seed": 99, "param_opponent_hp": 12, "param_style": "wild"},
    )

    run = SimulationRun.objects.get()
    assert response.status_code == 302 and response["Location"] == run.get_absolute_url()
    assert (run.owner, run.deck, run.games, run.seed) == (stranger, deck, 1234, 99)
    assert run.params == {"opponent_hp": 12, "explode": False, "style": "wild"}


def test_bad_values_are_shown_on_their_fields(owner: Any, owner_client: Client) -> None:
    response = owner_client.post(
        simulate_url(countdown_deck(owner)), {"games": 0, "param_opponent_hp": 101}
    )

    assert response.status_code == 400
    html = response.content.decode()
    assert 'data-field="games"' in html and 'data-field="param_opponent_hp"' in html
    assert not SimulationRun.objects.exists()


def test_the_limit_of_runs_going_at_once_is_explained(owner: Any, owner_client: Client) -> None:
    deck = countdown_deck(owner)
    for _ in range(MAX_ACTIVE_RUNS):
        new_run(owner, deck)

    form = {"games": 100, "param_opponent_hp": 20, "param_style": "calm"}
    response = owner_client.post(simulate_url(deck), form)

    assert response.status_code == 400
    assert "at most 3 at a time" in response.content.decode()


def test_a_game_without_an_engine_says_so(owner: Any, owner_client: Client) -> None:
    # a game registered without an engine (fake_games/engineless), whichever games have one
    assert registry.get(ENGINELESS).engine is None
    assert ENGINELESS not in registry.engines()
    deck = deck_create(owner=owner, game=GameFactory(slug=ENGINELESS), name="No engine")
    page = owner_client.get(simulate_url(deck))
    assert page.status_code == 200 and 'id="no-engine"' in page.content.decode()


# --- the run page -----------------------------------------------------------------------------


def test_the_run_page_polls_while_the_run_is_going(owner: Any, owner_client: Client) -> None:
    run = new_run(owner)
    run_chunk_execute(run_id=run.pk, index=0)

    page = owner_client.get(run.get_absolute_url())
    fragment = owner_client.get(run.get_absolute_url(), headers=HTMX)

    assert page.status_code == 200 and "<html" in page.content.decode()
    assert fragment.status_code == 200
    html = fragment.content.decode()
    assert "<html" not in html and 'hx-trigger="every 1s"' in html
    assert 'aria-valuenow="50"' in html and "1 of 2 chunks" in html
    assert 'id="cancel-form"' in html


def test_polling_stops_when_the_run_is_done_and_the_results_are_shown(
    owner: Any, owner_client: Client
) -> None:
    run = finish(new_run(owner))

    fragment = owner_client.get(run.get_absolute_url(), headers=HTMX)

    assert fragment.status_code == 286  # htmx's "stop polling"
    html = fragment.content.decode()
    assert "hx-trigger" not in html and 'data-status="succeeded"' in html
    assert 'id="results-rates"' in html and "The opponent fell" in html
    assert 'data-chart="damage_by_turn_"' in html and "Damage by turn" in html
    assert 'data-chart="falls_turn"' in html
    assert html.count("<svg") >= 2 and "<script" not in html
    assert "Replay this run" in html and str(run.seed) in html

    page = owner_client.get(run.get_absolute_url()).content.decode()
    assert "Everything but drawing and dealing damage." in page and "mattsan.md:19" in page


def test_a_failed_run_says_why(owner: Any, owner_client: Client) -> None:
    run = run_create(
        owner=owner,
        deck=countdown_deck(owner),
        engine_slug=COUNTDOWN,
        params={"explode": True},
        games=100,
    )
    with pytest.raises(RuntimeError):
        run_chunk_execute(run_id=run.pk, index=0)

    html = owner_client.get(run.get_absolute_url()).content.decode()
    assert 'id="run-error"' in html and "asked to fail" in html


def test_the_owner_cancels_a_run_and_polling_stops(owner: Any, owner_client: Client) -> None:
    run = new_run(owner)

    response = owner_client.post(reverse("simulator:cancel", args=[run.public_id]), headers=HTMX)

    assert response.status_code == 286 and "hx-trigger" not in response.content.decode()
    run.refresh_from_db()
    assert run.status == RunStatus.CANCELLED
    again = owner_client.post(reverse("simulator:cancel", args=[run.public_id]))
    assert again.status_code == 302


def test_replaying_starts_a_new_run_with_the_same_seed_and_deck(
    owner: Any, owner_client: Client
) -> None:
    run = finish(new_run(owner))

    response = owner_client.post(reverse("simulator:replay", args=[run.public_id]))

    again = SimulationRun.objects.exclude(pk=run.pk).get()
    assert response["Location"] == again.get_absolute_url()
    assert (again.seed, again.deck_data, again.params) == (run.seed, run.deck_data, run.params)
    assert finish(again).results == run.results


@pytest.mark.parametrize("name", ["cancel", "replay"])
def test_only_the_owner_cancels_or_replays_a_run_even_of_a_public_deck(
    owner: Any, stranger_client: Client, name: str
) -> None:
    run = new_run(owner, countdown_deck(owner, visibility=Deck.Visibility.PUBLIC))
    url = reverse(f"simulator:{name}", args=[run.public_id])

    response = stranger_client.post(url)

    assert response.status_code == 404
    run.refresh_from_db()
    assert run.status == RunStatus.QUEUED and SimulationRun.objects.count() == 1


@pytest.mark.parametrize(
    ("visibility", "deck_deleted", "status"),
    [
        (Deck.Visibility.PUBLIC, False, 200),
        (Deck.Visibility.UNLISTED, False, 200),
        (Deck.Visibility.PRIVATE, False, 404),
        (Deck.Visibility.PUBLIC, True, 404),  # the deck is gone: nothing says it was shared
    ],
)
@pytest.mark.parametrize("who", ["anonymous", "stranger"])
def test_a_runs_results_are_readable_by_its_link_when_its_deck_is_public_or_unlisted(
    owner: Any,
    client: Client,
    stranger_client: Client,
    visibility: str,
    deck_deleted: bool,
    status: int,
    who: str,
) -> None:
    deck = countdown_deck(owner, visibility=visibility)
    run = finish(new_run(owner, deck))
    if deck_deleted:
        deck.delete()
    reader = client if who == "anonymous" else stranger_client

    response = reader.get(run.get_absolute_url())

    assert response.status_code == status
    if status == 200:
        html = response.content.decode()
        assert 'id="run-results"' in html
        # read-only: no cancel, no replay, no link to someone else's list
        assert 'id="run-replay"' not in html and 'id="cancel-form"' not in html


def test_the_list_shows_the_players_own_runs(
    owner: Any, stranger: Any, owner_client: Client
) -> None:
    mine = new_run(owner)
    theirs = new_run(stranger)

    html = owner_client.get(reverse("simulator:runs")).content.decode()

    assert mine.get_absolute_url() in html and theirs.get_absolute_url() not in html


def test_an_unmatched_run_from_the_form_to_its_charts(owner: Any, owner_client: Client) -> None:
    deck = unmatched_deck(owner)
    form = owner_client.get(simulate_url(deck)).content.decode()
    assert "Opponent hero HP" in form and "Turns at most" in form

    owner_client.post(
        simulate_url(deck), {"games": 600, "param_opponent_hp": 16, "param_max_turns": 30}
    )
    run = finish(SimulationRun.objects.get())

    html = owner_client.get(run.get_absolute_url()).content.decode()
    assert run.status == RunStatus.SUCCEEDED
    assert 'data-chart="damage_by_turn:"' in html and 'data-chart="opponent_falls_turn"' in html
    assert "Heroes' special abilities." in html or "Heroes&#x27; special abilities." in html


def test_staff_read_runs_and_their_chunks_in_the_admin(owner: Any, admin_client: Client) -> None:
    run = finish(new_run(owner))
    assert admin_client.get(reverse("admin:simulator_simulationrun_changelist")).status_code == 200
    page = admin_client.get(reverse("admin:simulator_simulationrun_change", args=[run.pk]))
    assert page.status_code == 200 and "simulation chunk" in page.content.decode().lower()
