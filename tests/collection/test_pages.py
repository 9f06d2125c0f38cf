"""Collection pages: the collection per game, adding from the catalog pages, quantities
changed in place, imports with preview and undo, the wishlist, decks and cards."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from catalog.models import ProductItem
from collection.models import CollectionItem, DeckBuild, ImportBatch, WishlistItem
from tests.catalog.factories import CardFactory, CardSetFactory, PrintingFactory, ProductFactory
from tests.collection.conftest import Shelf, add, make_deck
from tests.collection.test_csv import DECKBOX

ADD = {
    "quantity": "2",
    "condition": "near_mint",
    "finish": "foil",
    "language": "ja",
    "binder": "Red",
}


def test_the_collection_page_shows_items_totals_and_set_completion(
    owner_client: Client, owner: Any, shelf: Shelf, django_assert_max_num_queries: Any
) -> None:
    add(owner, shelf.base_printings[0], 2)
    add(owner, shelf.base_printings[1], 1, binder="Red", tags=("trade",))
    add(owner, shelf.reprint, 4)
    for n in range(8):  # the page's queries do not grow with the number of sets
        extra = CardSetFactory(game=shelf.game, code=f"X{n}")
        add(owner, PrintingFactory(card=shelf.cards[1], card_set=extra), 1)
    with django_assert_max_num_queries(10):
        response = owner_client.get(reverse("collection:game", args=["mattsan"]))
    html = response.content.decode()
    assert response.status_code == 200
    assert 'data-copies="15" data-cards="2"' in html
    assert 'data-set="MT1" data-owned="2" data-listed="3"' in html
    assert 'data-set="MT2" data-owned="1" data-listed="1"' in html
    filtered = owner_client.get(reverse("collection:game", args=["mattsan"]) + "?binder=Red")
    assert 'data-copies="1" data-cards="1"' in filtered.content.decode()


def test_the_missing_cards_of_a_set_are_one_click_away(
    owner_client: Client, owner: Any, shelf: Shelf
) -> None:
    add(owner, shelf.base_printings[0], 1)
    html = owner_client.get(reverse("collection:set-missing", args=["mattsan", "MT1"])).content
    assert b'data-card="MTC-002"' in html and b'data-card="MTC-003"' in html
    assert b'data-card="MTC-001"' not in html


def test_the_missing_cards_page_is_paged_and_its_queries_do_not_grow_with_the_set(
    owner_client: Client, owner: Any, shelf: Shelf
) -> None:
    url = reverse("collection:set-missing", args=["mattsan", "MT1"])
    with CaptureQueriesContext(connection) as small:
        owner_client.get(url)
    for n in range(120):
        PrintingFactory(
            card=CardFactory(game=shelf.game, code=f"MTX-{n:03d}"),
            card_set=shelf.base,
            collector_number=f"{100 + n}",
        )
    with CaptureQueriesContext(connection) as big:
        html = owner_client.get(url).content.decode()
    assert len(big.captured_queries) == len(small.captured_queries)
    # one page of cards, and the way to the next
    assert html.count("data-card=") == 50 and 'rel="next"' in html


def test_a_card_page_adds_copies_and_shows_mine_and_my_decks(
    owner_client: Client, owner: Any, shelf: Shelf
) -> None:
    response = owner_client.post(
        reverse("collection:add"), {**ADD, "printing": shelf.base_printings[0].pk}
    )
    assert response.status_code == 302
    item = CollectionItem.objects.get(owner=owner)
    assert (item.quantity, item.finish, item.binder) == (2, "foil", "Red")
    make_deck(owner, shelf.game, [(shelf.cards[0], 3)], name="Fox deck")
    page = owner_client.get(shelf.cards[0].get_absolute_url()).content.decode()
    assert 'data-owned="2"' in page and "Fox deck</a> ×3" in page


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"quantity": "0"}, "quantity"),
        ({"quantity": "10000"}, "quantity"),
        ({"finish": "parallel"}, "finish"),
        ({"language": "de"}, "language"),
        ({"binder": "x" * 81}, "binder"),
        ({"printing": "abc"}, "printing"),
    ],
)
def test_a_bad_add_is_400_naming_the_field(
    owner_client: Client, owner: Any, shelf: Shelf, change: dict[str, str], field: str
) -> None:
    data = {**ADD, "printing": str(shelf.base_printings[0].pk), **change}
    response = owner_client.post(reverse("collection:add"), data)
    assert response.status_code == 400
    assert f'data-field="{field}"' in response.content.decode()
    assert not CollectionItem.objects.exists()


def test_a_set_and_a_product_are_added_in_one_action(
    owner_client: Client, owner: Any, shelf: Shelf
) -> None:
    product = ProductFactory(game=shelf.game, code="MT-ST1")
    ProductItem.objects.create(product=product, printing=shelf.base_printings[2], quantity=3)
    ProductItem.objects.create(product=product, printing=shelf.reprint, quantity=1, zone="side")
    url = reverse("collection:add-product", args=["mattsan", "MT-ST1"])
    assert owner_client.post(url, {**ADD, "quantity": "2"}).status_code == 302
    owned = dict(CollectionItem.objects.filter(owner=owner).values_list("printing_id", "quantity"))
    assert owned == {shelf.base_printings[2].pk: 6, shelf.reprint.pk: 2}
    url = reverse("collection:add-set", args=["mattsan", "MT1"])
    assert owner_client.post(url, {**ADD, "quantity": "1"}).status_code == 302
    owned = dict(CollectionItem.objects.filter(owner=owner).values_list("printing_id", "quantity"))
    assert owned[shelf.base_printings[0].pk] == 1 and owned[shelf.base_printings[2].pk] == 7


def test_a_quantity_changes_in_place_and_a_stranger_gets_404(
    owner_client: Client, stranger_client: Client, owner: Any, shelf: Shelf
) -> None:
    add(owner, shelf.base_printings[0], 2)
    item = CollectionItem.objects.get(owner=owner)
    url = reverse("collection:item-quantity", args=[item.pk])
    assert stranger_client.post(url, {"quantity": "9"}, HTTP_HX_REQUEST="true").status_code == 404
    response = owner_client.post(url, {"quantity": "5"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and 'value="5"' in response.content.decode()
    bad = owner_client.post(url, {"quantity": "-1"}, HTTP_HX_REQUEST="true")
    assert bad.status_code == 400 and 'data-field="quantity"' in bad.content.decode()
    assert owner_client.post(url, {"quantity": "0"}, HTTP_HX_REQUEST="true").content == b""
    assert not CollectionItem.objects.filter(owner=owner).exists()


def test_the_csrf_token_is_required(owner: Any, shelf: Shelf) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    response = client.post(reverse("collection:add"), {**ADD, "printing": shelf.reprint.pk})
    assert response.status_code == 403


def test_import_preview_commit_and_undo_pages(
    owner_client: Client, owner: Any, shelf: Shelf
) -> None:
    response = owner_client.post(reverse("collection:import"), {"game": "mattsan", "text": DECKBOX})
    assert response.status_code == 200 and b'id="import-preview"' in response.content
    assert not CollectionItem.objects.filter(owner=owner).exists()
    batch = ImportBatch.objects.get(owner=owner)
    owner_client.post(reverse("collection:import-commit", args=[batch.pk]))
    assert CollectionItem.objects.filter(owner=owner).count() == 2
    owner_client.post(reverse("collection:import-undo", args=[batch.pk]))
    assert not CollectionItem.objects.filter(owner=owner).exists()


def test_a_bad_import_page_is_400_listing_the_problems(owner_client: Client, shelf: Shelf) -> None:
    text = "Count,Tradelist Count,Name,Edition\n1,0,Flame Fax,MT1\n"
    response = owner_client.post(reverse("collection:import"), {"game": "mattsan", "text": text})
    assert response.status_code == 400
    assert b'data-line="2" data-column="Name"' in response.content


def test_the_export_page_warns_then_downloads(
    owner_client: Client, owner: Any, shelf: Shelf
) -> None:
    add(owner, shelf.base_printings[0], 1, binder="Red")
    page = owner_client.get(reverse("collection:export") + "?format=deckbox")
    assert "Deckbox has no column for the binder: 1 items lose it." in page.content.decode()
    download = owner_client.get(reverse("collection:export") + "?format=decklab&download=1")
    assert download["Content-Type"] == "text/csv; charset=utf-8"
    assert download.content.decode().splitlines()[1].startswith("mattsan,MTC-001,Flame Fox,")


def test_the_deck_page_shows_owned_and_missing_and_builds(
    owner_client: Client, owner: Any, shelf: Shelf
) -> None:
    add(owner, shelf.base_printings[0], 2)
    deck = make_deck(owner, shelf.game, [(shelf.cards[0], 2), (shelf.cards[1], 1)])
    html = owner_client.get(deck.get_absolute_url()).content.decode()
    assert 'data-card="MTC-001" data-missing="0"' in html
    assert 'data-card="MTC-002" data-missing="1"' in html
    assert 'data-buildable="0"' in html
    owner_client.post(reverse("collection:deck-wish-missing", args=[deck.public_id]))
    assert list(WishlistItem.objects.values_list("card__code", "quantity")) == [("MTC-002", 1)]
    add(owner, shelf.base_printings[1], 1)
    assert not WishlistItem.objects.exists()
    assert 'data-buildable="1"' in owner_client.get(deck.get_absolute_url()).content.decode()
    owner_client.post(reverse("collection:deck-build", args=[deck.public_id]))
    assert DeckBuild.objects.filter(deck=deck).exists()
    edit = owner_client.get(reverse("decks:edit", args=[deck.public_id])).content.decode()
    assert 'data-built="1"' in edit


def test_a_stranger_cannot_mark_a_deck_built(
    stranger_client: Client, owner: Any, shelf: Shelf
) -> None:
    deck = make_deck(owner, shelf.game, [(shelf.cards[0], 1)])
    response = stranger_client.post(reverse("collection:deck-build", args=[deck.public_id]))
    assert response.status_code == 404


def test_collection_pages_need_a_login(client: Client, shelf: Shelf) -> None:
    response = client.get(reverse("collection:game", args=["mattsan"]))
    assert response.status_code == 302 and "login" in response["Location"]


def test_a_typed_list_is_previewed_like_a_file(owner_client: Client, shelf: Shelf) -> None:
    data = {"game": "mattsan", "typed": "2 Stone, Wall (MT1) 002\n"}
    response = owner_client.post(reverse("collection:import"), data)
    assert response.status_code == 200 and b'id="import-preview"' in response.content
    both = owner_client.post(reverse("collection:import"), {**data, "text": DECKBOX})
    assert both.status_code == 400 and not ImportBatch.objects.filter(dialect="deckbox").exists()


def test_the_collection_totals_agree_with_their_counts(
    owner_client: Client, owner: Any, shelf: Shelf
) -> None:
    """Issue 18's "1 items": each count takes its own singular or plural."""
    add(owner, shelf.base_printings[0], 1)
    game_page = owner_client.get(reverse("collection:game", args=["mattsan"])).content.decode()
    index = owner_client.get(reverse("collection:index")).content.decode()
    for html in (game_page, index):
        totals = html.split('id="collection-totals"', 1)[1].split(">", 1)[1].split("</p>", 1)[0]
        assert "1 copy" in totals and "1 card" in totals
        assert "copies" not in totals and "cards" not in totals
    assert "1 item" in game_page and "1 items" not in game_page
    add(owner, shelf.base_printings[1], 2)
    game_page = owner_client.get(reverse("collection:game", args=["mattsan"])).content.decode()
    assert "3 copies" in game_page and "2 cards" in game_page and "2 items" in game_page
