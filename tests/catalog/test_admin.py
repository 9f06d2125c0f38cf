"""The catalog admin: every model listed and searchable, and bad attributes refused by field."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from catalog.importers.write import game_sync
from catalog.models import Card, CardSet, CatalogImportJob, Game, Printing, Product, ProductItem

MONSTER = {
    "hp": 8,
    "attack": 3,
    "movement": 2,
    "reach": 1,
    "rank": 3,
    "material_points": 2,
}


@pytest.fixture
def admin_client_(client: Client, django_user_model: type[User]) -> Client:
    admin = django_user_model.objects.create_superuser("admin", "admin@example.com", "pw")
    client.force_login(admin)
    return client


@pytest.fixture
def monster_hunter() -> Game:
    return game_sync("monster-hunter")


@pytest.fixture
def mh_set(monster_hunter: Game) -> CardSet:
    return CardSet.objects.create(game=monster_hunter, code="mh-demo", name_en="Demo set")


def card_form(game: Game, **fields: Any) -> dict[str, Any]:
    """A card add-form post with an empty printing inline, overridden by ``fields``."""
    data: dict[str, Any] = {
        "game": game.pk,
        "code": "demo-rathalos",
        "card_type": "monster",
        "name_en": "Demo Rathalos",
        "name_ja": "デモ・リオレウス",
        "attributes": json.dumps(MONSTER),
        "copy_limit": "",
        "source": "",
        "printings-TOTAL_FORMS": "0",
        "printings-INITIAL_FORMS": "0",
        "printings-MIN_NUM_FORMS": "0",
        "printings-MAX_NUM_FORMS": "1000",
    }
    return data | fields


def form_errors(response: Any) -> dict[str, list[str]]:
    return {k: list(v) for k, v in response.context["adminform"].form.errors.items()}


@pytest.mark.django_db
def test_every_catalog_model_has_a_searchable_list(admin_client_: Client, mh_set: CardSet) -> None:
    card = Card.objects.create(
        game=mh_set.game, code="demo-a", card_type="armor", name_ja="デモ", name_en="Demo A"
    )
    printing = Printing.objects.create(card=card, card_set=mh_set, collector_number="1")
    product = Product.objects.create(
        game=mh_set.game, code="demo-starter", kind="starter", name_en="Demo starter"
    )
    ProductItem.objects.create(product=product, printing=printing, quantity=2)
    CatalogImportJob.objects.create(file_name="a.csv", content="code,type\n")
    for model in ("game", "cardset", "card", "printing", "product", "catalogimportjob"):
        response = admin_client_.get(f"/admin/catalog/{model}/", {"q": "demo"})
        assert response.status_code == 200, model
    assert b"demo-a" in admin_client_.get("/admin/catalog/card/", {"q": "デモ"}).content
    for url in (
        f"/admin/catalog/card/{card.pk}/change/",
        f"/admin/catalog/printing/{printing.pk}/change/",
        f"/admin/catalog/product/{product.pk}/change/",
        f"/admin/catalog/cardset/{mh_set.pk}/change/",
    ):
        assert admin_client_.get(url).status_code == 200, url


@pytest.mark.django_db
def test_a_card_with_an_invalid_attribute_shows_the_error_and_saves_nothing(
    admin_client_: Client, monster_hunter: Game
) -> None:
    response = admin_client_.post(
        "/admin/catalog/card/add/", card_form(monster_hunter, attributes='{"hp": 0}')
    )

    assert response.status_code == 200
    errors = form_errors(response)
    assert list(errors) == ["attributes"]
    assert "hp: Ensure this value is greater than or equal to 1." in errors["attributes"][0]
    assert not Card.objects.exists()


@pytest.mark.django_db
def test_an_unknown_attribute_or_card_type_is_refused_by_field(
    admin_client_: Client, monster_hunter: Game
) -> None:
    response = admin_client_.post(
        "/admin/catalog/card/add/",
        card_form(monster_hunter, attributes=json.dumps(MONSTER | {"colour": "red"})),
    )
    assert "colour: Unknown attribute for this card type." in form_errors(response)["attributes"][0]

    response = admin_client_.post(
        "/admin/catalog/card/add/", card_form(monster_hunter, card_type="dragon")
    )
    assert "Not a card type of this game" in form_errors(response)["card_type"][0]
    assert not Card.objects.exists()


@pytest.mark.django_db
def test_a_card_without_a_game_is_an_error_not_a_crash(
    admin_client_: Client, monster_hunter: Game
) -> None:
    response = admin_client_.post(
        "/admin/catalog/card/add/", card_form(monster_hunter) | {"game": ""}
    )
    assert response.status_code == 200
    assert "game" in form_errors(response)
    assert not Card.objects.exists()


@pytest.mark.django_db
def test_a_valid_card_is_saved_with_its_printings(admin_client_: Client, mh_set: CardSet) -> None:
    data = card_form(
        mh_set.game,
        **{
            "printings-TOTAL_FORMS": "1",
            "printings-0-card_set": mh_set.pk,
            "printings-0-collector_number": "001",
            "printings-0-variant": "",
            "printings-0-attributes": "{}",
        },
    )
    response = admin_client_.post("/admin/catalog/card/add/", data)

    assert response.status_code == 302
    card = Card.objects.get(code="demo-rathalos")
    assert card.attributes == MONSTER
    assert card.printings.get().collector_number == "001"


@pytest.mark.django_db
def test_a_printing_with_bad_attributes_is_refused_in_the_inline(admin_client_: Client) -> None:
    unmatched = game_sync("unmatched")
    um_set = CardSet.objects.create(game=unmatched, code="um-demo", name_en="Demo")
    data = card_form(
        unmatched,
        code="demo-feint",
        card_type="versatile",
        attributes='{"value": 2}',
        **{
            "printings-TOTAL_FORMS": "1",
            "printings-0-card_set": um_set.pk,
            "printings-0-collector_number": "",
            "printings-0-variant": "",
            "printings-0-attributes": '{"fighter": "any", "boost": 12}',
        },
    )
    response = admin_client_.post("/admin/catalog/card/add/", data)

    assert response.status_code == 200
    inline_errors = response.context["inline_admin_formsets"][0].formset.errors
    message = inline_errors[0]["attributes"][0]
    assert "boost: Ensure this value is less than or equal to 9." in message
    assert not Card.objects.exists()
    assert not Printing.objects.exists()


@pytest.mark.django_db
def test_a_product_cannot_hold_a_printing_of_another_game(
    admin_client_: Client, mh_set: CardSet
) -> None:
    mattsan = game_sync("mattsan")
    other_set = CardSet.objects.create(game=mattsan, code="ms-demo", name_en="Demo")
    card = Card.objects.create(game=mattsan, code="demo-trap", card_type="trap", name_en="Trap")
    printing = Printing.objects.create(card=card, card_set=other_set)
    data = {
        "game": mh_set.game.pk,
        "code": "demo-starter",
        "kind": "starter",
        "name_en": "Demo starter",
        "items-TOTAL_FORMS": "1",
        "items-INITIAL_FORMS": "0",
        "items-MIN_NUM_FORMS": "0",
        "items-MAX_NUM_FORMS": "1000",
        "items-0-printing": printing.pk,
        "items-0-zone": "main",
        "items-0-quantity": "2",
    }
    response = admin_client_.post("/admin/catalog/product/add/", data)

    assert response.status_code == 200
    formset = response.context["inline_admin_formsets"][0].formset
    assert "another game" in formset.errors[0]["printing"][0]
    assert not Product.objects.exists()


@pytest.mark.django_db
def test_printings_are_found_by_autocomplete_for_product_items(
    admin_client_: Client, mh_set: CardSet
) -> None:
    card = Card.objects.create(
        game=mh_set.game, code="demo-a", card_type="armor", name_en="Demo Armor"
    )
    Printing.objects.create(card=card, card_set=mh_set, collector_number="7")
    response = admin_client_.get(
        "/admin/autocomplete/",
        {
            "app_label": "catalog",
            "model_name": "productitem",
            "field_name": "printing",
            "term": "Demo Armor",
        },
    )
    assert response.status_code == 200
    assert [r["text"] for r in response.json()["results"]] == ["Demo Armor (mh-demo) 7"]


@pytest.mark.django_db
def test_import_jobs_are_read_only_in_the_admin(admin_client_: Client) -> None:
    job = CatalogImportJob.objects.create(
        file_name="bad.csv",
        content="code,type\n",
        status="failed",
        problems=[{"where": "bad.csv:2", "message": "missing type"}],
    )
    page = admin_client_.get(f"/admin/catalog/catalogimportjob/{job.pk}/change/")
    assert page.status_code == 200
    assert "<code>bad.csv:2</code> missing type" in page.content.decode()
    assert "10 characters" in page.content.decode()
    assert admin_client_.get("/admin/catalog/catalogimportjob/add/").status_code == 403
    response = admin_client_.post(
        f"/admin/catalog/catalogimportjob/{job.pk}/change/", {"file_name": "changed.csv"}
    )
    assert response.status_code == 403
    job.refresh_from_db()
    assert job.file_name == "bad.csv"
