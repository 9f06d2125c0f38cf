"""Test hands: dealt by each game's opening rules, replayed by their seed, shown a turn at a
time, private to their owner; and the test hand API."""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, include, path

from decklab import urls as project_urls
from decks.models import Deck
from games import registry
from simulator.decks import deck_facts_light, sim_deck_for
from simulator.engine.cards import SimCard, SimDeck
from simulator.engine.schedule import DrawSchedule
from simulator.testhands.dealing import deal, game_setup
from tests.conftest import DEMO_PRODUCTS, demo_deck

# The pages and the API as the project will mount them (ahead of the project's own URLs).
urlpatterns: list[URLPattern | URLResolver] = [
    path("decks/<str:public_id>/", include("simulator.testhands.urls")),
    path("api/v1/", include("simulator.testhands.api")),
    *project_urls.urlpatterns,
]

pytestmark = [pytest.mark.django_db, pytest.mark.urls(__name__)]

#: a deck-making product of each game's committed catalog
PRODUCTS = DEMO_PRODUCTS
#: every registered game
SLUGS = registry.slugs()
#: (opening hand, cards drawn at turns 1, 2, 3) by each game's rules (shared/rules/*.md)
EXPECTED_DRAWS = {
    "monster-hunter": (6, 0, 2, 2),  # filled to 6 in the first hand phase, refilled after
    "ouka-fushin": (6, 2, 2, 2),  # the first player draws 2 on its first turn too
    "recharge": (1, 1, 1, 1),
    "unmatched": (5, 1, 1, 1),  # one maneuver a turn by default
    "mattsan": (5, 1, 1, 1),  # opening 5 is our documented default
}


@pytest.fixture(autouse=True)
def _catalogs(committed_catalogs: None, db: None) -> None:
    """Every test here may read the catalogs."""


def test_every_registered_game_has_a_demo_deck_and_its_expected_draws() -> None:
    assert set(PRODUCTS) == set(SLUGS)
    assert set(EXPECTED_DRAWS) == set(SLUGS)


def deck_of(slug: str, owner: Any, visibility: str = Deck.Visibility.PUBLIC) -> Deck:
    deck: Deck = demo_deck(slug, owner, visibility)
    return deck


def tiny_deck(size: int) -> SimDeck:
    cards = tuple(
        SimCard(index=i, code=f"c{i}", name=f"Card {i}", card_type="x") for i in range(size)
    )
    return SimDeck(
        game="test",
        cards=cards,
        zones={"main": tuple((i, 1) for i in range(size))},
        draw_zone="main",
    )


def page_cards(html: str, turn: int) -> list[str]:
    """The card codes a page shows for ``turn``, in order."""
    section = re.search(rf'data-turn="{turn}" data-drawn="\d+".*?</section>', html, re.S)
    assert section, f"turn {turn} is not on the page"
    return re.findall(r'<li [^>]*data-card="([^"]+)"', section.group(0))


# --- Dealing ---------------------------------------------------------------------------------


@pytest.mark.parametrize("slug", SLUGS)
def test_each_game_deals_its_opening_hand_and_turns_by_its_rules(slug: str, owner: Any) -> None:
    sim = sim_deck_for(deck_of(slug, owner))
    schedule = game_setup(slug).schedule
    assert schedule == registry.get(slug).setup.schedule
    dealt = deal(sim, seed=7, turns=3, schedule=schedule)
    assert tuple(len(d.cards) for d in dealt.draws) == EXPECTED_DRAWS[slug]
    assert [d.turn for d in dealt.draws] == [0, 1, 2, 3]


@pytest.mark.parametrize("slug", SLUGS)
def test_no_card_is_dealt_twice_and_dealing_stops_at_an_empty_deck(slug: str, owner: Any) -> None:
    sim = sim_deck_for(deck_of(slug, owner))
    schedule = game_setup(slug).schedule
    dealt = deal(sim, seed=11, turns=60, schedule=schedule)
    assert Counter(dealt.hand) == Counter(sim.pile())  # every card once, and nothing else
    assert dealt.remaining == 0
    assert dealt.ran_out_at is not None
    # until the deck ran out, each turn drew exactly what the schedule says
    for draw in dealt.draws:
        assert draw.wanted == schedule.drawn_at_turn(draw.turn)
        if draw.turn < dealt.ran_out_at:
            assert draw.missing == 0
        if draw.turn > dealt.ran_out_at:
            assert draw.cards == ()


def test_an_empty_deck_gives_what_is_left_and_counts_the_rest_missing() -> None:
    dealt = deal(tiny_deck(9), seed=1, turns=3, schedule=DrawSchedule(6, 2, False))
    assert [len(d.cards) for d in dealt.draws] == [6, 0, 2, 1]
    assert [d.missing for d in dealt.draws] == [0, 0, 0, 1]
    assert (dealt.remaining, dealt.missing, dealt.ran_out_at) == (0, 1, 3)
    nothing = deal(tiny_deck(0), seed=1, turns=2, schedule=DrawSchedule(5, 1))
    assert nothing.hand == [] and nothing.missing == 7


def test_the_same_seed_always_deals_the_same_cards_whatever_the_global_random_state() -> None:
    deck, schedule = tiny_deck(40), DrawSchedule(6, 2, False)
    random.seed(1)
    first = deal(deck, seed=123456, turns=5, schedule=schedule)
    random.seed(2)
    random.random()
    again = deal(deck, seed=123456, turns=5, schedule=schedule)
    assert again.draws == first.draws


def test_different_seeds_deal_different_hands() -> None:
    deck, schedule = tiny_deck(40), DrawSchedule(6, 2, False)
    openings = {tuple(deal(deck, seed=s, turns=0, schedule=schedule).hand) for s in range(200)}
    assert len(openings) == 200


def test_a_later_turn_keeps_every_earlier_draw() -> None:
    deck, schedule = tiny_deck(30), DrawSchedule(5, 1)
    short = deal(deck, seed=99, turns=3, schedule=schedule)
    long = deal(deck, seed=99, turns=10, schedule=schedule)
    assert long.draws[:4] == short.draws


def test_mattsans_opening_hand_is_a_parameter_with_a_documented_default() -> None:
    setup = game_setup("mattsan")
    assert setup.params.defaults == {"opening": 5}
    assert setup.schedule_with(setup.params.clean({"opening": 7})).opening == 7
    with pytest.raises(ValueError, match="opening"):
        setup.params.clean({"opening": 11})


# --- The page --------------------------------------------------------------------------------


def hand_url(deck: Deck, query: str = "") -> str:
    return f"/decks/{deck.public_id}/test-hand/{query}"


def test_a_hand_without_a_seed_gets_a_fresh_one_in_its_address(
    owner_client: Client, owner: Any
) -> None:
    deck = deck_of("monster-hunter", owner)
    response = owner_client.get(hand_url(deck))
    assert response.status_code == 302
    assert re.search(r"\?seed=\d+&turn=0$", response["Location"])
    other = owner_client.get(hand_url(deck))["Location"]
    assert other != response["Location"]


def test_the_seed_in_the_address_replays_the_same_hand(client: Client, owner: Any) -> None:
    deck = deck_of("ouka-fushin", owner)
    first = client.get(hand_url(deck, "?seed=123456&turn=2")).content.decode()
    again = client.get(hand_url(deck, "?seed=123456&turn=2")).content.decode()
    other = client.get(hand_url(deck, "?seed=654321&turn=2")).content.decode()
    shown = [page_cards(first, t) for t in range(3)]
    assert [len(cards) for cards in shown] == [6, 2, 2]
    assert [page_cards(again, t) for t in range(3)] == shown
    assert [page_cards(other, t) for t in range(3)] != shown
    # the page shows what deal() deals for that seed
    sim = sim_deck_for(deck)
    dealt = deal(sim, seed=123456, turns=2, schedule=game_setup("ouka-fushin").schedule)
    assert shown == [[sim.cards[i].code for i in d.cards] for d in dealt.draws]


def test_draw_next_turn_reveals_one_more_turn(client: Client, owner: Any) -> None:
    deck = deck_of("unmatched", owner)
    page = client.get(hand_url(deck, "?seed=42&turn=0")).content.decode()
    link = re.search(r'href="([^"]+)" hx-get="([^"]+)"[^>]*hx-push-url="true" data-next-turn', page)
    assert link and link.group(1) == link.group(2)
    next_url = link.group(1).replace("&amp;", "&")
    assert next_url.endswith("?seed=42&turn=1")
    fragment = client.get(next_url, headers={"HX-Request": "true"}).content.decode()
    assert fragment.lstrip().startswith('<div id="test-hand"')
    assert "<html" not in fragment
    assert page_cards(fragment, 0) == page_cards(page, 0)
    assert len(page_cards(fragment, 1)) == 1
    assert 'data-turn="2"' not in fragment
    assert "?seed=42&amp;turn=2" in fragment  # the next click reveals turn 2


def test_each_game_shows_its_schedule_note(client: Client, owner: Any) -> None:
    deck = deck_of("mattsan", owner)
    page = client.get(hand_url(deck, "?seed=1&turn=0")).content.decode()
    assert game_setup("mattsan").note in page
    assert "Opening hand: 5 cards; then 1 card a turn from turn 1." in page


def test_mattsans_opening_hand_follows_the_address_and_stays_in_the_links(
    client: Client, owner: Any
) -> None:
    deck = deck_of("mattsan", owner)
    page = client.get(hand_url(deck, "?seed=5&turn=0&opening=7")).content.decode()
    assert len(page_cards(page, 0)) == 7
    assert "seed=5&amp;turn=1&amp;opening=7" in page


def test_an_empty_unmatched_deck_says_so_with_its_fatigue(client: Client, owner: Any) -> None:
    deck = deck_of("unmatched", owner)  # 30 cards: 5, then 1 a turn runs out after turn 25
    page = client.get(hand_url(deck, "?seed=3&turn=27")).content.decode()
    assert "data-empty-deck" in page
    assert "2 damage for each card" in page
    # the fatigue is Unmatched's own panel, drawn by its template
    assert 'data-fatigue="4"' in page
    assert "Fatigue so far: 4 damage (2 cards not drawn)." in page
    full = client.get(hand_url(deck, "?seed=3&turn=24")).content.decode()
    assert "data-empty-deck" not in full and "data-fatigue" not in full


def test_an_empty_deck_ends_the_hand_where_the_rules_end_the_game(
    client: Client, owner: Any
) -> None:
    deck = deck_of("ouka-fushin", owner)
    page = client.get(hand_url(deck, "?seed=3&turn=30")).content.decode()
    assert "data-empty-deck" in page and "deck-out" in page
    assert "data-next-turn" not in page


def test_a_private_hand_is_404_to_everyone_but_its_owner(
    owner: Any, owner_client: Client, stranger_client: Client, client: Client
) -> None:
    deck = deck_of("recharge", owner, visibility=Deck.Visibility.PRIVATE)
    assert owner_client.get(hand_url(deck, "?seed=1&turn=0")).status_code == 200
    assert stranger_client.get(hand_url(deck, "?seed=1&turn=0")).status_code == 404
    assert client.get(hand_url(deck, "?seed=1&turn=0")).status_code == 404
    assert stranger_client.get(hand_url(deck)).status_code == 404  # no redirect either


def test_an_unlisted_hand_is_readable_by_whoever_has_the_link(
    owner: Any, friend_client: Client
) -> None:
    deck = deck_of("recharge", owner, visibility=Deck.Visibility.UNLISTED)
    assert friend_client.get(hand_url(deck, "?seed=1&turn=0")).status_code == 200


@pytest.mark.parametrize(
    ("slug", "query", "field"),
    [
        ("monster-hunter", "?seed=-1&turn=0", "seed"),
        ("monster-hunter", "?seed=x&turn=0", "seed"),
        ("monster-hunter", f"?seed={2**63}&turn=0", "seed"),
        ("monster-hunter", "?seed=1&turn=61", "turn"),
        ("monster-hunter", "?seed=1&turn=two", "turn"),
        ("monster-hunter", "?seed=1&turn=0&opening=6", "opening"),
        ("mattsan", "?seed=1&turn=0&opening=11", "opening"),
        ("mattsan", "?seed=1&turn=0&opening=0", "opening"),
    ],
)
def test_a_bad_address_is_400_naming_the_field(
    client: Client, owner: Any, slug: str, query: str, field: str
) -> None:
    response = client.get(hand_url(deck_of(slug, owner), query))
    assert response.status_code == 400
    assert f'data-field="{field}"' in response.content.decode()


def test_the_page_shows_small_card_faces(client: Client, owner: Any) -> None:
    deck = deck_of("unmatched", owner)
    page = client.get(hand_url(deck, "?seed=8&turn=0")).content.decode()
    assert page.count("face face-sm face-game-unmatched") == 5
    assert "um-fighter" in page  # the printing's fighter is on the face


def test_the_page_is_in_japanese_too(client: Client, owner: Any) -> None:
    deck = deck_of("monster-hunter", owner)
    page = client.get(hand_url(deck, "?seed=8&turn=0"), headers={"Accept-Language": "ja"})
    assert page.status_code == 200
    assert 'lang="ja"' in page.content.decode()


#: seed 15 deals the Recharge demo deck, by turn 3 (1 card, then 1 a turn), these 4 cards:
#: Comet Lass (hero, 20, edges red+yellow / red+yellow), Halcyon Power Plus (hero, 40 + 10,
#: red+blue / red+blue), Shoulder to Shoulder Power Plus (teamwork, 10 + 10, red / red) and
#: Solar Flare (power: red side 25, yellow side 15). The teamwork joins the two heroes on red
#: (20 + 20 + 50 = 90), and Solar Flare's red side takes a free red point of a hero (25): 115,
#: every card of the hand at its best, so no formation can do better.
FORMATION_SEED = 15
FORMATION_CARDS = ["Solar Flare", "Shoulder to Shoulder", "Comet Lass", "Halcyon"]
BEST_FORMATION = {
    "total": 115,
    "row": ["Comet Lass", "Shoulder to Shoulder", "Halcyon"],
    "powers": [{"card": "Solar Flare", "value": 25}],
}
#: seed 4 deals the Unmatched demo deck (Alice and the Jabberwock) an opening hand of I'm Late,
#: I'm Late (Alice, 2), Momentous Shift (any, 3, boost 1), The Other Side of the Mushroom
#: (Alice, 3, boost 4), Feint (any, 2) and Drink Me (a scheme). The strongest attacks are
#: worth 3; of those the goldfish plays the lower boost first (unmatched.md:30-34).
ATTACK_SEED = 4
BEST_ATTACK = {"card": "Momentous Shift", "value": 3, "fighter": "any"}


def test_a_recharge_hand_shows_its_best_formation(client: Client, owner: Any) -> None:
    deck = deck_of("recharge", owner)
    query = f"?seed={FORMATION_SEED}&turn=3"
    page = client.get(hand_url(deck, query)).content.decode()
    sim = sim_deck_for(deck)
    shown = [sim.cards[i].name for t in range(4) for i in _indexes(sim, page_cards(page, t))]
    assert shown == FORMATION_CARDS
    panel = re.search(r"<section[^>]*data-best-formation.*?</section>", page, re.S)
    assert panel, "the best formation is not on the page"
    text = " ".join(panel.group(0).split())
    assert '<span class="badge text-bg-danger" data-total>115</span>' in text
    assert "Comet Lass – Shoulder to Shoulder – Halcyon" in text
    assert "Solar Flare (25)" in text
    assert "data-no-formation" not in page
    data = client.get(api_url(deck, f"?seed={FORMATION_SEED}&turns=3")).json()
    assert [c["name"] for d in data["draws"] for c in d["cards"]] == FORMATION_CARDS
    assert data["panels"] == {"best_formation": BEST_FORMATION}
    assert "best_formation" not in data and "best_attack" not in data


def test_a_recharge_hand_without_a_hero_builds_no_formation(client: Client, owner: Any) -> None:
    deck = deck_of("recharge", owner)
    sim = sim_deck_for(deck)
    schedule = game_setup("recharge").schedule
    seed = next(  # the first seed whose opening card is not a hero
        s
        for s in range(1, 100)
        if sim.cards[deal(sim, seed=s, turns=0, schedule=schedule).hand[0]].card_type != "hero"
    )
    page = client.get(hand_url(deck, f"?seed={seed}&turn=0")).content.decode()
    assert "data-no-formation" in page and "data-best-formation" not in page
    data = client.get(api_url(deck, f"?seed={seed}&turns=0")).json()
    assert data["panels"] == {"best_formation": None}


def test_a_recharge_hand_over_six_cards_is_not_solved_but_explained(
    client: Client, owner: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """recharge.md:33: a hand never holds more than 6 cards, and the exact search on a whole
    deck's cards would hold a web process for minutes."""
    from games.recharge import solver

    deck = deck_of("recharge", owner)
    solved: list[int] = []
    real = solver.best_formation
    monkeypatch.setattr(
        solver, "best_formation", lambda cards, **kw: solved.append(len(cards)) or real(cards, **kw)
    )
    page = client.get(hand_url(deck, f"?seed={FORMATION_SEED}&turn=5")).content.decode()
    assert "data-best-formation" in page and "data-over-limit" not in page  # 6 cards
    assert solved == [6]
    page = client.get(hand_url(deck, f"?seed={FORMATION_SEED}&turn=49")).content.decode()
    assert "data-over-limit" in page and "data-best-formation" not in page
    assert "A Recharge hand holds at most 6 cards" in page
    data = client.get(api_url(deck, f"?seed={FORMATION_SEED}&turns=6")).json()
    assert data["panels"] == {"best_formation": {"over_limit": True, "limit": 6}}
    assert solved == [6]  # the 50- and 7-card hands were never searched
    japanese = client.get(
        hand_url(deck, f"?seed={FORMATION_SEED}&turn=49"), HTTP_ACCEPT_LANGUAGE="ja"
    ).content.decode()
    assert "Recharge の手札は最大 6 枚です（recharge.md:33）。" in japanese


def test_an_unmatched_hand_shows_its_best_attack(client: Client, owner: Any) -> None:
    deck = deck_of("unmatched", owner)
    page = client.get(hand_url(deck, f"?seed={ATTACK_SEED}&turn=0")).content.decode()
    panel = re.search(r"<section[^>]*data-best-attack.*?</section>", page, re.S)
    assert panel, "the best attack is not on the page"
    text = " ".join(panel.group(0).split())
    assert "data-value>3</span>" in text
    assert "Momentous Shift, played by any fighter" in text
    data = client.get(api_url(deck, f"?seed={ATTACK_SEED}&turns=0")).json()
    assert sorted(c["name"] for c in data["draws"][0]["cards"]) == [
        "Drink Me",
        "Feint",
        "I'm Late, I'm Late",
        "Momentous Shift",
        "The Other Side of the Mushroom",
    ]
    assert data["panels"] == {"best_attack": BEST_ATTACK, "fatigue": None}


@pytest.mark.parametrize("slug", SLUGS)
def test_the_api_answers_every_panel_of_the_game(client: Client, owner: Any, slug: str) -> None:
    from simulator.testhands.panels import panels_of

    data = client.get(api_url(deck_of(slug, owner), "?seed=1&turns=2")).json()
    assert set(data["panels"]) == {p.key for p in panels_of(slug)}


# --- The API ---------------------------------------------------------------------------------


def api_url(deck: Deck, query: str = "") -> str:
    return f"/api/v1/decks/{deck.public_id}/test-hand/{query}"


def _indexes(sim: SimDeck, codes: list[str]) -> list[int]:
    """The deck's card indexes of the codes a page shows (one card per code here)."""
    by_code = {c.code: c.index for c in sim.cards}
    return [by_code[code] for code in codes]


def test_the_api_deals_the_same_hand_as_the_page(client: Client, owner: Any) -> None:
    deck = deck_of("monster-hunter", owner)
    data = client.get(api_url(deck, "?seed=123456&turns=3")).json()
    assert (data["seed"], data["turns"], data["game"]) == (123456, 3, "monster-hunter")
    assert [len(d["cards"]) for d in data["draws"]] == [6, 0, 2, 2]
    assert data["schedule"]["opening"] == 6 and data["schedule"]["per_turn"] == 2
    page = client.get(hand_url(deck, "?seed=123456&turn=3")).content.decode()
    assert [[c["code"] for c in d["cards"]] for d in data["draws"]] == [
        page_cards(page, t) for t in range(4)
    ]
    assert data["hand"] == [c["code"] for d in data["draws"] for c in d["cards"]]
    assert data["remaining"] == 40 - 10 and data["empty_note"] is None


def test_the_api_picks_a_seed_that_replays(client: Client, owner: Any) -> None:
    deck = deck_of("recharge", owner)
    first = client.get(api_url(deck, "?turns=2")).json()
    again = client.get(api_url(deck, f"?turns=2&seed={first['seed']}")).json()
    assert again["draws"] == first["draws"]


def test_the_api_takes_the_games_open_numbers(client: Client, owner: Any) -> None:
    mh = client.get(api_url(deck_of("monster-hunter", owner), "?seed=1&turns=2&per_turn=4"))
    assert [len(d["cards"]) for d in mh.json()["draws"]] == [6, 0, 4]
    mattsan = client.get(api_url(deck_of("mattsan", owner), "?seed=1&opening=3")).json()
    assert len(mattsan["draws"][0]["cards"]) == 3 and mattsan["params"] == {"opening": 3}


def test_the_api_reports_an_empty_deck(client: Client, owner: Any) -> None:
    data = client.get(api_url(deck_of("unmatched", owner), "?seed=1&turns=30")).json()
    assert data["remaining"] == 0 and data["missing"] == 5
    assert data["panels"]["fatigue"] == {"missing": 5, "damage": 10}
    assert data["fatigue"] == 10  # deprecated, repeats the panel's damage for one version
    assert data["ran_out_at"] == 26 and "2 damage" in data["empty_note"]


def test_the_fatigue_panel_shows_nothing_until_the_deck_runs_out(
    client: Client, owner: Any
) -> None:
    data = client.get(api_url(deck_of("unmatched", owner), "?seed=1&turns=3")).json()
    assert data["panels"]["fatigue"] is None and data["fatigue"] == 0
    other = client.get(api_url(deck_of("ouka-fushin", owner), "?seed=3&turns=30")).json()
    assert other["missing"] > 0 and "fatigue" not in other["panels"] and other["fatigue"] == 0


def test_a_panel_computes_from_the_hand_or_from_the_hand_and_the_deal_never_both() -> None:
    from simulator.testhands.panels import DealFacts, Panel

    def both(deck: SimDeck, hand: Any, deal: DealFacts) -> dict[str, int]:
        return {"cards": len(hand), "missing": deal.missing}

    dealt = Panel("both", "x.html", compute_dealt=both)
    assert dealt.data(SimDeck("g", (), {}, "main"), [1, 2], DealFacts(missing=3)) == {
        "cards": 2,
        "missing": 3,
    }
    with pytest.raises(TypeError):
        Panel("neither", "x.html")
    with pytest.raises(TypeError):
        Panel("twice", "x.html", lambda deck, hand: None, both)


def test_the_top_level_fatigue_is_deprecated_in_the_schema_and_points_to_the_panel() -> None:
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    fatigue = schema["components"]["schemas"]["TestHandOutput"]["properties"]["fatigue"]
    assert fatigue["deprecated"] is True
    assert "panels.fatigue.damage" in fatigue["description"]
    assert "Unmatched" not in fatigue["description"]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("?seed=-5", "seed"),
        ("?turns=61", "turns"),
        ("?turns=x", "turns"),
        ("?opening=5", "opening"),
    ],
)
def test_the_api_refuses_bad_input_naming_the_field(
    client: Client, owner: Any, query: str, field: str
) -> None:
    response = client.get(api_url(deck_of("ouka-fushin", owner), query))
    assert response.status_code == 400
    assert list(response.json()) == [field]


def test_the_api_hides_private_decks(
    owner: Any, owner_client: Client, stranger_client: Client
) -> None:
    deck = deck_of("mattsan", owner, visibility=Deck.Visibility.PRIVATE)
    assert owner_client.get(api_url(deck, "?seed=1")).status_code == 200
    assert stranger_client.get(api_url(deck, "?seed=1")).status_code == 404


@pytest.mark.parametrize("slug", SLUGS)
def test_the_light_deck_loader_reads_what_the_shared_selector_reads(slug: str, owner: Any) -> None:
    """Test hands, odds and runs read decks through a faster loader; it must read the same
    facts as the shared selector (every printing included: Unmatched reads where a card was
    printed), so the engines get the same deck."""
    from decks.selectors import deck_facts
    from simulator.decks import sim_deck_from_facts

    deck = deck_of(slug, owner)
    light, shared = deck_facts_light(deck), deck_facts(deck=deck)
    assert light.entries and any(e.card.printings for e in light.entries)
    assert light == shared
    assert sim_deck_for(deck) == sim_deck_from_facts(shared)
