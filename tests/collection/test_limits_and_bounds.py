"""A player's collection is bounded and so is every page listing it: the collection's size,
an import's rows and the imports an hour (400 or 429 with a clear message, on the page and in
the API); the import endpoints alone take bodies as large as the documented 16 MB file; and
pages listing a player's items show a page at a time, in as many queries for 30 items as for
130."""

from __future__ import annotations

import json
from typing import Any

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from collection.limits import COLLECTION_FULL, TOO_MANY_IMPORTS, TOO_MANY_ROWS
from collection.models import CollectionItem, CollectionJob, ImportBatch, WishlistItem
from collection.selectors import CARD_COPIES_SHOWN
from collection.services import collection_settings_update
from tests.catalog.factories import CardFactory, PrintingFactory
from tests.collection.conftest import Shelf, add, make_deck

API = "/api/v1/collection"
PER_PAGE = 50


def _post(client: Client, url: str, body: Any) -> Any:
    return client.post(url, json.dumps(body), content_type="application/json")


def _text(shelf: Shelf, rows: int) -> str:
    header = "game,card,set,number,quantity,language,binder\n"
    return header + "".join(
        f"mattsan,{shelf.cards[0].code},MT1,001,1,ja,box {i}\n" for i in range(rows)
    )


def _message(template: Any) -> str:
    """The fixed start of a limit's message, up to its first placeholder."""
    return str(template).split("%(")[0]


# --- limits --------------------------------------------------------------------------------


def test_a_full_collection_refuses_new_items_on_the_page_and_in_the_api(
    owner: Any, owner_client: Client, shelf: Shelf, settings: Any
) -> None:
    settings.COLLECTION_MAX_ITEMS = 2
    add(owner, shelf.base_printings[0], 1)
    add(owner, shelf.base_printings[1], 1)
    full = _message(COLLECTION_FULL)
    form = {"quantity": "1", "condition": "near_mint", "finish": "normal", "language": "ja"}
    page = owner_client.post(
        reverse("collection:add"), {**form, "printing": shelf.base_printings[2].pk}
    )
    assert page.status_code == 400 and full in page.content.decode()
    # copies merging into an item already there take no room
    merged = owner_client.post(
        reverse("collection:add"), {**form, "printing": shelf.base_printings[0].pk}
    )
    assert merged.status_code == 302
    body = {"game": "mattsan", "set": "MT1", "number": "003", "quantity": 1, "language": "ja"}
    api = _post(owner_client, f"{API}/items/", body)
    assert api.status_code == 400 and full in api.json()["items"][0]
    preview = _post(
        owner_client, f"{API}/imports/", {"content": _text(shelf, 1), "game": "mattsan"}
    )
    assert preview.status_code == 400
    assert full in " ".join(p["message"] for p in preview.json()["problems"])
    assert CollectionItem.objects.filter(owner=owner).count() == 2
    assert not ImportBatch.objects.exists()


def test_an_import_over_the_row_limit_is_400_on_the_page_and_in_the_api(
    owner_client: Client, shelf: Shelf, settings: Any
) -> None:
    settings.COLLECTION_IMPORT_MAX_ROWS = 3
    text = _text(shelf, 4)
    api = _post(owner_client, f"{API}/imports/", {"content": text, "game": "mattsan"})
    assert api.status_code == 400 and _message(TOO_MANY_ROWS) in api.json()["content"][0]
    page = owner_client.post(reverse("collection:import"), {"game": "mattsan", "text": text})
    assert page.status_code == 400 and _message(TOO_MANY_ROWS) in page.content.decode()
    assert not ImportBatch.objects.exists() and not CollectionJob.objects.exists()


def test_imports_an_hour_are_counted_across_the_page_and_the_api(
    owner_client: Client, shelf: Shelf, settings: Any
) -> None:
    settings.COLLECTION_IMPORTS_PER_HOUR = 2
    text = _text(shelf, 1)
    first = _post(owner_client, f"{API}/imports/", {"content": text, "game": "mattsan"})
    second = owner_client.post(reverse("collection:import"), {"game": "mattsan", "text": text})
    assert (first.status_code, second.status_code) == (201, 200)
    page = owner_client.post(reverse("collection:import"), {"game": "mattsan", "text": text})
    assert page.status_code == 429
    assert _message(TOO_MANY_IMPORTS) in page.content.decode()
    api = _post(owner_client, f"{API}/imports/", {"content": text, "game": "mattsan"})
    assert api.status_code == 429 and _message(TOO_MANY_IMPORTS) in api.json()["detail"]
    assert ImportBatch.objects.count() == 2


def test_the_import_api_takes_a_16_mb_file_while_other_bodies_stay_small(
    owner_client: Client, shelf: Shelf, settings: Any
) -> None:
    # 6 MB of rows: more than every other endpoint takes, well within an import's 16 MB
    rows = (6 * 1024 * 1024) // 40
    text = _text(shelf, rows)
    assert len(text) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    settings.COLLECTION_IMPORT_MAX_ROWS = rows
    accepted = _post(owner_client, f"{API}/imports/", {"content": text, "game": "mattsan"})
    assert accepted.status_code == 202, accepted.content[:300]  # a job: a worker reads it
    assert CollectionJob.objects.get().content == text
    other = _post(owner_client, f"{API}/items/bulk/", {"items": [], "pad": text})
    assert other.status_code == 413
    # above the import's own limit (with room for JSON's escapes): 413 naming it
    huge = _post(owner_client, f"{API}/imports/", {"content": "x" * (49 * 1024 * 1024)})
    assert huge.status_code == 413 and "16 MB" in huge.json()["detail"]


# --- bounded pages -----------------------------------------------------------------------------


def _items(owner: Any, printing: Any, count: int) -> None:
    CollectionItem.objects.bulk_create(
        CollectionItem(owner=owner, printing=printing, quantity=2, language="ja", binder=f"b{i}")
        for i in range(count)
    )


def _queries(client: Client, url: str) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return len(captured.captured_queries), response.content.decode()


def test_a_card_page_lists_a_bounded_number_of_my_copies(
    owner: Any, owner_client: Client, shelf: Shelf
) -> None:
    seen = []
    for total in (30, 130):
        CollectionItem.objects.filter(owner=owner).delete()
        _items(owner, shelf.base_printings[0], total)
        queries, page = _queries(owner_client, shelf.cards[0].get_absolute_url())
        assert page.count("data-item=") == CARD_COPIES_SHOWN
        assert f'data-owned="{2 * total}"' in page
        assert f"{total - CARD_COPIES_SHOWN} more items" in page
        seen.append(queries)
    assert seen[0] == seen[1]


def test_the_trade_list_the_wishlist_and_a_binder_are_a_page_at_a_time(
    owner: Any, owner_client: Client, friend_client: Client, shelf: Shelf
) -> None:
    counts: dict[str, list[int]] = {"trades": [], "wishlist": [], "binder": []}
    collection_settings_update(owner=owner, is_public=True)
    for more in (60, 70):
        cards = [CardFactory(game=shelf.game) for _ in range(more)]
        printings = [PrintingFactory(card=card, card_set=shelf.base) for card in cards]
        WishlistItem.objects.bulk_create(
            WishlistItem(owner=owner, card=card, quantity=1) for card in cards
        )
        CollectionItem.objects.bulk_create(
            CollectionItem(
                owner=owner, printing=p, quantity=2, trade_quantity=1, language="ja", binder="Red"
            )
            for p in printings
        )
        queries, page = _queries(friend_client, reverse("collection:trades", args=["owner"]))
        assert page.count("data-trade=") == PER_PAGE and 'id="pages"' in page
        counts["trades"].append(queries)
        queries, page = _queries(owner_client, reverse("collection:wishlist"))
        assert page.count("data-quantity=") == PER_PAGE and 'id="pages"' in page
        counts["wishlist"].append(queries)
        url = reverse("collection:game", args=["mattsan"]) + "?binder=Red"
        queries, page = _queries(owner_client, url)
        assert page.count("data-item=") == PER_PAGE
        counts["binder"].append(queries)
    last = owner_client.get(reverse("collection:wishlist") + "?page=3").content.decode()
    assert last.count("data-quantity=") == 130 - 2 * PER_PAGE
    for name, seen in counts.items():
        # not more for more rows (fewer is the game's set sizes, cached by catalog version)
        assert seen[1] <= seen[0], (name, seen)


def test_a_decks_owned_and_missing_panel_costs_the_same_whatever_the_collection(
    owner: Any, owner_client: Client, shelf: Shelf
) -> None:
    deck = make_deck(owner, shelf.game, [(shelf.cards[0], 3), (shelf.cards[1], 2)])
    seen = []
    for total in (30, 130):
        CollectionItem.objects.filter(owner=owner).delete()
        _items(owner, shelf.base_printings[0], total)
        queries, page = _queries(owner_client, deck.get_absolute_url())
        assert page.count("data-entry=") == 2 and 'data-missing="2"' in page
        seen.append(queries)
    assert seen[0] == seen[1]
