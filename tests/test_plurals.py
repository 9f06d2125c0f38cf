"""A count and its noun agree (issue 18: "1 maneuvers", "The missions has 0 cards", "Banana
Peel stay in hand", "1 observations", "1 items"): each sentence with a number of things takes
its singular or plural form from that number, in the engines' notes and plans (``NP_``), the
legality messages and the templates."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.utils import translation
from django.utils.safestring import SafeString
from django.utils.translation import gettext, ngettext

from decks.legality.check import check_deck
from games.monster_hunter.schedule import SETUP as MH_SETUP
from games.ouka_fushin.schedule import SETUP as OUKA_SETUP
from games.unmatched.schedule import SETUP as UNMATCHED_SETUP
from simulator.engine.i18n import NP_, in_english, render
from simulator.engine.setup import GameSetup
from simulator.views.results import Chart, ResultsView
from tests.conftest import demo_deck
from tests.decks.legality_builders import MH, card, entry, legal_monster_hunter, legal_ouka_fushin


@pytest.mark.parametrize(
    ("setup", "param", "one", "two"),
    [
        (
            UNMATCHED_SETUP,
            "per_turn",
            "1 maneuver a turn is assumed",
            "2 maneuvers a turn are assumed",
        ),
        (MH_SETUP, "per_turn", "assume 1 card used a turn", "assume 2 cards used a turn"),
        (OUKA_SETUP, "used_per_turn", "with 1 card used a turn", "with 2 cards used a turn"),
    ],
)
def test_an_odds_note_agrees_with_its_number(
    setup: GameSetup, param: str, one: str, two: str
) -> None:
    with translation.override("en"):
        note_one = setup.note_for(setup.schedule_with({param: 1}), gettext, ngettext)
        note_two = setup.note_for(setup.schedule_with({param: 2}), gettext, ngettext)
    assert one in note_one and two in note_two


@pytest.mark.django_db
@pytest.mark.usefixtures("committed_catalogs")
def test_the_odds_api_says_one_maneuver(owner: Any, owner_client: Client) -> None:
    deck = demo_deck("unmatched", owner)
    body = owner_client.get(
        f"/api/v1/decks/{deck.public_id}/odds/",
        {"group": f"type:{deck.entries.first().card.card_type}", "per_turn": 1},
        HTTP_ACCEPT_LANGUAGE="en",
    ).json()
    assert "1 maneuver a turn is assumed" in body["schedule"]["note"]
    assert "1 maneuvers" not in str(body)


def test_a_plural_is_rendered_with_the_readers_ngettext() -> None:
    text = NP_("%(n)d card stays.", "%(n)d cards stay.", "n")
    assert in_english(text, {"n": 1}) == "1 card stays."
    assert in_english(text, {"n": 0}) == "0 cards stay."
    # the form is picked by the reader's ngettext, not by English's rule
    picked: list[int] = []

    def fake_ngettext(one: str, other: str, n: int) -> str:
        picked.append(n)
        return other

    assert render(text, {"n": 1}, gettext, fake_ngettext) == "1 cards stay."
    assert picked == [1]


def test_a_zone_named_in_a_size_problem_reads_as_one_zone() -> None:
    problems = check_deck(legal_ouka_fushin(missions=[]))
    with translation.override("en"):
        messages = [p.message.render("en") for p in problems if p.code == "missions-count"]
    assert messages == ["The mission zone has 0 cards; it must have exactly 2."]


def test_a_copy_limit_of_one_is_said_in_the_singular() -> None:
    unique = card("unique", MH, "monster", name_en="Lone Wyvern", copy_limit=1)
    problems = check_deck(legal_monster_hunter(main=38, extra=[entry(unique, "main", 2)]))
    (limit,) = [p for p in problems if p.expected == 1]
    assert limit.message.render("en") == "Lone Wyvern: 2 copies; at most 1 is allowed."


def _results(games: int, observations: int) -> str:
    chart = Chart(
        key="damage",
        title="Damage",
        svg=SafeString(""),
        kind="distribution",
        rows=[],
        observations=observations,
    )
    view = ResultsView(games=games, rates=[], means=[], charts=[chart])
    with translation.override("en"):
        return render_to_string("simulator/_results.html", {"results": view})


def test_the_results_say_one_observation_and_one_game() -> None:
    one = _results(1, 1)
    assert "— 1 observation" in one
    assert "1 observations" not in one and "Over 1 game;" in one
    many = _results(1200, 1200)
    assert "1,200 observations" in many and "Over 1,200 games;" in many


def test_the_run_status_says_one_chunk() -> None:
    run = SimpleNamespace(
        status="succeeded",
        is_finished=True,
        chunks_done=1,
        chunks_total=1,
        chunk_size=500,
        worker_seconds=0.5,
        estimated_seconds=0,
        public_id="r1",
        get_status_display="Succeeded",
    )
    with translation.override("en"):
        html = render_to_string("simulator/_run_status.html", {"run": run})
    assert "1 of 1 chunk" in html and "1 of 1 chunks" not in html
    assert "1 chunk of up to 500 games" in html


def test_an_attribute_list_bound_of_one_is_said_in_the_singular() -> None:
    from django.core.exceptions import ValidationError

    from catalog.attributes import ChoiceListField

    field = ChoiceListField(choices=(("a", "A"), ("b", "B")), max_items=1)
    with translation.override("en"), pytest.raises(ValidationError) as raised:
        field.clean(["a", "b"])
    assert raised.value.messages == ["At most 1 value."]
    field = ChoiceListField(choices=(("a", "A"), ("b", "B"), ("c", "C")), max_items=2)
    with translation.override("en"), pytest.raises(ValidationError) as raised:
        field.clean(["a", "b", "c"])
    assert raised.value.messages == ["At most 2 values."]
