"""Real before demo (catalog/demo.py): once a game's real cards are in the catalog, its search
page and its API lists leave its demo cards out unless asked (``is:demo``, ``demo=``, or the
"show demo cards" toggle ``show_demo``), and show real cards first when both are shown. A game
whose cards are all demo shows them as before; a set's own page shows all its cards."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from catalog.importers.decklab_json import bundle_from_decklab
from catalog.importers.service import import_bundles

pytestmark = pytest.mark.django_db

GAME = "monster-hunter"
SETS = [
    {"code": "real1", "name_en": "Real", "kind": "base"},
    {"code": "demo1", "name_en": "Demo", "kind": "base", "demo": True},
]


def _card(code: str, name: str, set_code: str, *, demo: bool = False) -> dict[str, Any]:
    return {
        "code": code,
        "type": "item",
        "name_en": name,
        "attributes": {"item_icons": ["meat"]},
        "demo": demo,
        "printings": [{"set": set_code, "number": code[-3:]}],
    }


def _catalog(*cards: dict[str, Any]) -> None:
    data = {"format": "decklab-catalog", "version": 1, "game": GAME}
    data |= {"sets": copy.deepcopy(SETS), "cards": list(cards)}
    import_bundles([bundle_from_decklab(data, "test")])


@pytest.fixture
def demo_only(db: None) -> None:
    """The game's real set facts, and only invented cards (the shipped demo catalogs)."""
    _catalog(_card("D-001", "Potion Demo", "demo1", demo=True))


@pytest.fixture
def real_and_demo(demo_only: None) -> None:
    """... then the first real card approved into the real set."""
    _catalog(_card("R-001", "Potion", "real1"))


def _page_codes(client: Client, params: dict[str, str]) -> list[str]:
    response = client.get(reverse("catalog:game", args=[GAME]), params)
    assert response.status_code == 200
    html = response.content.decode().split("data-near-names")[0]  # not the "did you mean"
    found = [(html.find(f"/cards/{code}/"), code) for code in ("R-001", "D-001")]
    return [code for at, code in sorted(found) if at >= 0]


def _api_codes(client: Client, params: dict[str, str], url: str = "") -> list[str]:
    response = client.get(url or f"/api/v1/games/{GAME}/cards/", params)
    assert response.status_code == 200, response.content
    rows = response.json()["results"]
    return [row["card"]["code"] if "card" in row else row["code"] for row in rows]


#: (what is asked, the codes listed with only demo cards, ... with real and demo cards)
CASES = [
    ({"q": "potion"}, ["D-001"], ["R-001"]),
    ({"q": "potion is:demo"}, ["D-001"], ["D-001"]),
    ({"q": "potion -is:demo"}, [], ["R-001"]),
    ({"q": "potion", "show_demo": "true"}, ["D-001"], ["R-001", "D-001"]),
    ({"q": "potion order:name dir:desc", "show_demo": "true"}, ["D-001"], ["R-001", "D-001"]),
    ({"q": "potion unique:prints"}, ["D-001"], ["R-001"]),
    ({"q": "potion unique:prints", "show_demo": "true"}, ["D-001"], ["R-001", "D-001"]),
    ({"q": "potion unique:prints is:demo"}, ["D-001"], ["D-001"]),
]
#: the API's own yes/no filter asks too
API_CASES = [
    *CASES,
    ({"demo": "true"}, ["D-001"], ["D-001"]),
    ({"demo": "false"}, [], ["R-001"]),
    ({}, ["D-001"], ["R-001"]),
    ({"show_demo": "true"}, ["D-001"], ["R-001", "D-001"]),
    ({"set": "demo1"}, ["D-001"], ["D-001"]),  # a set named: all its cards, as on its page
]


@pytest.mark.parametrize(("params", "alone", "_with_real"), CASES)
def test_a_game_with_only_demo_cards_shows_them_on_its_search_page(
    demo_only: None, client: Client, params: dict[str, str], alone: list[str], _with_real: Any
) -> None:
    assert _page_codes(client, params) == alone


@pytest.mark.parametrize(("params", "_alone", "with_real"), CASES)
def test_a_game_with_real_cards_leaves_demo_cards_out_of_its_search_page_unless_asked(
    real_and_demo: None, client: Client, params: dict[str, str], _alone: Any, with_real: list[str]
) -> None:
    assert _page_codes(client, params) == with_real


@pytest.mark.parametrize(("params", "alone", "with_real"), API_CASES)
def test_the_api_card_list_does_the_same(
    demo_only: None,
    client: Client,
    params: dict[str, str],
    alone: list[str],
    with_real: list[str],
) -> None:
    assert _api_codes(client, params) == alone
    _catalog(_card("R-001", "Potion", "real1"))  # the first real card: demo cards step back
    assert _api_codes(client, params) == with_real


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"q": "potion"}, ["R-001"]),
        ({"q": "potion is:demo"}, ["D-001"]),
        ({"q": "potion", "show_demo": "true"}, ["R-001", "D-001"]),
        ({"q": "potion", "demo": "true"}, ["D-001"]),
    ],
)
def test_the_search_across_games_leaves_out_demo_cards_of_games_with_real_cards(
    real_and_demo: None, client: Client, params: dict[str, str], expected: list[str]
) -> None:
    assert _api_codes(client, params, url="/api/v1/cards/") == expected


def test_a_demo_set_s_own_page_lists_its_demo_cards(real_and_demo: None, client: Client) -> None:
    response = client.get(reverse("catalog:set", args=[GAME, "demo1"]))
    assert "/cards/D-001/" in response.content.decode()


def test_demo_cards_keep_their_mark_when_shown(real_and_demo: None, client: Client) -> None:
    html = client.get(
        reverse("catalog:game", args=[GAME]), {"q": "potion", "show_demo": "true"}
    ).content.decode()
    assert "badge-demo" in html
    rows = client.get(f"/api/v1/games/{GAME}/cards/", {"show_demo": "true"}).json()["results"]
    assert {row["code"]: row["is_demo"] for row in rows} == {"R-001": False, "D-001": True}


def test_the_game_page_offers_the_toggle_and_keeps_it_on(
    real_and_demo: None, client: Client
) -> None:
    url = reverse("catalog:game", args=[GAME])
    assert 'name="show_demo"' in client.get(url).content.decode()
    on = client.get(url, {"q": "potion", "show_demo": "true"}).content.decode()
    assert 'id="show-demo" checked' in on
