"""The read-only catalog API under /api/v1/: games, sets, cards, printings, products, docs."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from catalog.api.pagination import MAX_PAGE_SIZE, PAGE_INVALID, PAGE_SIZE_INVALID
from catalog.api.views import CARD_NOT_FOUND, GAME_NOT_FOUND, PRODUCT_NOT_FOUND, SET_NOT_FOUND
from catalog.importers.write import game_sync
from catalog.models import CardSet, Game
from tests.catalog.api_factories import (
    CardFactory,
    CardSetFactory,
    PrintingFactory,
    ProductFactory,
    ProductItemFactory,
)

pytestmark = pytest.mark.django_db

API = "/api/v1"
MH = f"{API}/games/monster-hunter"


@pytest.fixture
def client() -> APIClient:
    return APIClient()


def _monster(game: Game, code: str, en: str, ja: str, *, hp: int, rank: int, **kw: Any) -> Any:
    attributes = {"attack": 3, "movement": 2, "reach": 1, "hp": hp, "rank": rank}
    attributes["material_points"] = 2
    return CardFactory(
        game=game,
        code=code,
        name_en=en,
        name_ja=ja,
        card_type="monster",
        attributes=attributes,
        **kw,
    )


@pytest.fixture
def mh() -> SimpleNamespace:
    """A small Monster Hunter catalog: two sets (the second one demo), five cards, a starter."""
    game = game_sync("monster-hunter")
    base = CardSetFactory(
        game=game,
        code="mh-base",
        name_en="Base Set",
        name_ja="基本セット",
        kind=CardSet.Kind.BASE,
        release_date=date(2007, 7, 1),
        source="publisher checklist",
    )
    extra = CardSetFactory(
        game=game,
        code="mh-extra",
        name_en="Extra",
        name_ja="エクストラ",
        release_date=date(2008, 1, 1),
        is_demo=True,
        source="DeckLab demo data",
    )
    rathalos = _monster(game, "rathalos", "Rathalos", "リオレウス", hp=10, rank=5)
    kutku = _monster(game, "yian-kut-ku", "Yian Kut-Ku", "イャンクック", hp=6, rank=2)
    sword = CardFactory(
        game=game,
        code="iron-sword",
        name_en="Iron Sword",
        name_ja="アイアンソード",
        card_type="weapon",
        attributes={
            "weapon_icon": "great-sword",
            "attack": 2,
            "movement": 0,
            "reach": 1,
            "item_icons": ["meat"],
            "cost": 1,
        },
    )
    hunter = CardFactory(
        game=game,
        code="gunner",
        name_en="Gunner",
        name_ja="ガンナー",
        card_type="hunter",
        attributes={"attack": 1, "movement": 2, "reach": 3, "item_icons": ["ammo", "bottle"]},
    )
    felyne = CardFactory(
        game=game,
        code="demo-felyne",
        name_en="Felyne Snack",
        name_ja="アイルーのおやつ",
        card_type="item",
        attributes={"item_icons": ["meat"]},
        is_demo=True,
        source="DeckLab demo data",
    )
    p_rathalos = PrintingFactory(card=rathalos, card_set=base, collector_number="001")
    PrintingFactory(card=rathalos, card_set=extra, collector_number="005")
    PrintingFactory(card=kutku, card_set=base, collector_number="002")
    p_sword = PrintingFactory(card=sword, card_set=base, collector_number="010")
    p_hunter = PrintingFactory(card=hunter, card_set=base, collector_number="020")
    PrintingFactory(card=felyne, card_set=extra, collector_number="001")
    starter = ProductFactory(
        game=game,
        code="mh-starter",
        name_en="Starter Deck",
        name_ja="スターターデッキ",
        card_set=base,
        release_date=date(2007, 7, 1),
        card_count=40,
        price_yen=1000,
    )
    ProductItemFactory(product=starter, printing=p_hunter, zone="hunter", quantity=1)
    ProductItemFactory(product=starter, printing=p_rathalos, quantity=2)
    ProductItemFactory(product=starter, printing=p_sword, quantity=3)
    return SimpleNamespace(game=game, base=base, extra=extra, rathalos=rathalos, starter=starter)


def _codes(response: Any) -> list[str]:
    assert response.status_code == 200, response.content
    return [row["code"] for row in response.json()["results"]]


# --- Games ----------------------------------------------------------------------------------


def test_the_games_list_gives_each_games_counts(client: APIClient, mh: SimpleNamespace) -> None:
    game_sync("recharge")
    response = client.get(f"{API}/games/")
    assert response.status_code == 200
    games = {row["slug"]: row for row in response.json()}
    assert set(games) == {"monster-hunter", "recharge"}
    assert games["monster-hunter"] | {"url": None} == games["monster-hunter"] | {
        "name_en": "Monster Hunter TCG",
        "name_ja": "モンスターハンター トレーディングカードゲーム",
        "publisher": "Capcom",
        "set_count": 2,
        "card_count": 5,
        "demo_card_count": 1,
        "printing_count": 6,
        "product_count": 1,
        "url": None,
    }
    assert games["recharge"]["card_count"] == 0
    assert games["monster-hunter"]["url"].endswith("/api/v1/games/monster-hunter/")


def test_a_game_describes_its_types_facets_variants_and_sort_keys(client: APIClient) -> None:
    game_sync("recharge")
    body = client.get(f"{API}/games/recharge/").json()
    assert [t["code"] for t in body["card_types"]] == ["hero", "teamwork", "power"]
    assert {"key": "power", "label": "Power"} in body["card_types"][0]["attributes"]
    facets = {f["key"]: f for f in body["facets"]}
    assert facets["power"]["parameters"] == ["power_min", "power_max"]
    assert facets["left"]["kind"] == "list"
    assert {"code": "red", "label": "Red (good)"} in facets["left"]["choices"]
    assert body["variants"] == [{"code": "power-plus", "label": "Power Plus"}]
    assert [s["code"] for s in body["sort_keys"]] == ["name", "type", "number"]


@pytest.mark.parametrize(
    "path",
    [
        "/games/nope/",
        "/games/nope/sets/",
        "/games/nope/sets/x/",
        "/games/nope/cards/",
        "/games/nope/cards/x/",
        "/games/nope/printings/",
        "/games/nope/products/",
        "/games/nope/products/x/",
    ],
)
def test_an_unknown_game_is_a_404_on_every_endpoint(client: APIClient, path: str) -> None:
    response = client.get(API + path)
    assert response.status_code == 404
    assert response.json() == {"detail": str(GAME_NOT_FOUND)}


def test_a_game_row_without_a_catalog_module_is_not_served(client: APIClient) -> None:
    Game.objects.create(slug="retired-game", name_en="Retired")
    assert client.get(f"{API}/games/retired-game/").status_code == 404
    assert "retired-game" not in [g["slug"] for g in client.get(f"{API}/games/").json()]


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("/sets/nope/", SET_NOT_FOUND),
        ("/cards/nope/", CARD_NOT_FOUND),
        ("/products/nope/", PRODUCT_NOT_FOUND),
    ],
)
def test_an_unknown_code_is_a_404_that_says_what_is_missing(
    client: APIClient, mh: SimpleNamespace, path: str, message: Any
) -> None:
    response = client.get(MH + path)
    assert response.status_code == 404
    assert response.json() == {"detail": str(message)}


def test_a_players_own_cards_and_sets_stay_out_of_the_public_api(
    client: APIClient, mh: SimpleNamespace
) -> None:
    player = get_user_model().objects.create_user(username="player", password="x")
    homebrew = CardSetFactory(game=mh.game, code="my-homebrew", owner=player)
    custom = _monster(
        mh.game, "my-wyvern", "My Wyvern", "マイワイバーン", hp=9, rank=9, owner=player
    )
    PrintingFactory(card=custom, card_set=homebrew)
    PrintingFactory(card=mh.rathalos, card_set=homebrew, collector_number="999")
    client.force_authenticate(player)  # not even its owner sees it here

    assert "my-wyvern" not in _codes(client.get(f"{MH}/cards/?page_size=200"))
    assert _codes(client.get(f"{API}/cards/?q=wyvern")) == []
    assert "my-homebrew" not in _codes(client.get(f"{MH}/sets/"))
    assert client.get(f"{MH}/cards/my-wyvern/").status_code == 404
    assert client.get(f"{MH}/sets/my-homebrew/").status_code == 404
    assert _codes(client.get(f"{MH}/printings/?set=my-homebrew")) == []
    rathalos = client.get(f"{MH}/cards/rathalos/").json()
    assert "999" not in [p["collector_number"] for p in rathalos["printings"]]
    counts = client.get(f"{API}/games/monster-hunter/").json()
    assert (counts["card_count"], counts["set_count"], counts["printing_count"]) == (5, 2, 6)


# --- Sets -----------------------------------------------------------------------------------


def test_a_games_sets_come_in_release_order_with_counts_and_provenance(
    client: APIClient, mh: SimpleNamespace
) -> None:
    rows = client.get(f"{MH}/sets/").json()["results"]
    assert [r["code"] for r in rows] == ["mh-base", "mh-extra"]
    base, extra = rows
    assert (base["card_count"], base["printing_count"]) == (4, 4)
    assert (extra["card_count"], extra["printing_count"]) == (2, 2)
    assert (base["is_demo"], base["source"]) == (False, "publisher checklist")
    assert (extra["is_demo"], extra["source"]) == (True, "DeckLab demo data")
    assert base["kind"] == "base"
    assert base["kind_label"] == "Base set"
    assert base["released"] == "2007-07-01"


def test_the_sets_filter_on_demo_and_kind(client: APIClient, mh: SimpleNamespace) -> None:
    assert _codes(client.get(f"{MH}/sets/?demo=false")) == ["mh-base"]
    assert _codes(client.get(f"{MH}/sets/?kind=expansion")) == ["mh-extra"]


def test_a_set_is_found_by_its_code(client: APIClient, mh: SimpleNamespace) -> None:
    body = client.get(f"{MH}/sets/mh-base/").json()
    assert body["code"] == "mh-base"
    assert (body["name_en"], body["name_ja"]) == ("Base Set", "基本セット")
    assert body["url"].endswith("/api/v1/games/monster-hunter/sets/mh-base/")


# --- Cards ----------------------------------------------------------------------------------


def test_a_card_row_carries_names_type_attributes_and_its_demo_flag(
    client: APIClient, mh: SimpleNamespace
) -> None:
    # the toggle: demo cards are left out of a game with real cards by default (catalog/demo.py)
    rows = {r["code"]: r for r in client.get(f"{MH}/cards/?show_demo=true").json()["results"]}
    rathalos = rows["rathalos"]
    assert rathalos["name"] == "Rathalos"
    assert (rathalos["name_en"], rathalos["name_ja"]) == ("Rathalos", "リオレウス")
    assert (rathalos["type"], rathalos["type_label"]) == ("monster", "Monster")
    assert rathalos["attributes"]["hp"] == 10
    assert {"key": "hp", "label": "HP", "value": "10"} in rathalos["attributes_display"]
    assert [(p["set"], p["collector_number"]) for p in rathalos["printings"]] == [
        ("mh-base", "001"),
        ("mh-extra", "005"),
    ]
    assert rathalos["is_demo"] is False
    assert (rows["demo-felyne"]["is_demo"], rows["demo-felyne"]["source"]) == (
        True,
        "DeckLab demo data",
    )
    item_icons = next(
        a for a in rows["iron-sword"]["attributes_display"] if a["key"] == "item_icons"
    )
    assert item_icons == {"key": "item_icons", "label": "Item icons", "value": "Meat"}


def test_names_follow_the_language_of_the_request(client: APIClient, mh: SimpleNamespace) -> None:
    body = client.get(f"{MH}/cards/rathalos/", HTTP_ACCEPT_LANGUAGE="ja").json()
    assert body["name"] == "リオレウス"
    assert body["name_en"] == "Rathalos"


def test_cards_are_sorted_by_name_unless_asked_otherwise(
    client: APIClient, mh: SimpleNamespace
) -> None:
    # the demo card is left out: the game has real cards (catalog/demo.py)
    assert _codes(client.get(f"{MH}/cards/")) == [
        "gunner",
        "iron-sword",
        "rathalos",
        "yian-kut-ku",
    ]
    by_type = _codes(client.get(f"{MH}/cards/?sort=type"))
    assert by_type == ["gunner", "rathalos", "yian-kut-ku", "iron-sword"]


def test_sorting_by_number_uses_the_number_in_the_chosen_set(
    client: APIClient, mh: SimpleNamespace
) -> None:
    assert _codes(client.get(f"{MH}/cards/?set=mh-extra&sort=number")) == [
        "demo-felyne",
        "rathalos",
    ]
    assert _codes(client.get(f"{MH}/cards/?set=mh-base&sort=number")) == [
        "rathalos",
        "yian-kut-ku",
        "iron-sword",
        "gunner",
    ]


@pytest.mark.parametrize(
    ("query", "codes"),
    [
        ("q=rath", ["rathalos"]),
        ("q=IRON+sword", ["iron-sword"]),
        ("q=リオレウス", ["rathalos"]),
        ("q=りおれうす", ["rathalos"]),  # hiragana finds the katakana name
        ("q=ｲｬﾝｸｯｸ", ["yian-kut-ku"]),  # half-width kana too
        ("q=nothing-like-this", []),
    ],
)
def test_the_name_search_reads_english_and_japanese(
    client: APIClient, mh: SimpleNamespace, query: str, codes: list[str]
) -> None:
    assert _codes(client.get(f"{MH}/cards/?{query}")) == codes


@pytest.mark.parametrize(
    ("query", "codes"),
    [
        ("type=monster", ["rathalos", "yian-kut-ku"]),
        ("hp_min=8", ["rathalos"]),
        ("hp_min=5&hp_max=7", ["yian-kut-ku"]),
        ("rank_max=2", ["yian-kut-ku"]),
        ("item_icons=meat", ["iron-sword"]),  # the demo card only when asked:
        ("item_icons=meat&show_demo=true", ["iron-sword", "demo-felyne"]),
        ("item_icons=ammo", ["gunner"]),
        ("weapon_icon=great-sword", ["iron-sword"]),
        ("set=mh-extra", ["demo-felyne", "rathalos"]),
        ("demo=true", ["demo-felyne"]),
        ("demo=false&type=item", []),
        ("type=monster&set=mh-extra", ["rathalos"]),
    ],
)
def test_the_card_filters_narrow_the_list(
    client: APIClient, mh: SimpleNamespace, query: str, codes: list[str]
) -> None:
    assert _codes(client.get(f"{MH}/cards/?{query}")) == codes


def test_another_games_facets_are_ignored(client: APIClient, mh: SimpleNamespace) -> None:
    assert len(_codes(client.get(f"{MH}/cards/?power_min=100&show_demo=true"))) == 5


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("hp_min=abc", "hp_min"),
        ("hp_max=-1", "hp_max"),
        ("type=hero", "type"),  # a Recharge type, not a Monster Hunter one
        ("item_icons=sword", "item_icons"),
        ("weapon_icon=spoon", "weapon_icon"),
        ("sort=price", "sort"),
        ("demo=maybe", "demo"),
        ("page_size=abc", "page_size"),
        ("page_size=0", "page_size"),
        (f"page_size={MAX_PAGE_SIZE + 1}", "page_size"),
        ("page=abc", "page"),
    ],
)
def test_a_bad_card_parameter_is_a_400_naming_it(
    client: APIClient, mh: SimpleNamespace, query: str, field: str
) -> None:
    response = client.get(f"{MH}/cards/?{query}")
    assert response.status_code == 400
    body = response.json()
    assert list(body) == [field]
    assert body[field] and all(isinstance(message, str) for message in body[field])


def test_the_400_says_why(client: APIClient, mh: SimpleNamespace) -> None:
    assert client.get(f"{MH}/cards/?hp_min=abc").json() == {"hp_min": ["Enter a number."]}
    assert client.get(f"{MH}/cards/?page_size=500").json() == {
        "page_size": [str(PAGE_SIZE_INVALID) % {"max": MAX_PAGE_SIZE}]
    }
    assert client.get(f"{MH}/cards/?page=x").json() == {"page": [str(PAGE_INVALID)]}
    type_error = client.get(f"{MH}/cards/?type=hero").json()["type"][0]
    assert "hero" in type_error


def test_the_card_list_is_paged_with_a_bounded_page_size(
    client: APIClient, mh: SimpleNamespace
) -> None:
    first = client.get(f"{MH}/cards/?page_size=2&show_demo=true").json()
    assert first["count"] == 5
    assert len(first["results"]) == 2
    assert "page=2" in first["next"]
    last = client.get(f"{MH}/cards/?page_size=2&page=3&show_demo=true").json()
    assert [r["code"] for r in last["results"]] == ["demo-felyne"]  # real cards first
    assert last["next"] is None
    assert client.get(f"{MH}/cards/?page_size=2&page=4&show_demo=true").status_code == 404


def test_a_card_shows_its_printings_and_the_products_holding_it(
    client: APIClient, mh: SimpleNamespace
) -> None:
    body = client.get(f"{MH}/cards/rathalos/").json()
    assert body["code"] == "rathalos"
    assert [(p["set"]["code"], p["collector_number"]) for p in body["printings"]] == [
        ("mh-base", "001"),
        ("mh-extra", "005"),
    ]
    assert body["printings"][1]["is_demo"] is True  # printed in the demo set
    assert body["printings"][1]["set"]["is_demo"] is True
    assert body["products"] == [
        {
            "code": "mh-starter",
            "name": "Starter Deck",
            "name_en": "Starter Deck",
            "name_ja": "スターターデッキ",
            "is_demo": False,
            "source": "tests",
            "kind": "starter",
            "kind_label": "Starter deck",
            "set": "mh-base",
            "collector_number": "001",
            "variant": "",
            "zone": "main",
            "quantity": 2,
            "url": "http://testserver/api/v1/games/monster-hunter/products/mh-starter/",
        }
    ]


# --- Cards of other games: printing facets, variants, yes/no facets -------------------------


@pytest.fixture
def unmatched() -> SimpleNamespace:
    game = game_sync("unmatched")
    box = CardSetFactory(game=game, code="um-box", name_en="Battle of Legends")
    other = CardSetFactory(game=game, code="um-other", name_en="Other box")
    feint = CardFactory(
        game=game,
        code="feint",
        name_en="Feint",
        name_ja="フェイント",
        card_type="versatile",
        attributes={"value": 2},
    )
    snare = CardFactory(game=game, code="snare", name_en="Snare", card_type="scheme")
    for card_set, number, boost in ((box, "1", 2), (other, "7", 3)):
        PrintingFactory(
            card=feint,
            card_set=card_set,
            collector_number=number,
            attributes={"fighter": "any", "boost": boost},
        )
    PrintingFactory(card=snare, card_set=box, attributes={"fighter": "Medusa", "boost": 1})
    return SimpleNamespace(game=game)


def test_a_printing_facet_lists_each_card_once(
    client: APIClient, unmatched: SimpleNamespace
) -> None:
    response = client.get(f"{API}/games/unmatched/cards/?boost_min=2")
    assert _codes(response) == ["feint"]
    assert response.json()["count"] == 1
    assert _codes(client.get(f"{API}/games/unmatched/cards/?boost_max=1")) == ["snare"]
    assert _codes(client.get(f"{API}/games/unmatched/cards/?value_min=1")) == ["feint"]


def test_printing_attributes_are_shown_with_their_labels(
    client: APIClient, unmatched: SimpleNamespace
) -> None:
    body = client.get(f"{API}/games/unmatched/cards/feint/").json()
    first = body["printings"][0]
    assert first["attributes"] == {"fighter": "any", "boost": 2}
    assert {"key": "boost", "label": "Boost", "value": "2"} in first["attributes_display"]


@pytest.fixture
def recharge() -> SimpleNamespace:
    game = game_sync("recharge")
    core = CardSetFactory(game=game, code="rc-core", name_en="Core")
    wolverine = CardFactory(
        game=game,
        code="wolverine",
        name_en="Wolverine",
        name_ja="ウルヴァリン",
        card_type="hero",
        attributes={"power": 60, "left": ["blue"], "right": ["yellow", "red"], "special": True},
    )
    storm = CardFactory(
        game=game,
        code="storm",
        name_en="Storm",
        name_ja="ストーム",
        card_type="hero",
        attributes={"power": 40, "left": ["blue", "yellow"], "right": ["blue"]},
    )
    PrintingFactory(card=wolverine, card_set=core, collector_number="1")
    PrintingFactory(card=wolverine, card_set=core, collector_number="1", variant="power-plus")
    PrintingFactory(card=storm, card_set=core, collector_number="2")
    return SimpleNamespace(game=game)


@pytest.mark.parametrize(
    ("query", "codes"),
    [
        ("special=true", ["wolverine"]),
        ("special=false", ["storm"]),
        ("left=blue", ["storm", "wolverine"]),
        ("right=red", ["wolverine"]),
        ("power_min=50", ["wolverine"]),
        ("q=うるゔぁりん", ["wolverine"]),
    ],
)
def test_recharge_cards_filter_on_its_facets(
    client: APIClient, recharge: SimpleNamespace, query: str, codes: list[str]
) -> None:
    assert _codes(client.get(f"{API}/games/recharge/cards/?{query}")) == codes


def test_a_yes_no_facet_only_takes_true_or_false(
    client: APIClient, recharge: SimpleNamespace
) -> None:
    response = client.get(f"{API}/games/recharge/cards/?special=yes")
    assert response.status_code == 400
    assert list(response.json()) == ["special"]


# --- Printings ------------------------------------------------------------------------------


def test_the_printings_list_shows_card_and_set_with_their_provenance(
    client: APIClient, mh: SimpleNamespace
) -> None:
    rows = client.get(f"{MH}/printings/").json()["results"]
    assert [(r["set"]["code"], r["collector_number"]) for r in rows] == [
        ("mh-base", "001"),
        ("mh-base", "002"),
        ("mh-base", "010"),
        ("mh-base", "020"),
        ("mh-extra", "001"),
        ("mh-extra", "005"),
    ]
    felyne = rows[4]
    assert felyne["card"]["code"] == "demo-felyne"
    assert felyne["card"]["is_demo"] is True
    assert felyne["card"]["source"] == "DeckLab demo data"
    assert felyne["card"]["type_label"] == "Item"
    assert felyne["is_demo"] is True
    assert rows[0]["is_demo"] is False


@pytest.mark.parametrize(
    ("query", "numbers"),
    [
        ("set=mh-extra", ["001", "005"]),
        ("card=rathalos", ["001", "005"]),
        ("card=rathalos&set=mh-base", ["001"]),
        ("demo=false", ["001", "002", "010", "020"]),
        ("demo=true", ["001", "005"]),
    ],
)
def test_the_printings_filter_on_set_card_and_demo(
    client: APIClient, mh: SimpleNamespace, query: str, numbers: list[str]
) -> None:
    rows = client.get(f"{MH}/printings/?{query}").json()["results"]
    assert [r["collector_number"] for r in rows] == numbers


def test_the_printings_filter_on_the_games_variants(
    client: APIClient, recharge: SimpleNamespace
) -> None:
    rows = client.get(f"{API}/games/recharge/printings/?variant=power-plus").json()["results"]
    assert [(r["card"]["code"], r["variant"], r["variant_label"]) for r in rows] == [
        ("wolverine", "power-plus", "Power Plus")
    ]


def test_a_variant_the_game_does_not_have_is_a_400(client: APIClient, mh: SimpleNamespace) -> None:
    response = client.get(f"{MH}/printings/?variant=power-plus")
    assert response.status_code == 400
    assert list(response.json()) == ["variant"]


# --- Products -------------------------------------------------------------------------------


def test_the_products_list_totals_the_listed_contents(
    client: APIClient, mh: SimpleNamespace
) -> None:
    ProductFactory(game=mh.game, code="mh-box", kind="booster", is_demo=True)
    rows = {r["code"]: r for r in client.get(f"{MH}/products/").json()["results"]}
    starter = rows["mh-starter"]
    assert starter["items_total"] == 6
    assert (starter["card_count"], starter["price_yen"]) == (40, 1000)
    assert starter["set"]["code"] == "mh-base"
    assert (starter["is_demo"], starter["source"]) == (False, "tests")
    assert rows["mh-box"]["set"] is None
    assert rows["mh-box"]["is_demo"] is True
    assert _codes(client.get(f"{MH}/products/?kind=booster")) == ["mh-box"]
    assert _codes(client.get(f"{MH}/products/?set=mh-base")) == ["mh-starter"]
    assert _codes(client.get(f"{MH}/products/?demo=true")) == ["mh-box"]


def test_a_bad_product_parameter_is_a_400_naming_it(client: APIClient, mh: SimpleNamespace) -> None:
    response = client.get(f"{MH}/products/?kind=toaster")
    assert response.status_code == 400
    assert list(response.json()) == ["kind"]


def test_a_product_lists_its_items(client: APIClient, mh: SimpleNamespace) -> None:
    body = client.get(f"{MH}/products/mh-starter/").json()
    assert body["code"] == "mh-starter"
    assert body["items"] == [
        {
            "card": "gunner",
            "name": "Gunner",
            "name_en": "Gunner",
            "name_ja": "ガンナー",
            "type": "hunter",
            "type_label": "Hunter",
            "set": "mh-base",
            "collector_number": "020",
            "variant": "",
            "zone": "hunter",
            "quantity": 1,
            "is_demo": False,
        },
        {
            "card": "rathalos",
            "name": "Rathalos",
            "name_en": "Rathalos",
            "name_ja": "リオレウス",
            "type": "monster",
            "type_label": "Monster",
            "set": "mh-base",
            "collector_number": "001",
            "variant": "",
            "zone": "main",
            "quantity": 2,
            "is_demo": False,
        },
        {
            "card": "iron-sword",
            "name": "Iron Sword",
            "name_en": "Iron Sword",
            "name_ja": "アイアンソード",
            "type": "weapon",
            "type_label": "Weapon",
            "set": "mh-base",
            "collector_number": "010",
            "variant": "",
            "zone": "main",
            "quantity": 3,
            "is_demo": False,
        },
    ]


# --- Cross-game search ----------------------------------------------------------------------


def test_the_cross_game_search_finds_cards_of_every_game(
    client: APIClient, mh: SimpleNamespace, recharge: SimpleNamespace
) -> None:
    rows = client.get(f"{API}/cards/?q=r").json()["results"]
    assert {(r["game"], r["code"]) for r in rows} >= {
        ("monster-hunter", "rathalos"),
        ("recharge", "wolverine"),
        ("recharge", "storm"),
    }
    japanese = client.get(f"{API}/cards/?q=ストーム").json()["results"]
    assert [(r["game"], r["code"]) for r in japanese] == [("recharge", "storm")]
    only_mh = _codes(client.get(f"{API}/cards/?q=r&game=monster-hunter"))
    assert "wolverine" not in only_mh and "rathalos" in only_mh


def test_the_cross_game_search_takes_only_the_generic_filters(
    client: APIClient, mh: SimpleNamespace
) -> None:
    assert list(client.get(f"{API}/cards/?game=chess").json()) == ["game"]
    assert list(client.get(f"{API}/cards/?demo=sometimes").json()) == ["demo"]
    assert _codes(client.get(f"{API}/cards/?demo=true")) == ["demo-felyne"]


# --- Query counts ---------------------------------------------------------------------------


def _queries(client: APIClient, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, response.content
    return len(captured.captured_queries)


def _grow(mh: SimpleNamespace, n: int, *, start: int = 0) -> None:
    """n more cards, each printed twice, each in a new product, and a new set."""
    for i in range(start, start + n):
        card_set = CardSetFactory(game=mh.game)
        card = _monster(mh.game, f"grown-{i}", f"Grown {i}", f"グロウン{i}", hp=5, rank=1)
        first = PrintingFactory(card=card, card_set=card_set)
        PrintingFactory(card=card, card_set=mh.base)
        product = ProductFactory(game=mh.game, card_set=card_set)
        ProductItemFactory(product=product, printing=first, quantity=2)
        ProductItemFactory(product=mh.starter, printing=first, quantity=1)


LIST_URLS = [
    f"{API}/games/",
    f"{MH}/sets/",
    f"{MH}/cards/",
    f"{MH}/cards/?set=mh-base&sort=number",
    f"{MH}/printings/",
    f"{MH}/products/",
    f"{MH}/products/mh-starter/",
    f"{MH}/cards/rathalos/",
    f"{API}/cards/?q=grown",
]


@pytest.mark.parametrize("url", LIST_URLS)
def test_a_list_costs_the_same_queries_however_long_it_grows(
    client: APIClient, mh: SimpleNamespace, url: str
) -> None:
    _grow(mh, 1)
    before = _queries(client, url)
    _grow(mh, 8, start=1)
    assert _queries(client, url) == before


def test_the_lists_need_only_a_handful_of_queries(client: APIClient, mh: SimpleNamespace) -> None:
    _grow(mh, 5)
    # game, count, page, printings
    assert _queries(client, f"{MH}/cards/") == 4
    # game, count, page (card, set and the card's game joined)
    assert _queries(client, f"{MH}/printings/") == 3
    # games with their counts in one query
    assert _queries(client, f"{API}/games/") == 1
    # game, card, printings, product lines
    assert _queries(client, f"{MH}/cards/rathalos/") == 4


# --- Schema and docs ------------------------------------------------------------------------


def test_the_schema_validates_without_warnings(tmp_path: Path) -> None:
    target = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(target))
    text = target.read_text()
    assert "/api/v1/games/{game}/cards/:" in text
    assert "name: hp_min" in text  # a game's facet filter is documented


def test_the_schema_is_served(client: APIClient) -> None:
    response = client.get(f"{API}/schema/")
    assert response.status_code == 200
    assert b"/api/v1/games/{game}/products/{code}/" in response.content


@pytest.mark.parametrize("page", ["docs", "redoc"])
def test_the_docs_pages_load_only_our_own_files(client: APIClient, page: str) -> None:
    response = client.get(f"{API}/{page}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}", html, re.IGNORECASE), html
    references = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert references
    for reference in references:
        assert reference.startswith("/static/"), reference
        assert finders.find(reference.removeprefix("/static/")), reference
    assert "/api/v1/schema/" in html
