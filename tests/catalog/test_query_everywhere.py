"""The same search language on the game page, the set page, the deck editor and the API: the
same answers, mistakes shown at their position, near names when nothing matches, and the help
page listing every game's fields in both languages."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from catalog.models import Card, Game, Printing
from collection.models import CollectionItem
from decks.models import DeckEntry
from decks.services import deck_create
from tests.catalog.factories import CardFactory
from tests.catalog.test_query_language import catalog  # noqa: F401  (the shared cast of cards)

pytestmark = pytest.mark.usefixtures("catalog")
API = "/api/v1/games/unmatched/cards/"
HTMX: dict[str, Any] = {"HTTP_HX_REQUEST": "true"}


def codes(response: Any) -> set[str]:
    assert response.status_code == 200, response.content[:500]
    return {row["code"] for row in response.json()["results"]}


def page_cards(html: str) -> set[str]:
    return set(re.findall(r"/games/unmatched/cards/([\w-]+)/", html))


# --- the API ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("value>=3", {"skirmish", "block"}),
        ("-type:scheme boost:2", {"feint"}),
        ("フェイント or block", {"feint", "block"}),
        ("set:box-b", {"block"}),
    ],
)
def test_the_api_reads_q_in_the_search_language(query: str, expected: set[str]) -> None:
    assert codes(Client().get(API, {"q": query})) == expected


def test_the_api_sorts_with_order_and_dir() -> None:
    response = Client().get(API, {"q": "-type:scheme order:value dir:desc"})
    assert [row["code"] for row in response.json()["results"]] == ["skirmish", "block", "feint"]


def test_a_mistake_in_q_is_a_400_naming_its_position_and_the_field_meant() -> None:
    response = Client().get(API, {"q": "feint valeu>=3"})
    assert response.status_code == 400
    message = response.json()["q"][0]
    assert message.startswith("At character 7:") and "'value'" in message


def test_one_row_per_printing_answers_printing_rows() -> None:
    # "plot" is a demo card of a game with real ones: shown when asked (catalog/demo.py)
    response = Client().get(API, {"q": "boost:2 unique:prints", "show_demo": "true"})
    assert response.status_code == 200
    rows = response.json()["results"]
    assert {(row["card"]["code"], row["set"]["code"]) for row in rows} == {
        ("feint", "box-a"),
        ("plot", "box-a"),
    }


def test_the_openapi_description_lists_each_games_fields() -> None:
    schema = Client().get("/api/v1/schema/?format=json").json()
    parameters = schema["paths"]["/api/v1/games/{game}/cards/"]["get"]["parameters"]
    q = next(p for p in parameters if p["name"] == "q")["description"]
    for expected in ("unmatched: `value`", "`school` (choice)", "`colour` (list)", "`soul`"):
        assert expected in q


# --- the pages -------------------------------------------------------------------------------


def test_the_game_page_searches_with_the_language() -> None:
    html = Client().get("/games/unmatched/", {"q": "value<=3 -type:scheme"}).content.decode()
    assert page_cards(html) == {"feint", "block"}


def test_the_game_page_points_at_a_mistake() -> None:
    html = Client().get("/games/unmatched/", {"q": "feint valeu>=3"}).content.decode()
    assert 'data-query-error="6"' in html
    assert "Did you mean &#x27;value&#x27;?" in html


def test_no_result_for_a_typo_suggests_the_near_names() -> None:
    html = Client().get("/games/unmatched/", {"q": "skirmsh"}, **HTMX).content.decode()
    assert "No card of this game matches" in html
    near = html.split("data-near-names", 1)[1]
    assert "Skirmish" in near


@pytest.mark.parametrize(("typo", "meant"), [("kestral", "Kestrel"), ("けすとれう", "Kestrel")])
def test_a_misspelt_name_suggests_the_card_meant(typo: str, meant: str) -> None:
    CardFactory(
        game=Game.objects.get(slug="unmatched"),
        code="kestrel",
        card_type="attack",
        name_en="Kestrel",
        name_ja="ケストレル",
    )
    html = Client().get("/games/unmatched/", {"q": typo}, **HTMX).content.decode()
    assert "No card of this game matches" in html
    assert meant in html.split("data-near-names", 1)[1]


def test_the_game_page_lists_printings_when_asked() -> None:
    html = Client().get("/games/unmatched/", {"q": "value>=3 unique:prints"}).content.decode()
    assert 'data-rows="printings"' in html
    assert set(re.findall(r'data-printing="([\w-]+)"', html)) == {"skirmish", "block"}


def test_the_set_page_searches_its_own_printings() -> None:
    box_a = Client().get("/games/unmatched/sets/box-a/", {"q": "boost:2"}).content.decode()
    assert page_cards(box_a) == {"feint", "plot"}
    box_b = Client().get("/games/unmatched/sets/box-b/", {"q": "boost:2"}).content.decode()
    assert page_cards(box_b) == set()


def test_the_set_page_points_at_a_mistake() -> None:
    html = Client().get("/games/unmatched/sets/box-a/", {"q": "boost:two"}).content.decode()
    assert 'data-query-error="6"' in html


def test_is_owned_and_missing_read_the_signed_in_players_collection(
    owner: Any, owner_client: Client
) -> None:
    printing = Printing.objects.get(card__code="feint")
    CollectionItem.objects.create(owner=owner, printing=printing, quantity=1, language="en")
    owned = owner_client.get("/games/unmatched/", {"q": "is:owned"}).content.decode()
    assert page_cards(owned) == {"feint"}
    asked = {"q": "is:missing", "show_demo": "true"}  # "plot" is a demo card
    missing = owner_client.get("/games/unmatched/", asked).content.decode()
    assert page_cards(missing) == {"skirmish", "block", "plot"}
    anonymous = Client().get("/games/unmatched/", {"q": "is:owned"}).content.decode()
    assert 'data-query-error="0"' in anonymous


# --- the deck editor -------------------------------------------------------------------------


def editor_cards(client: Client, deck: Any, query: str) -> tuple[set[str], str]:
    html = client.get(f"/decks/{deck.public_id}/edit/search/", {"q": query}, **HTMX)
    text = html.content.decode()
    return set(re.findall(r'data-card="([\w-]+)"', text)), text


def test_the_deck_editor_searches_with_the_language_and_in_deck(
    owner: Any, owner_client: Client
) -> None:
    deck = deck_create(owner=owner, game=Game.objects.get(slug="unmatched"), name="Search")
    DeckEntry.objects.create(
        deck=deck, card=Card.objects.get(code="block"), zone="deck", quantity=2
    )
    assert editor_cards(owner_client, deck, "value>=3")[0] == {"skirmish", "block"}
    assert editor_cards(owner_client, deck, "in:deck")[0] == {"block"}
    assert editor_cards(owner_client, deck, "-in:deck -type:scheme")[0] == {"feint", "skirmish"}
    found, html = editor_cards(owner_client, deck, "type:schem")
    assert found == set() and 'data-query-error="5"' in html


# --- the help page ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "game_names"),
    [
        ("en", ("Unmatched", "Monster Hunter TCG", "Marvel Recharge")),
        (
            "ja",
            ("アンマッチ", "モンスターハンター トレーディングカードゲーム", "マーベル リチャージ"),
        ),
    ],
)
def test_the_help_page_lists_every_games_fields_in_both_languages(
    language: str, game_names: tuple[str, ...]
) -> None:
    # override: the request activates its language in this thread; give the old one back
    with translation.override("en"):
        response = Client().get("/search/", HTTP_ACCEPT_LANGUAGE=language)
    html = response.content.decode()
    assert response.status_code == 200
    for name in game_names:
        assert f">{name}</h2>" in html
    for example in (
        "value&gt;=3",
        "weapon:great-sword",
        "school:goton",
        "edge:left-blue",
        "soul:2",
    ):
        assert example in html
