"""Set and product kinds are data each game declares (``GameSpec.set_kinds``/``product_kinds``),
not a closed list in the database: a game's own kind (Unmatched's hero deck) is accepted and
shown in the game's words, in both languages; a kind the game does not declare is refused by
the importer (naming the row and the field) and by the admin."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from catalog.importers.bundle import CatalogImportError
from catalog.importers.service import catalog_import_text
from catalog.importers.write import game_sync
from catalog.models import CardSet, Game, Product
from games.unmatched.catalog import HERO_DECK


def _unmatched_catalog(product_kind: str, set_kind: str = "box") -> str:
    return json.dumps(
        {
            "format": "decklab-catalog",
            "version": 1,
            "game": "unmatched",
            "source": "tests",
            "demo": True,
            "sets": [{"code": "t-box", "name_en": "Test Box", "kind": set_kind}],
            "cards": [
                {
                    "code": "t-jab",
                    "type": "attack",
                    "name_en": "Test Jab",
                    "attributes": {"value": 3},
                    "printings": [
                        {
                            "set": "t-box",
                            "number": "1",
                            "attributes": {"fighter": "any", "boost": 2},
                        }
                    ],
                }
            ],
            "products": [
                {
                    "code": "t-hero",
                    "kind": product_kind,
                    "set": "t-box",
                    "name_en": "Test Hero",
                    "items": [{"card": "t-jab", "quantity": 3, "zone": "deck"}],
                }
            ],
        }
    )


def _problems(text: str) -> list[tuple[str, str]]:
    with pytest.raises(CatalogImportError) as caught:
        catalog_import_text(text, name="kinds.json")
    return [(p.where, p.message) for p in caught.value.problems]


@pytest.fixture
def hero_deck(db: None) -> Product:
    catalog_import_text(_unmatched_catalog(HERO_DECK), name="kinds.json")
    return Product.objects.get(game__slug="unmatched", code="t-hero")


def test_a_games_own_product_kind_is_imported_and_labelled_in_both_languages(
    client: Client, hero_deck: Product
) -> None:
    assert hero_deck.kind == "hero-deck"
    url = reverse("catalog:product", args=["unmatched", "t-hero"])
    client.cookies["django_language"] = "en"
    assert "Hero deck" in client.get(url).content.decode()
    client.cookies["django_language"] = "ja"
    assert "ヒーローデッキ" in client.get(url).content.decode()


@pytest.mark.django_db
def test_a_product_kind_the_game_does_not_declare_is_refused_naming_the_row() -> None:
    game_sync("unmatched")
    problems = _problems(_unmatched_catalog("toaster"))
    assert len(problems) == 1
    where, message = problems[0]
    assert "products[0]" in where
    assert "product kind 'toaster'" in message and "hero-deck" in message
    assert not Product.objects.exists()


@pytest.mark.django_db
def test_another_games_own_kind_is_not_one_of_this_games() -> None:
    game_sync("monster-hunter")
    data = {
        "format": "decklab-catalog",
        "version": 1,
        "game": "monster-hunter",
        "sets": [{"code": "t1", "name_en": "Test", "kind": "base"}],
        "products": [{"code": "p", "name_en": "P", "kind": HERO_DECK, "set": "t1"}],
    }
    problems = _problems(json.dumps(data))
    assert [where.rsplit(" ", 1)[-1] for where, _message in problems] == ["products[0]"]
    assert "'hero-deck' is not one of starter, prebuilt, booster" in problems[0][1]


@pytest.mark.django_db
def test_a_set_kind_the_game_does_not_declare_is_refused_naming_the_row() -> None:
    game_sync("unmatched")
    problems = _problems(_unmatched_catalog(HERO_DECK, set_kind="boxx"))
    assert any("sets[0]" in where and "set kind 'boxx'" in msg for where, msg in problems)
    assert any("'box'" in msg for _where, msg in problems)  # did you mean
    assert not CardSet.objects.exists()


def test_the_api_gives_the_games_label_for_its_own_kind(hero_deck: Product) -> None:
    client = APIClient()
    url = "/api/v1/games/unmatched/products/t-hero/"
    assert client.get(url).json()["kind_label"] == "Hero deck"
    body = client.get(url, HTTP_ACCEPT_LANGUAGE="ja").json()
    assert (body["kind"], body["kind_label"]) == ("hero-deck", "ヒーローデッキ")
    listed = client.get("/api/v1/games/unmatched/products/?kind=hero-deck").json()
    assert [row["code"] for row in listed["results"]] == ["t-hero"]


# --- the admin ------------------------------------------------------------------------------


@pytest.fixture
def admin_client_(client: Client, django_user_model: type[User]) -> Client:
    admin = django_user_model.objects.create_superuser("admin", "admin@example.com", "pw")
    client.force_login(admin)
    return client


def _product_form(game: Game, kind: str) -> dict[str, Any]:
    return {
        "game": game.pk,
        "code": "admin-product",
        "kind": kind,
        "name_en": "Admin product",
        "items-TOTAL_FORMS": "0",
        "items-INITIAL_FORMS": "0",
        "items-MIN_NUM_FORMS": "0",
        "items-MAX_NUM_FORMS": "1000",
    }


@pytest.mark.django_db
def test_the_admin_saves_a_games_own_kind_and_refuses_it_for_another_game(
    admin_client_: Client,
) -> None:
    unmatched, mattsan = game_sync("unmatched"), game_sync("mattsan")
    refused = admin_client_.post("/admin/catalog/product/add/", _product_form(mattsan, HERO_DECK))
    assert refused.status_code == 200
    errors = refused.context["adminform"].form.errors
    assert list(errors) == ["kind"] and "starter, prebuilt, booster" in errors["kind"][0]
    assert not Product.objects.exists()

    saved = admin_client_.post("/admin/catalog/product/add/", _product_form(unmatched, HERO_DECK))
    assert saved.status_code == 302
    assert Product.objects.get(code="admin-product").get_kind_display() == "Hero deck"


@pytest.mark.django_db
def test_the_admin_offers_each_games_kinds_grouped_by_game(admin_client_: Client) -> None:
    game_sync("unmatched")
    page = admin_client_.get("/admin/catalog/product/add/").content.decode()
    assert '<optgroup label="Unmatched">' in page
    assert '<option value="hero-deck">Hero deck</option>' in page
