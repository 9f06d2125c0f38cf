"""The collection API: owner-only (404 to others unless public, then read-only), items CRUD
and bulk add, imports preview/commit/undo, exports, wishlist, a deck's report and build."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from collection.models import CollectionItem, ImportBatch, WishlistItem
from collection.services import collection_settings_update
from tests.collection.conftest import Shelf, add, make_deck
from tests.collection.test_csv import DECKBOX

API = "/api/v1/collection"


def _post(client: Client, url: str, body: Any) -> Any:
    return client.post(url, json.dumps(body), content_type="application/json")


def _patch(client: Client, url: str, body: Any) -> Any:
    return client.patch(url, json.dumps(body), content_type="application/json")


def test_adding_an_item_twice_merges_it(owner_client: Client, owner: Any, shelf: Shelf) -> None:
    body = {"game": "mattsan", "set": "MT1", "number": "001", "quantity": 2, "language": "en"}
    assert _post(owner_client, f"{API}/items/", body).status_code == 201
    second = _post(owner_client, f"{API}/items/", body)
    assert second.status_code == 201
    assert (second.json()["quantity"], second.json()["card"]) == (4, "MTC-001")
    assert CollectionItem.objects.filter(owner=owner).count() == 1


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"quantity": 0}, "quantity"),
        ({"quantity": 10000}, "quantity"),
        ({"quantity": "many"}, "quantity"),
        ({"set": "MT9"}, "set"),
        ({"game": "chess"}, "game"),
        ({"finish": "parallel"}, "finish"),
        ({"language": "fr"}, "language"),
        ({"condition": "shiny"}, "condition"),
        ({"currency": "yen"}, "currency"),
        ({"tags": ["x" * 41]}, "tags"),
    ],
)
def test_a_bad_item_is_400_naming_its_field(
    owner_client: Client, shelf: Shelf, change: dict[str, Any], field: str
) -> None:
    body = {"game": "mattsan", "set": "MT1", "number": "001", "quantity": 1, **change}
    response = _post(owner_client, f"{API}/items/", body)
    assert response.status_code == 400
    assert list(response.json()) == [field]


def test_bulk_add_is_all_or_nothing_naming_the_bad_index(
    owner_client: Client, owner: Any, shelf: Shelf
) -> None:
    good = {"game": "mattsan", "set": "MT1", "number": "001", "quantity": 1}
    bad = {**good, "number": "999"}
    response = _post(owner_client, f"{API}/items/bulk/", {"items": [good, bad]})
    assert response.status_code == 400
    assert response.json() == {
        "items": {"1": {"set": ["No printing matches this set, number and variant (and card)."]}}
    }
    assert not CollectionItem.objects.filter(owner=owner).exists()
    response = _post(owner_client, f"{API}/items/bulk/", {"items": [good, good]})
    assert response.status_code == 201
    assert [i["quantity"] for i in response.json()] == [2]


def test_items_are_filtered(owner_client: Client, owner: Any, shelf: Shelf) -> None:
    add(owner, shelf.base_printings[0], 1, binder="Red")
    add(owner, shelf.base_printings[1], 2, finish="foil")
    add(owner, shelf.reprint, 3)
    cases = {
        "binder=Red": ["MTC-001"],
        "finish=foil": ["MTC-002"],
        "set=MT2": ["MTC-001"],
        "q=潮": [],
        "q=stone": ["MTC-002"],
        "sort=quantity": ["MTC-001", "MTC-002", "MTC-001"],
    }
    for query, cards in cases.items():
        found = owner_client.get(f"{API}/items/?{query}").json()["results"]
        assert [i["card"] for i in found] == cards, query


def test_patch_changes_quantity_and_moves_to_a_binder(
    owner_client: Client, owner: Any, shelf: Shelf
) -> None:
    add(owner, shelf.base_printings[0], 2)
    item = CollectionItem.objects.get(owner=owner)
    response = _patch(owner_client, f"{API}/items/{item.pk}/", {"quantity": 5, "binder": "Blue"})
    assert response.status_code == 200
    assert (response.json()["quantity"], response.json()["binder"]) == (5, "Blue")
    moved = response.json()["id"]
    assert owner_client.delete(f"{API}/items/{moved}/").status_code == 204
    assert not CollectionItem.objects.filter(owner=owner).exists()


def test_a_private_collection_is_404_to_friend_and_stranger(
    owner: Any, friend_client: Client, stranger_client: Client, shelf: Shelf
) -> None:
    add(owner, shelf.base_printings[0], 2)
    item = CollectionItem.objects.get(owner=owner)
    for client in (friend_client, stranger_client, Client()):
        assert client.get(f"{API}/items/?owner=owner").status_code == 404
        assert client.get(f"{API}/items/{item.pk}/").status_code == 404
        assert client.get(f"{API}/export/?owner=owner").status_code == 404
    assert _patch(friend_client, f"{API}/items/{item.pk}/", {"quantity": 9}).status_code == 404
    assert Client().get(f"{API}/items/").status_code == 401


def test_a_public_collection_is_readable_never_writable_by_others(
    owner: Any, friend_client: Client, shelf: Shelf
) -> None:
    add(owner, shelf.base_printings[0], 2, trade_quantity=1)
    collection_settings_update(owner=owner, is_public=True)
    item = CollectionItem.objects.get(owner=owner)
    listed = friend_client.get(f"{API}/items/?owner=owner")
    # the trade list: the copies offered (tests/collection/test_privacy.py has the rest)
    assert [i["quantity"] for i in listed.json()["results"]] == [1]
    assert Client().get(f"{API}/items/{item.pk}/").status_code == 200
    assert _patch(friend_client, f"{API}/items/{item.pk}/", {"quantity": 9}).status_code == 404
    assert friend_client.delete(f"{API}/items/{item.pk}/").status_code == 404
    assert CollectionItem.objects.get(pk=item.pk).quantity == 2


def test_import_preview_commit_and_undo(owner_client: Client, owner: Any, shelf: Shelf) -> None:
    preview = _post(owner_client, f"{API}/imports/", {"content": DECKBOX, "game": "mattsan"})
    assert preview.status_code == 201
    body = preview.json()
    assert (
        body["format"],
        body["rows"],
        body["merged_rows"],
        body["new_items"],
        body["copies"],
    ) == ("deckbox", 3, 1, 2, 5)
    assert not CollectionItem.objects.filter(owner=owner).exists()
    commit = _post(owner_client, f"{API}/imports/{body['id']}/commit/", {})
    assert commit.status_code == 200 and commit.json()["status"] == "committed"
    assert _post(owner_client, f"{API}/imports/{body['id']}/commit/", {}).status_code == 400
    assert CollectionItem.objects.filter(owner=owner).count() == 2
    undo = _post(owner_client, f"{API}/imports/{body['id']}/undo/", {})
    assert undo.status_code == 200 and undo.json()["status"] == "undone"
    assert not CollectionItem.objects.filter(owner=owner).exists()


def test_a_bad_import_is_400_with_every_problem_and_stores_nothing(
    owner_client: Client, shelf: Shelf
) -> None:
    text = "Count,Tradelist Count,Name,Edition\n1,0,Flame Fax,MT1\n2,0,Tide Caller,MT7\n"
    response = _post(owner_client, f"{API}/imports/", {"content": text, "game": "mattsan"})
    assert response.status_code == 400
    assert [(p["line"], p["column"]) for p in response.json()["problems"]] == [
        (2, "Name"),
        (3, "Edition"),
    ]
    assert not ImportBatch.objects.exists()


def test_a_strangers_import_is_404(
    owner_client: Client, stranger_client: Client, shelf: Shelf
) -> None:
    preview = _post(owner_client, f"{API}/imports/", {"content": DECKBOX, "game": "mattsan"})
    batch = preview.json()["id"]
    assert _post(stranger_client, f"{API}/imports/{batch}/commit/", {}).status_code == 404


@pytest.mark.parametrize("fmt", ["decklab", "deckbox", "moxfield", "manabox", "dragonshield"])
def test_export_in_every_format(owner_client: Client, owner: Any, shelf: Shelf, fmt: str) -> None:
    add(owner, shelf.base_printings[0], 2, binder="Red")
    response = owner_client.get(f"{API}/export/?format={fmt}")
    assert response.status_code == 200
    assert response.json()["rows"] == 1
    lost = fmt in ("deckbox", "moxfield")
    assert bool(response.json()["warnings"]) is lost


def test_an_unknown_export_format_is_400(owner_client: Client, shelf: Shelf) -> None:
    response = owner_client.get(f"{API}/export/?format=xlsx")
    assert response.status_code == 400 and list(response.json()) == ["format"]


def test_wishlist_add_change_and_export(owner_client: Client, owner: Any, shelf: Shelf) -> None:
    body = {"game": "mattsan", "card": "MTC-001", "quantity": 2}
    assert _post(owner_client, f"{API}/wishlist/", body).status_code == 201
    pinned = _post(owner_client, f"{API}/wishlist/", {**body, "set": "MT2", "number": "050"})
    assert (pinned.json()["set"], pinned.json()["quantity"]) == ("MT2", 2)
    assert _post(owner_client, f"{API}/wishlist/", {**body, "quantity": 1000}).status_code == 400
    wish = WishlistItem.objects.get(owner=owner, printing=None)
    assert _patch(owner_client, f"{API}/wishlist/{wish.pk}/", {"quantity": 0}).status_code == 204
    content = owner_client.get(f"{API}/wishlist/export/").json()["content"]
    assert content.splitlines() == [
        "game,card,name_en,name_ja,set,number,variant,quantity",
        "mattsan,MTC-001,Flame Fox,炎の狐,MT2,050,,2",
    ]


def test_deck_report_build_and_wish_missing(
    owner_client: Client, owner: Any, stranger_client: Client, shelf: Shelf
) -> None:
    add(owner, shelf.base_printings[0], 2)
    deck = make_deck(owner, shelf.game, [(shelf.cards[0], 2)], name="Built one")
    other = make_deck(owner, shelf.game, [(shelf.cards[0], 3)], name="Other")
    url = f"/api/v1/decks/{deck.public_id}"
    report = owner_client.get(f"{url}/collection/").json()
    assert (report["buildable"], report["owned"], report["missing"]) == (True, 2, 0)
    assert _post(owner_client, f"{url}/build/", {}).status_code == 200
    assert _post(owner_client, f"{url}/build/", {}).status_code == 400
    assert _post(stranger_client, f"{url}/build/", {}).status_code == 404
    other_report = owner_client.get(f"/api/v1/decks/{other.public_id}/collection/").json()
    assert other_report["entries"][0]["held_by"] == [
        {"deck_name": "Built one", "public_id": deck.public_id, "quantity": 2}
    ]
    added = _post(owner_client, f"/api/v1/decks/{other.public_id}/wish-missing/", {})
    assert added.json() == {"added": 3}
    assert owner_client.delete(f"{url}/build/").status_code == 204


def test_an_unknown_import_format_is_400_naming_it(owner_client: Client, shelf: Shelf) -> None:
    body = {"content": DECKBOX, "game": "mattsan", "format": "excel"}
    response = _post(owner_client, f"{API}/imports/", body)
    assert response.status_code == 400 and list(response.json()) == ["format"]


def test_the_api_is_in_the_openapi_schema(client: Client, db: None) -> None:
    from drf_spectacular.generators import SchemaGenerator

    paths = SchemaGenerator().get_schema(request=None, public=True)["paths"]
    assert {
        "/api/v1/collection/items/",
        "/api/v1/collection/imports/",
        "/api/v1/collection/imports/{batch_id}/undo/",
        "/api/v1/collection/export/",
        "/api/v1/collection/wishlist/",
        "/api/v1/decks/{public_id}/collection/",
        "/api/v1/decks/{public_id}/build/",
    } <= set(paths)
