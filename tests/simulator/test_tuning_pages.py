"""The "Improve this deck" pages: the form on a deck's simulation page, the tuning's page that
polls until the race is over (then stops), cancel and apply. A tuning is its owner's alone;
a move is applied by the deck's owner alone. Every refusal answers 400 on its field."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from decks.models import Deck, DeckRevision
from games import registry
from simulator.engine.goals import Goal, turn_limit
from simulator.models import (
    ChunkStatus,
    RunChunk,
    RunStatus,
    SimulationRun,
    TuningJob,
    TuningSource,
)
from simulator.selectors import runs_of_owner
from simulator.tuning.services import DEFAULT_SECONDS
from simulator.views.forest import MAX_ROWS, ForestRow, forest
from tests.simulator._tuning import finish, new_tuning, tunable_deck
from tests.simulator.fake_games._builders import WITH_FAKE_GAMES, countdown_deck

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.simulator.fake_games._urls")]
HTMX = {"HX-Request": "true"}


@pytest.fixture(autouse=True)
def fake_games() -> Iterator[None]:
    with WITH_FAKE_GAMES:
        yield


def engine_goal(at_turn: bool | None = None) -> Goal:
    goals = registry.engines()["unmatched"].goals
    assert goals, "the Unmatched engine offers goals (games/unmatched/goals.py)"
    if at_turn is None:
        return goals[0]
    return next(g for g in goals if g.at_turn == at_turn)


def simulate_url(deck: Deck) -> str:
    return reverse("simulator:simulate", args=[deck.public_id])


def tune_url(deck: Deck) -> str:
    return reverse("simulator:tune", args=[deck.public_id])


def tuning_url(job: TuningJob) -> str:
    return reverse("simulator:tuning", args=[job.public_id])


def form(**overrides: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "tune-goal": engine_goal().code,
        "tune-turn": "",
        "tune-source": TuningSource.ALL,
        "tune-cards": "",
        "tune-budget_seconds": "1",
        "tune-seed": "3",
    }
    data.update({f"tune-{k}": v for k, v in overrides.items()})
    return data


def field_errors(response: Any, field: str) -> list[str]:
    return [str(e) for e in response.context["tuning_form"].errors.get(field, [])]


# --- the form on the simulation page ----------------------------------------------------------


def test_the_simulation_page_offers_to_improve_a_tunable_deck(
    owner: Any, owner_client: Client, django_assert_max_num_queries: Any
) -> None:
    deck = tunable_deck(owner)

    with django_assert_max_num_queries(16):
        response = owner_client.get(simulate_url(deck))

    assert response.status_code == 200
    body = response.content.decode()
    assert 'id="tuning-form"' in body and f'action="{tune_url(deck)}"' in body
    goal_field = response.context["tuning_form"]["goal"]
    assert [code for code, _label in goal_field.field.choices] == [
        g.code for g in registry.engines()["unmatched"].goals
    ]
    # a goal read at a turn shows it as N: the turn is a field of its own
    assert all("%(turn)" not in label for _code, label in goal_field.field.choices)
    assert response.context["tuning_form"]["budget_seconds"].initial == DEFAULT_SECONDS
    # the pins are the deck's draw-zone cards, not its hero
    pins = [label for _code, label in response.context["tuning_form"]["pins"].field.choices]
    assert "Test Hero" not in pins and len(pins) == 7


def test_a_deck_that_cannot_be_tuned_says_why_instead_of_a_form(
    owner: Any, owner_client: Client
) -> None:
    deck = countdown_deck(owner, cards=0)

    response = owner_client.get(simulate_url(deck))

    assert response.status_code == 200
    assert "tuning_form" not in response.context
    assert response.context["tuning_refusals"]
    assert 'id="tuning-refused"' in response.content.decode()


def test_earlier_tunings_of_the_deck_are_listed_for_their_owner_only(
    owner: Any, owner_client: Client, friend: Any, friend_client: Client
) -> None:
    deck = tunable_deck(owner, visibility=Deck.Visibility.PUBLIC)
    job = new_tuning(owner, deck)

    mine = owner_client.get(simulate_url(deck))
    theirs = friend_client.get(simulate_url(deck))

    assert [listed.job for listed in mine.context["tunings"]] == [job]
    assert tuning_url(job) in mine.content.decode()
    assert theirs.context["tunings"] == []


# --- starting a tuning ------------------------------------------------------------------------


def test_sending_the_form_starts_a_tuning_and_opens_its_page(
    owner: Any, owner_client: Client
) -> None:
    deck = tunable_deck(owner)

    response = owner_client.post(tune_url(deck), form(sizes="on"))

    job = TuningJob.objects.get()
    assert response.status_code == 302 and response["Location"] == tuning_url(job)
    assert (job.owner, job.deck, job.goal, job.seed) == (owner, deck, engine_goal().code, 3)
    assert job.spec["sizes"] is True and job.spec["seconds"] == 1.0
    assert job.status == RunStatus.RUNNING


def test_an_unknown_goal_is_refused_on_its_field(owner: Any, owner_client: Client) -> None:
    response = owner_client.post(tune_url(tunable_deck(owner)), form(goal="nope"))

    assert response.status_code == 400
    assert field_errors(response, "goal")
    assert not TuningJob.objects.exists()


@pytest.mark.parametrize("turn", ["0", "past the limit"])
def test_a_turn_out_of_bounds_is_refused_on_its_field(
    owner: Any, owner_client: Client, turn: str
) -> None:
    goal = engine_goal(at_turn=True)
    engine = registry.engines()["unmatched"]
    last = turn_limit(engine, engine.params.clean({}))
    value = "0" if turn == "0" else str(last + 1)

    response = owner_client.post(tune_url(tunable_deck(owner)), form(goal=goal.code, turn=value))

    assert response.status_code == 400
    assert field_errors(response, "turn") == [f"Give a turn from 1 to {last}."]
    assert 'data-field="turn"' in response.content.decode()


def test_a_typed_card_that_names_no_card_is_refused_with_a_guess(
    owner: Any, owner_client: Client
) -> None:
    deck = tunable_deck(owner)
    name = deck.entries.filter(zone="deck").select_related("card").first().card.name_en  # type: ignore[union-attr]
    typo = name[:-1] + "x" + name[-1]

    response = owner_client.post(
        tune_url(deck), form(source=TuningSource.LIST, cards=f"{name}\n{typo}")
    )

    assert response.status_code == 400
    (message,) = field_errors(response, "cards")
    assert message.startswith(f"Line 2: no card of this game is called “{typo}”. Did you mean:")
    assert f"“{name}”" in message


@pytest.mark.parametrize("seconds", ["0", "0.5", "1e9"])
def test_a_budget_out_of_bounds_is_refused_on_its_field(
    owner: Any, owner_client: Client, seconds: str
) -> None:
    response = owner_client.post(tune_url(tunable_deck(owner)), form(budget_seconds=seconds))

    assert response.status_code == 400
    assert field_errors(response, "budget_seconds")[0].startswith("Give a number of seconds")


def test_a_seed_out_of_bounds_is_refused_on_its_field(owner: Any, owner_client: Client) -> None:
    response = owner_client.post(tune_url(tunable_deck(owner)), form(seed="-1"))

    assert response.status_code == 400
    assert field_errors(response, "seed")


def test_a_pin_must_be_a_card_of_the_deck(owner: Any, owner_client: Client) -> None:
    response = owner_client.post(tune_url(tunable_deck(owner)), form(pins="not-a-card"))

    assert response.status_code == 400
    assert field_errors(response, "pins")


@pytest.mark.parametrize(
    "overrides",
    [
        {"goal": "\x00"},
        {"turn": "99999999999999999999999"},
        {"budget_seconds": "nan"},
        {"budget_seconds": "inf"},
        {"seed": "99999999999999999999999"},
        {"source": "list", "cards": "\x00"},
        {"source": "list", "cards": "\n".join(f"line {n}" for n in range(500))},
        {"pins": "\x00"},
        {"source": "nowhere"},
    ],
)
def test_odd_form_input_is_refused_never_a_500(
    owner: Any, owner_client: Client, overrides: dict[str, str]
) -> None:
    response = owner_client.post(tune_url(tunable_deck(owner)), form(**overrides))

    assert response.status_code == 400
    # a NUL character is refused before any view (decklab/safe_input.py); the rest by the form
    if "\x00" not in "".join(overrides.values()):
        assert response.context["tuning_form"].errors
    assert not TuningJob.objects.exists()


def test_a_stranger_cannot_tune_a_private_deck_nor_can_anyone_signed_out(
    owner: Any, stranger_client: Client, client: Client
) -> None:
    deck = tunable_deck(owner)

    assert stranger_client.post(tune_url(deck), form()).status_code == 404
    signed_out = client.post(tune_url(deck), form())
    assert signed_out.status_code == 302 and "login" in signed_out["Location"]
    assert not TuningJob.objects.exists()


# --- the tuning's page ------------------------------------------------------------------------


def test_a_running_tuning_polls_itself_and_shows_the_field(
    owner: Any, owner_client: Client, django_assert_max_num_queries: Any
) -> None:
    job = new_tuning(owner)

    # the first read also hands the round's chunks to the queue (no worker took them here)
    with django_assert_max_num_queries(16):
        response = owner_client.get(tuning_url(job))

    assert response.status_code == 200
    body = response.content.decode()
    assert 'hx-trigger="every 1s"' in body and 'id="tuning-cancel-form"' in body
    assert f"0 of {len(job.moves)} moves still in the race" not in body
    assert f"{len(job.moves)} of {len(job.moves)} moves still in the race" in body
    assert "Round 1" in body
    # reading the page swept the round: its chunks went to the queue (no beat process here)
    assert RunChunk.objects.filter(run__tuning=job, status=ChunkStatus.QUEUED).exists()
    # a poll while all is well: the session, the job, its round and the sweep's one count
    with django_assert_max_num_queries(6):
        poll = owner_client.get(tuning_url(job), headers=HTMX)
    assert poll.status_code == 200 and 'hx-trigger="every 1s"' in poll.content.decode()


def test_a_finished_tuning_ranks_its_moves_and_stops_the_polling(
    owner: Any, owner_client: Client, django_assert_max_num_queries: Any
) -> None:
    job = finish(new_tuning(owner))

    with django_assert_max_num_queries(10):
        response = owner_client.get(tuning_url(job))
    poll = owner_client.get(tuning_url(job), headers=HTMX)

    assert response.status_code == 200 and poll.status_code == 286
    body = response.content.decode()
    assert "hx-trigger" not in body and "hx-trigger" not in poll.content.decode()
    rows = response.context["rows"]
    assert len(rows) == len(job.moves)
    assert rows[0].row.standing == "leader" and rows[0].standing == "best"
    assert rows[0].move.startswith("cut ") and " → add " in rows[0].move
    assert 'data-standing="leader"' in body
    # the forest plot: one row a move (the first 30), no inline style
    assert body.count('class="forest-row ') == min(30, len(job.moves))
    assert "<style" not in body and "style=" not in body.split('id="tuning-status"')[1]
    # the deck's owner may apply any move
    assert body.count(reverse("simulator:tuning-apply", args=[job.public_id])) == len(job.moves)


def test_a_dropped_move_says_after_which_round(owner: Any, owner_client: Client) -> None:
    job = finish(new_tuning(owner, budget_games=200_000))

    rows = owner_client.get(tuning_url(job)).context["rows"]

    dropped = [r for r in rows if r.row.standing == "dropped"]
    assert dropped, "a race of 200,000 plays drops the moves clearly behind"
    assert all(r.standing == f"dropped after round {r.row.dropped_in}" for r in dropped)
    standings = {r.row.standing for r in rows}
    assert standings <= {"leader", "close", "behind", "dropped"}


def test_a_rate_goal_shows_its_changes_in_percentage_points(
    owner: Any, owner_client: Client
) -> None:
    rate = next(g for g in registry.engines()["unmatched"].goals if g.kind == "rate")
    job = finish(new_tuning(owner, goal=rate.code))

    response = owner_client.get(tuning_url(job))

    context = response.context
    assert context["percent"] is True
    first = context["rows"][0]
    # the race's effect is a share of games; the page shows it in points
    assert first.change.value == pytest.approx(first.row.effect.value * rate.direction * 100)
    assert first.change.text.startswith(("+", "−", "0"))
    body = response.content.decode()
    assert "percentage points" in body
    assert f"<strong>{context['baseline'].text} %</strong>" in body


def test_the_forest_plot_draws_the_first_moves_with_an_estimate_only() -> None:
    rows = [ForestRow(f"move {k}", "behind", 0.5 - k / 100, 0.4 - k / 100, 0.6) for k in range(40)]
    rows.insert(3, ForestRow("not measured", "dropped", float("nan"), float("nan"), float("nan")))

    chart = forest(rows)

    assert chart is not None and len(chart.rows) == MAX_ROWS
    assert "not measured" not in [r.label for r in chart.rows]
    assert chart.plot_left <= chart.zero_x <= chart.plot_right
    for row in chart.rows:
        assert chart.plot_left <= row.x_low <= row.x <= row.x_high <= chart.plot_right
    assert forest([]) is None


def test_the_tuning_page_reads_in_japanese(owner: Any, owner_client: Client) -> None:
    job = finish(new_tuning(owner))
    owner_client.cookies["django_language"] = "ja"

    response = owner_client.get(tuning_url(job))

    body = response.content.decode()
    assert response.status_code == 200 and '<html lang="ja">' in body
    assert "成功" in body  # the status
    assert "ひとり回しシミュレーション" in body  # the way back to the deck's simulation page
    # the cards by their Japanese names (the factories name card N カードN)
    first = response.context["rows"][0].row
    assert first.add.name_ja in response.context["rows"][0].move
    assert first.add.name_ja in body


def test_a_tuning_is_private_to_its_owner(
    owner: Any, stranger_client: Client, client: Client
) -> None:
    job = new_tuning(owner)

    assert stranger_client.get(tuning_url(job)).status_code == 404
    assert stranger_client.get(tuning_url(job), headers=HTMX).status_code == 404
    signed_out = client.get(tuning_url(job))
    assert signed_out.status_code == 302 and "login" in signed_out["Location"]


# --- cancel -----------------------------------------------------------------------------------


def test_the_owner_cancels_a_running_tuning(owner: Any, owner_client: Client) -> None:
    job = new_tuning(owner)

    response = owner_client.post(reverse("simulator:tuning-cancel", args=[job.public_id]))

    job.refresh_from_db()
    assert response.status_code == 302 and response["Location"] == tuning_url(job)
    assert job.status == RunStatus.CANCELLED
    assert not SimulationRun.objects.filter(tuning=job, status=RunStatus.RUNNING).exists()
    page = owner_client.get(tuning_url(job)).content.decode()
    assert 'id="tuning-cancelled"' in page and "hx-trigger" not in page


def test_a_stranger_cannot_cancel_a_tuning(owner: Any, stranger_client: Client) -> None:
    job = new_tuning(owner)

    response = stranger_client.post(reverse("simulator:tuning-cancel", args=[job.public_id]))

    job.refresh_from_db()
    assert response.status_code == 404 and job.status == RunStatus.RUNNING


# --- apply ------------------------------------------------------------------------------------


def test_applying_the_best_move_saves_a_new_revision_and_names_the_missing_copies(
    owner: Any, owner_client: Client
) -> None:
    job = finish(new_tuning(owner))
    deck = job.deck
    assert deck is not None
    best = owner_client.get(tuning_url(job)).context["rows"][0]
    cut, add = job.moves[best.row.index]
    before = {e.card.code: e.quantity for e in deck.entries.select_related("card")}

    response = owner_client.post(
        reverse("simulator:tuning-apply", args=[job.public_id]), {"move": best.row.index}
    )

    assert response.status_code == 302 and response["Location"] == deck.get_absolute_url()
    assert DeckRevision.objects.filter(deck=deck).count() == 2
    after = {e.card.code: e.quantity for e in deck.entries.select_related("card")}
    assert after.get(add, 0) == before.get(add, 0) + 1
    assert after.get(cut, 0) == before[cut] - 1
    text = [str(m) for m in get_messages(response.wsgi_request)]
    assert len(text) == 1
    assert text[0].startswith(f"Applied “{best.move}”: the deck is now at revision 2.")
    # the player owns no card at all: every copy of the added card is missing
    assert "Your collection lacks" in text[0] and best.row.add.name in text[0]


def test_a_bad_move_index_is_refused_without_changing_the_deck(
    owner: Any, owner_client: Client
) -> None:
    job = finish(new_tuning(owner))

    response = owner_client.post(
        reverse("simulator:tuning-apply", args=[job.public_id]), {"move": "9999"}
    )

    assert response.status_code == 302 and response["Location"] == tuning_url(job)
    assert DeckRevision.objects.filter(deck=job.deck).count() == 1
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        "Choose one of this tuning's moves."
    ]


def test_only_the_decks_owner_applies_a_move(
    owner: Any, friend: Any, friend_client: Client, stranger_client: Client
) -> None:
    deck = tunable_deck(owner, visibility=Deck.Visibility.PUBLIC)
    theirs = finish(new_tuning(friend, deck))
    url = reverse("simulator:tuning-apply", args=[theirs.public_id])

    page = friend_client.get(tuning_url(theirs))
    assert page.status_code == 200 and page.context["can_apply"] is False
    assert friend_client.post(url, {"move": 0}).status_code == 404
    assert stranger_client.post(url, {"move": 0}).status_code == 404
    assert DeckRevision.objects.filter(deck=deck).count() == 1


# --- the player's runs ------------------------------------------------------------------------


def test_a_tunings_rounds_are_not_listed_among_the_players_runs(
    owner: Any, owner_client: Client
) -> None:
    job = finish(new_tuning(owner))
    assert SimulationRun.objects.filter(tuning=job).exists()

    assert list(runs_of_owner(user=owner)) == []
    response = owner_client.get(reverse("simulator:runs"))
    assert response.status_code == 200 and list(response.context["page"].object_list) == []


def test_a_chart_label_is_cut_by_its_drawn_width_so_japanese_fits_beside_the_plot() -> None:
    from simulator.views.forest import LABEL_CHARS, _cells, _short

    japanese = "キャプテン・メリディアン を抜いて ドクター・アンブラル を入れる"
    cut = _short(japanese)
    assert cut.endswith("…") and sum(map(_cells, cut)) <= LABEL_CHARS
    assert _short("cut Ironbark → add Doctor Umbral") == "cut Ironbark → add Doctor Umbral"
    assert sum(map(_cells, _short("x" * 80))) == LABEL_CHARS
