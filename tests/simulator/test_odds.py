"""Exact odds: they agree with dealing many hands, respect their boundaries, read groups from
the game's facets, and are served by the odds panel and the API with every 400 naming its
field."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, include, path

from catalog.models import Card
from catalog.spec import get_game
from decklab import urls as project_urls
from decks.models import Deck
from games import registry
from simulator.decks import sim_deck_for
from simulator.engine.cards import SimCard, SimDeck
from simulator.engine.odds import OddsError, at_least, by_turn
from simulator.engine.schedule import DrawSchedule
from simulator.testhands.dealing import (
    GROUP_NOT_A_NUMBER,
    GROUP_NOT_A_RANGE,
    GROUP_SYNTAX,
    GROUP_UNKNOWN_ATTRIBUTE,
    GROUP_UNKNOWN_CARD,
    GROUP_UNKNOWN_TYPE,
    GROUP_UNKNOWN_VALUE,
    Group,
    GroupError,
    deal,
    game_setup,
    group_odds,
    group_size,
    parse_group,
    turn_odds,
)
from simulator.testhands.forms import facet_rules, group_choices
from tests.conftest import DEMO_PRODUCTS, demo_deck

urlpatterns: list[URLPattern | URLResolver] = [
    path("decks/<str:public_id>/", include("simulator.testhands.urls")),
    path("api/v1/", include("simulator.testhands.api")),
    *project_urls.urlpatterns,
]

pytestmark = [pytest.mark.django_db, pytest.mark.urls(__name__)]

PRODUCTS = DEMO_PRODUCTS
DEALS = 20_000
#: two-sided 99.9 % normal quantile
Z_999 = 3.2905


@pytest.fixture(autouse=True)
def _catalogs(committed_catalogs: None, db: None) -> None:
    """Every test here may read the catalogs."""


def deck_of(slug: str, owner: Any, visibility: str = Deck.Visibility.PUBLIC) -> Deck:
    deck: Deck = demo_deck(slug, owner, visibility)
    return deck


def group_of(sim: SimDeck, text: str) -> Group:
    spec = get_game(sim.game)
    return parse_group(text, deck=sim, types=spec.card_type_codes, facets=facet_rules(spec))


def wilson(hits: int, n: int, z: float = Z_999) -> tuple[float, float]:
    """The Wilson score interval of a proportion (sound at 0 and 1 hits too)."""
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


def monte_carlo(
    sim: SimDeck, member: Callable[[SimCard], bool], k: int, seen: dict[int, int]
) -> dict[int, int]:
    """In how many of DEALS shuffles (seeds 0..DEALS-1) at least ``k`` cards for which
    ``member`` holds were among the first ``seen[turn]`` cards, for each turn. The whole pile
    is dealt at once (an opening hand of the deck's size), so neither the game's schedule
    nor the group matcher under test decides what is counted."""
    whole = DrawSchedule(opening=sim.size, per_turn=0)
    is_member = [member(card) for card in sim.cards]
    hits = dict.fromkeys(seen, 0)
    for seed in range(DEALS):
        pile = deal(sim, seed=seed, turns=0, schedule=whole).hand
        assert len(pile) == sim.size
        for turn, n in seen.items():
            if sum(is_member[i] for i in pile[:n]) >= k:
                hits[turn] += 1
    return hits


# --- Exact odds agree with dealing -----------------------------------------------------------


def rank_at_least_3(card: SimCard) -> bool:
    return card.card_type == "monster" and int(card.attributes["rank"]) >= 3


#: (game, group, the group's cards matched here, k, turn -> cards seen by then, schedule
#: numbers). The cards seen are worked out from the rules, not asked of the schedule:
#: Monster Hunter fills 6, draws nothing on turn 1 and then ``per_turn`` (2) a turn
#: (monster-hunter.md:38, 45); 央華封神 6, then 2 a turn from turn 1 (ouka-fushin.md:45-46, 56);
#: Recharge 1, then 1 a turn (recharge.md:33); Unmatched 5, then 1 maneuver a turn
#: (unmatched.md:23, 27); Mattsan the opening asked (7), then 1 a turn (mattsan.md:19).
CASES: list[tuple[str, str, Callable[[SimCard], bool], int, dict[int, int], dict[str, int]]] = [
    (
        "monster-hunter",
        "type:monster",
        lambda c: c.card_type == "monster",
        2,
        {0: 6, 1: 6, 2: 8, 4: 12},
        {},
    ),
    ("monster-hunter", "attr:rank>=3", rank_at_least_3, 1, {0: 6, 3: 12, 8: 27}, {"per_turn": 3}),
    (
        "ouka-fushin",
        "attr:school=goton",
        lambda c: c.attributes.get("school") == "goton",
        2,
        {0: 6, 1: 8, 3: 12},
        {},
    ),
    ("recharge", "type:hero", lambda c: c.card_type == "hero", 3, {0: 1, 2: 3, 5: 6, 12: 13}, {}),
    ("unmatched", "card:feint", lambda c: c.code == "feint", 2, {0: 5, 4: 9, 10: 15, 20: 25}, {}),
    (
        "mattsan",
        "type:trump",
        lambda c: c.card_type == "trump",
        1,
        {0: 7, 2: 9, 6: 13},
        {"opening": 7},
    ),
]


def test_the_cases_cover_every_game() -> None:
    assert {case[0] for case in CASES} == set(registry.slugs())


@pytest.mark.parametrize(
    ("slug", "text", "member", "k", "seen", "numbers"),
    CASES,
    ids=[f"{case[0]}-{case[1]}" for case in CASES],
)
def test_exact_odds_lie_in_the_999_interval_of_20000_deals(
    owner: Any,
    slug: str,
    text: str,
    member: Callable[[SimCard], bool],
    k: int,
    seen: dict[int, int],
    numbers: dict[str, int],
) -> None:
    sim = sim_deck_for(deck_of(slug, owner))
    setup = game_setup(slug)
    schedule = setup.schedule_with(setup.params.clean(numbers))
    group = group_of(sim, text)
    # the matcher under test finds the cards matched here, and there are some to find
    expected_size = sum(member(sim.cards[i]) for i in sim.pile())
    assert 0 < group_size(sim, group) == expected_size < sim.size
    rows = group_odds(sim, group, k=k, schedule=schedule, turns=max(seen)).rows
    exact = {r.turn: r.probability for r in rows}
    assert {t: rows[t].seen for t in seen} == seen  # the schedule sees what the rules say
    hits = monte_carlo(sim, member, k, seen)
    for turn in seen:
        low, high = wilson(hits[turn], DEALS)
        assert low <= exact[turn] <= high, (
            f"{slug} {text} k={k} turn {turn}: exact {exact[turn]:.4f}, dealt "
            f"{hits[turn] / DEALS:.4f} [{low:.4f}, {high:.4f}]"
        )


def test_the_comparison_would_catch_a_schedule_one_draw_off(owner: Any) -> None:
    """The test above has teeth: Monster Hunter's turn 2 with a draw on turn 1 too (10 cards
    seen instead of 8) is far outside what dealing 8 cards gives."""
    sim = sim_deck_for(deck_of("monster-hunter", owner))
    group = group_of(sim, "type:monster")
    hits = monte_carlo(sim, lambda c: c.card_type == "monster", 4, {2: 8})
    low, high = wilson(hits[2], DEALS)
    wrong = group_odds(
        sim, group, k=4, schedule=DrawSchedule(6, 2, draws_on_first_turn=True), turns=2
    ).rows[2]
    assert not low <= wrong.probability <= high


def test_the_vectorised_table_equals_the_engines_by_turn_value_for_value() -> None:
    schedules = [
        DrawSchedule(6, 2, False),
        DrawSchedule(1, 1),
        DrawSchedule(5, 1),
        DrawSchedule(6, 0),
    ]
    for schedule in schedules:
        for deck in (0, 1, 10, 30, 47):
            for group in sorted({0, min(1, deck), deck // 3, deck}):
                for k in (0, 1, 2, 4, 10, 31):
                    fast = turn_odds(k, group=group, deck=deck, schedule=schedule, turns=30)
                    assert fast == by_turn(k, group=group, deck=deck, schedule=schedule, turns=30)


def test_the_vectorised_table_refuses_what_the_engine_refuses() -> None:
    schedule = DrawSchedule(5, 1)
    for kwargs, field in (
        ({"k": 1, "group": 5, "deck": 4, "turns": 3}, "group"),
        ({"k": -1, "group": 1, "deck": 4, "turns": 3}, "k"),
        ({"k": 1, "group": 1, "deck": 4, "turns": 101}, "turns"),
    ):
        with pytest.raises(OddsError) as refused:
            turn_odds(schedule=schedule, **kwargs)
        assert refused.value.field == field


# --- Boundaries ------------------------------------------------------------------------------


def test_at_least_zero_is_certain() -> None:
    assert at_least(0, group=0, deck=40, seen=0) == 1.0
    assert at_least(0, group=5, deck=40, seen=6) == 1.0


def test_more_than_the_group_holds_is_impossible(owner: Any) -> None:
    sim = sim_deck_for(deck_of("unmatched", owner))
    feint = group_of(sim, "card:feint")
    assert group_size(sim, feint) == 3
    rows = group_odds(sim, feint, k=4, schedule=game_setup("unmatched").schedule, turns=30).rows
    assert {r.probability for r in rows} == {0.0}


def test_once_the_whole_deck_is_seen_the_group_is_certain(owner: Any) -> None:
    sim = sim_deck_for(deck_of("unmatched", owner))
    feint = group_of(sim, "card:feint")
    rows = group_odds(sim, feint, k=3, schedule=game_setup("unmatched").schedule, turns=30).rows
    assert rows[25].seen == 30 and rows[25].probability == 1.0
    assert rows[30].seen == 30 and rows[30].probability == 1.0  # never more than the deck
    assert rows[24].probability < 1.0
    assert at_least(3, group=3, deck=30, seen=45) == 1.0


def test_more_than_the_hand_holds_is_impossible() -> None:
    assert at_least(7, group=20, deck=40, seen=6) == 0.0


# --- Groups ----------------------------------------------------------------------------------


def test_groups_read_cards_types_and_the_games_facets(owner: Any) -> None:
    sim = sim_deck_for(deck_of("monster-hunter", owner))
    assert group_size(sim, group_of(sim, "type:monster")) == 16
    assert group_size(sim, group_of(sim, "card:MHD-025")) == 4
    assert group_size(sim, group_of(sim, "attr:weapon_icon=great-sword")) == 10  # choice
    assert group_size(sim, group_of(sim, "attr:item_icons=meat")) == 13  # list membership
    assert group_size(sim, group_of(sim, "attr:rank>=3")) == 4  # a number, at least
    assert group_size(sim, group_of(sim, "attr:weapon_icon=bow")) == 0  # a value not held
    assert str(group_of(sim, " attr:rank >= 03 ")) == "attr:rank>=3"
    recharge = sim_deck_for(deck_of("recharge", owner))
    assert group_size(recharge, group_of(recharge, "attr:special=true")) == 2  # yes/no


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("banana", GROUP_SYNTAX),
        ("card:", GROUP_SYNTAX),
        ("attr:rank", GROUP_SYNTAX),
        ("colour:red", GROUP_SYNTAX),
        ("card:NOPE-1", GROUP_UNKNOWN_CARD),
        ("card:MHD-001", GROUP_UNKNOWN_CARD),  # the hunter is beside the deck, never drawn
        ("type:hunter2", GROUP_UNKNOWN_TYPE),
        ("attr:colour=red", GROUP_UNKNOWN_ATTRIBUTE),
        ("attr:weapon_icon>=2", GROUP_NOT_A_RANGE),
        ("attr:rank=high", GROUP_NOT_A_NUMBER),
        ("attr:rank>=-1", GROUP_NOT_A_NUMBER),
        ("attr:weapon_icon=spear", GROUP_UNKNOWN_VALUE),
    ],
)
def test_a_group_that_cannot_be_read_says_why(owner: Any, text: str, message: str) -> None:
    sim = sim_deck_for(deck_of("monster-hunter", owner))
    with pytest.raises(GroupError) as refused:
        group_of(sim, text)
    assert refused.value.message == message


def test_the_panel_offers_the_decks_cards_types_and_facet_values(owner: Any) -> None:
    sim = sim_deck_for(deck_of("monster-hunter", owner))
    choices = dict(group_choices(get_game("monster-hunter"), sim))
    assert set(choices) == {"Cards", "Card types", "Attributes"}
    attributes = dict(choices["Attributes"])
    assert attributes["attr:weapon_icon=great-sword"] == "Weapon icon: Great sword (10)"
    assert attributes["attr:item_icons=meat"] == "Item icon: Meat (13)"
    assert attributes["attr:rank>=3"] == "Rank ≥ 3 (4)"
    assert "card:MHD-001" not in dict(choices["Cards"])  # the hunter is not in the deck
    # every offered group reads back as itself
    for _name, options in choices.items():
        for value, _label in options:
            assert str(group_of(sim, value)) == value


# --- The panel -------------------------------------------------------------------------------


def odds_url(deck: Deck, query: str = "") -> str:
    return f"/decks/{deck.public_id}/odds/{query}"


def table(html: str) -> dict[int, float]:
    return {
        int(turn): float(p)
        for turn, p in re.findall(r'<tr data-turn="(\d+)" data-probability="([^"]+)"', html)
    }


def test_the_odds_page_answers_a_question_turn_by_turn(client: Client, owner: Any) -> None:
    deck = deck_of("ouka-fushin", owner)
    response = client.get(odds_url(deck, "?group=type:climax&k=2&turns=5"))
    assert response.status_code == 200
    html = response.content.decode()
    rows = table(html)
    assert sorted(rows) == [0, 1, 2, 3, 4, 5]
    for turn, p in rows.items():
        seen = 6 + 2 * turn  # the first player draws on its first turn
        assert p == pytest.approx(at_least(2, group=8, deck=47, seen=seen), abs=1e-11)
    assert "As the first player" in html  # the game's note, among the assumptions


def test_the_odds_page_opens_on_the_first_card_type(client: Client, owner: Any) -> None:
    html = client.get(odds_url(deck_of("monster-hunter", owner))).content.decode()
    assert 'data-odds-question="type:monster"' in html
    assert len(table(html)) == 11  # turns 0-10 by default


def test_htmx_gets_the_result_alone_or_the_whole_panel(client: Client, owner: Any) -> None:
    deck = deck_of("recharge", owner)
    htmx = {"HX-Request": "true"}
    result = client.get(odds_url(deck, "?group=type:hero&k=1&turns=3"), headers=htmx)
    html = result.content.decode()
    assert "<html" not in html and "<form" not in html and len(table(html)) == 4
    panel = client.get(odds_url(deck, "?panel=1"), headers=htmx).content.decode()
    assert panel.lstrip().startswith('<section class="card odds-panel"')
    assert 'hx-target="#odds-result"' in panel and len(table(panel)) == 11


def test_a_shared_question_about_a_value_the_deck_lacks_still_answers(
    client: Client, owner: Any
) -> None:
    html = client.get(
        odds_url(deck_of("monster-hunter", owner), "?group=attr:weapon_icon=bow&turns=2")
    ).content.decode()
    assert set(table(html).values()) == {0.0}
    assert '<option value="attr:weapon_icon=bow" selected>' in html


def test_monster_hunters_cards_used_a_turn_change_the_odds(client: Client, owner: Any) -> None:
    deck = deck_of("monster-hunter", owner)
    two = table(client.get(odds_url(deck, "?group=type:item&turns=3")).content.decode())
    four = table(client.get(odds_url(deck, "?group=type:item&turns=3&per_turn=4")).content.decode())
    assert two[1] == four[1] == pytest.approx(at_least(1, group=8, deck=40, seen=6))
    assert two[3] == pytest.approx(at_least(1, group=8, deck=40, seen=10))
    assert four[3] == pytest.approx(at_least(1, group=8, deck=40, seen=14))


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("?group=type:monster&k=0", "k"),
        ("?group=type:monster&k=11", "k"),
        ("?group=type:monster&k=x", "k"),
        ("?group=type:monster&turns=31", "turns"),
        ("?group=type:monster&turns=-1", "turns"),
        ("?group=bogus", "group"),
        ("?group=attr:nope=1", "group"),
        ("?group=type:monster&per_turn=7", "per_turn"),
        ("?group=type:monster&opening=5", "opening"),
    ],
)
def test_a_bad_question_is_400_naming_the_field(
    client: Client, owner: Any, query: str, field: str
) -> None:
    deck = deck_of("monster-hunter", owner)
    for headers in ({}, {"HX-Request": "true"}):
        response = client.get(odds_url(deck, query), headers=headers)
        assert response.status_code == 400
        assert f'<li data-field="{field}">' in response.content.decode()


def test_private_odds_are_404_to_everyone_but_the_owner(
    owner: Any, owner_client: Client, stranger_client: Client, client: Client
) -> None:
    deck = deck_of("mattsan", owner, visibility=Deck.Visibility.PRIVATE)
    assert owner_client.get(odds_url(deck)).status_code == 200
    assert stranger_client.get(odds_url(deck)).status_code == 404
    assert client.get(odds_url(deck)).status_code == 404


def test_the_test_hand_page_carries_the_odds_panel(client: Client, owner: Any) -> None:
    deck = deck_of("mattsan", owner)
    html = client.get(
        f"/decks/{deck.public_id}/test-hand/?seed=3&turn=0&opening=6"
    ).content.decode()
    assert 'id="odds-panel"' in html
    assert 'name="opening" value="6"' in html  # the panel asks with the hand's opening
    assert table(html)[0] == pytest.approx(at_least(1, group=16, deck=30, seen=6))


def test_the_deck_page_snippets_link_the_test_hand_and_load_the_panel(
    client: Client, owner: Any
) -> None:
    from django.template.loader import render_to_string

    deck = deck_of("recharge", owner)
    links = render_to_string("simulator/testhand/_deck_links.html", {"deck": deck})
    assert f'href="/decks/{deck.public_id}/test-hand/"' in links
    loader = render_to_string("simulator/testhand/_deck_odds.html", {"deck": deck})
    panel_url = f"/decks/{deck.public_id}/odds/?panel=1"
    assert f'hx-get="{panel_url}"' in loader and 'hx-trigger="load"' in loader
    assert f'href="/decks/{deck.public_id}/odds/"' in loader  # without JavaScript
    panel = client.get(panel_url, headers={"HX-Request": "true"}).content.decode()
    assert 'id="odds-panel"' in panel and "<html" not in panel


def test_an_odds_answer_takes_a_fixed_number_of_queries(
    client: Client, owner: Any, django_assert_max_num_queries: Any
) -> None:
    deck = deck_of("unmatched", owner)
    with django_assert_max_num_queries(3):
        assert (
            client.get(
                odds_url(deck, "?group=card:feint"), headers={"HX-Request": "true"}
            ).status_code
            == 200
        )


# --- The API ---------------------------------------------------------------------------------


def api_url(deck: Deck, query: str) -> str:
    return f"/api/v1/decks/{deck.public_id}/odds/{query}"


def test_the_api_gives_the_exact_chance_by_turn(client: Client, owner: Any) -> None:
    deck = deck_of("unmatched", owner)
    data = client.get(api_url(deck, "?group=attr:value>=3&k=2&turns=6")).json()
    assert (data["group"], data["group_size"], data["deck_size"], data["k"]) == (
        "attr:value>=3",
        15,
        30,
        2,
    )
    assert data["group_label"] == "Value ≥ 3"
    assert [r["seen"] for r in data["rows"]] == [5, 6, 7, 8, 9, 10, 11]
    for row in data["rows"]:
        assert row["probability"] == pytest.approx(at_least(2, group=15, deck=30, seen=row["seen"]))
    assert data["schedule"]["opening"] == 5 and data["assumptions"]


def test_the_api_names_cards_in_the_asked_language(client: Client, owner: Any) -> None:
    deck = deck_of("monster-hunter", owner)
    card = Card.objects.get(code="MHD-025")
    ja = client.get(api_url(deck, "?group=card:MHD-025"), headers={"Accept-Language": "ja"})
    en = client.get(api_url(deck, "?group=card:MHD-025"), headers={"Accept-Language": "en"})
    assert (ja.json()["group_label"], en.json()["group_label"]) == (card.name_ja, card.name_en)


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("?k=1", "group"),
        ("?group=", "group"),
        ("?group=type:nope", "group"),
        ("?group=type:hero&k=11", "k"),
        ("?group=type:hero&turns=31", "turns"),
        ("?group=type:hero&per_turn=2", "per_turn"),
    ],
)
def test_the_api_refuses_bad_questions_naming_the_field(
    client: Client, owner: Any, query: str, field: str
) -> None:
    response = client.get(api_url(deck_of("recharge", owner), query))
    assert response.status_code == 400
    assert list(response.json()) == [field]


def test_the_api_hides_private_decks(
    owner: Any, owner_client: Client, stranger_client: Client
) -> None:
    deck = deck_of("ouka-fushin", owner, visibility=Deck.Visibility.PRIVATE)
    assert owner_client.get(api_url(deck, "?group=type:story")).status_code == 200
    assert stranger_client.get(api_url(deck, "?group=type:story")).status_code == 404


def test_the_api_is_documented() -> None:
    from drf_spectacular.generators import SchemaGenerator

    api = [path("api/v1/", include("simulator.testhands.api"))]
    schema = SchemaGenerator(patterns=api).get_schema(request=None, public=True)
    odds = schema["paths"]["/api/v1/decks/{public_id}/odds/"]["get"]
    hand = schema["paths"]["/api/v1/decks/{public_id}/test-hand/"]["get"]
    assert {"group", "k", "turns", "opening", "per_turn"} <= {p["name"] for p in odds["parameters"]}
    assert {"seed", "turns"} <= {p["name"] for p in hand["parameters"]}
    assert {"200", "400", "404"} <= set(odds["responses"]) & set(hand["responses"])
