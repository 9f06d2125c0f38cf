"""Nothing is lost under concurrency: 20 requests released at once by a barrier, three rounds
each, through the real HTTP paths on PostgreSQL. Every race ends in an exact state: the
quantities, reservations within copies, and a change log that replays to the quantities."""

from __future__ import annotations

import json
import threading
from collections import Counter, defaultdict
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connections
from django.test import Client
from django.urls import reverse

from collection.imports import collection_export
from collection.interchange.dialects import BY_CODE
from collection.models import CollectionChange, CollectionItem, ImportBatch, Reservation
from collection.services import (
    collection_item_set_quantity,
    collection_item_update,
    deck_unmark_built,
)
from tests.collection.conftest import Shelf, add, make_deck

pytestmark = pytest.mark.django_db(transaction=True)

THREADS = 20
ROUNDS = 3
API = "/api/v1/collection"


def _client(user: Any) -> Client:
    # a 500 is an answer to count, not an exception to end the thread
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def race(calls: list[Callable[[], Any]]) -> list[int]:
    """Run the calls in threads released together; each one's status code."""
    start = threading.Barrier(len(calls))
    statuses: list[int] = [0] * len(calls)

    def run(index: int) -> None:
        try:
            start.wait()
            statuses[index] = calls[index]().status_code
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses


def _json(client: Client, method: str, url: str, body: Any = None) -> Callable[[], Any]:
    send = getattr(client, method)
    return lambda: send(url, json.dumps(body or {}), content_type="application/json")


def assert_consistent(owner: Any) -> None:
    """The log replays to every quantity (each change starts where the last one of the same
    item ended), and no item has more copies reserved than it holds."""
    last: dict[tuple[Any, ...], int] = defaultdict(int)
    for change in CollectionChange.objects.filter(owner=owner).order_by("pk"):
        identity = (
            change.printing_id,
            change.condition,
            change.finish,
            change.language,
            change.binder,
        )
        assert change.quantity_before == last[identity], change
        last[identity] = change.quantity_after
    held = {
        (i.printing_id, i.condition, i.finish, i.language, i.binder): i.quantity
        for i in CollectionItem.objects.filter(owner=owner)
    }
    assert {k: v for k, v in last.items() if v} == held
    for item in CollectionItem.objects.filter(owner=owner):
        reserved = sum(r.quantity for r in Reservation.objects.filter(item=item))
        assert reserved <= item.quantity
        assert item.trade_quantity <= item.quantity


def _item_body(**extra: Any) -> dict[str, Any]:
    body = {"game": "mattsan", "set": "MT1", "number": "001", "quantity": 1, "language": "ja"}
    return {**body, **extra}


def test_twenty_parallel_api_adds_onto_one_item_lose_no_copy(owner: Any, shelf: Shelf) -> None:
    add(owner, shelf.base_printings[0], 1)
    clients = [_client(owner) for _ in range(THREADS)]
    for round_ in range(1, ROUNDS + 1):
        statuses = race([_json(c, "post", f"{API}/items/", _item_body()) for c in clients])
        assert statuses == [201] * THREADS
        assert CollectionItem.objects.get(owner=owner).quantity == 1 + THREADS * round_
    assert_consistent(owner)


def test_twenty_parallel_adds_from_the_card_page_form_lose_no_copy(
    owner: Any, shelf: Shelf
) -> None:
    add(owner, shelf.base_printings[0], 1)
    clients = [_client(owner) for _ in range(THREADS)]
    form = {
        "printing": shelf.base_printings[0].pk,
        "quantity": 1,
        "condition": "near_mint",
        "finish": "normal",
        "language": "ja",
        "next": "/",
    }
    url = reverse("collection:add")
    for round_ in range(1, ROUNDS + 1):
        statuses = race([lambda c=c: c.post(url, form) for c in clients])
        assert statuses == [302] * THREADS
        assert CollectionItem.objects.get(owner=owner).quantity == 1 + THREADS * round_
    assert_consistent(owner)


def test_twenty_parallel_adds_making_the_same_new_item_make_it_once(
    owner: Any, shelf: Shelf
) -> None:
    clients = [_client(owner) for _ in range(THREADS)]
    for round_ in range(ROUNDS):
        body = _item_body(binder=f"Box {round_}")
        statuses = race([_json(c, "post", f"{API}/items/", body) for c in clients])
        assert statuses == [201] * THREADS
        assert CollectionItem.objects.get(owner=owner, binder=f"Box {round_}").quantity == THREADS
    assert CollectionItem.objects.filter(owner=owner).count() == ROUNDS
    assert_consistent(owner)


def test_twenty_imports_committed_at_once_add_every_copy(
    owner: Any, stranger: Any, shelf: Shelf, settings: Any
) -> None:
    # 60 previews by one player here; the hourly import limit is tested on its own
    settings.COLLECTION_IMPORTS_PER_HOUR = THREADS * ROUNDS
    # the file: one copy of one printing, as DeckLab writes it
    add(stranger, shelf.base_printings[0], 1)
    content = collection_export(owner=stranger, dialect=BY_CODE["decklab"]).content
    add(owner, shelf.base_printings[0], 1)
    clients = [_client(owner) for _ in range(THREADS)]
    for round_ in range(1, ROUNDS + 1):
        ids = []
        for client in clients:
            preview = _json(client, "post", f"{API}/imports/", {"content": content})()
            assert preview.status_code == 201, preview.content
            ids.append(preview.json()["id"])
        statuses = race(
            [
                _json(c, "post", f"{API}/imports/{batch_id}/commit/")
                for c, batch_id in zip(clients, ids, strict=True)
            ]
        )
        assert statuses == [200] * THREADS
        item = CollectionItem.objects.get(owner=owner)
        assert item.quantity == 1 + THREADS * round_
        assert set(ImportBatch.objects.filter(pk__in=ids).values_list("status", flat=True)) == {
            ImportBatch.Status.COMMITTED
        }
    assert_consistent(owner)


def test_undoing_an_import_while_copies_are_added_takes_away_only_what_it_added(
    owner: Any, stranger: Any, shelf: Shelf
) -> None:
    add(stranger, shelf.base_printings[0], 1)
    content = collection_export(owner=stranger, dialect=BY_CODE["decklab"]).content
    add(owner, shelf.base_printings[0], 1)
    clients = [_client(owner) for _ in range(THREADS)]
    for round_ in range(1, ROUNDS + 1):
        preview = _json(clients[0], "post", f"{API}/imports/", {"content": content})()
        batch_id = preview.json()["id"]
        assert _json(clients[0], "post", f"{API}/imports/{batch_id}/commit/")().status_code == 200
        calls = [_json(clients[0], "post", f"{API}/imports/{batch_id}/undo/")]
        calls += [_json(c, "post", f"{API}/items/", _item_body()) for c in clients[1:]]
        statuses = race(calls)
        assert statuses == [200] + [201] * (THREADS - 1)
        quantity = CollectionItem.objects.get(owner=owner).quantity
        assert quantity == 1 + (THREADS - 1) * round_
    assert_consistent(owner)


def _build_round(
    owner: Any, shelf: Shelf, others: Callable[[Client, int], Callable[[], Any]]
) -> tuple[Any, list[int], list[int]]:
    """A deck needing all 3 copies of an item; 10 builds race 10 other requests."""
    add(owner, shelf.base_printings[0], 3)
    item = CollectionItem.objects.get(owner=owner)
    deck = make_deck(owner, shelf.game, [(shelf.cards[0], 3)])
    clients = [_client(owner) for _ in range(THREADS)]
    build = f"{API.removesuffix('/collection')}/decks/{deck.public_id}/build/"
    calls = [_json(c, "post", build) for c in clients[: THREADS // 2]]
    calls += [others(c, item.pk) for c in clients[THREADS // 2 :]]
    statuses = race(calls)
    return deck, statuses[: THREADS // 2], statuses[THREADS // 2 :]


def _clear(owner: Any, deck: Any) -> None:
    """Back to an empty collection through the services, so the log stays whole."""
    if Reservation.objects.filter(build__deck=deck).exists():
        deck_unmark_built(deck=deck, user=owner)
    deck.delete()
    for item in CollectionItem.objects.filter(owner=owner):
        collection_item_set_quantity(item=item, quantity=0)


def test_marking_a_deck_built_while_its_copies_are_lowered_never_overbooks(
    owner: Any, shelf: Shelf
) -> None:
    for _round in range(ROUNDS):
        deck, builds, lowers = _build_round(
            owner,
            shelf,
            lambda c, pk: _json(c, "patch", f"{API}/items/{pk}/", {"quantity": 1}),
        )
        item = CollectionItem.objects.get(owner=owner)
        reserved = sum(Reservation.objects.filter(item=item).values_list("quantity", flat=True))
        if builds.count(200) == 1:
            # the build came first: the copies stay, every lowering is refused
            assert (item.quantity, reserved) == (3, 3)
            assert Counter(builds) == {200: 1, 400: 9} and lowers == [400] * 10
        else:
            # a lowering came first: nothing can be built any more
            assert (item.quantity, reserved) == (1, 0)
            assert builds == [400] * 10 and lowers == [200] * 10
        assert_consistent(owner)
        _clear(owner, deck)


def test_marking_a_deck_built_while_its_item_is_deleted_is_never_a_500(
    owner: Any, shelf: Shelf
) -> None:
    for _round in range(ROUNDS):
        deck, builds, deletes = _build_round(
            owner, shelf, lambda c, pk: lambda: c.delete(f"{API}/items/{pk}/")
        )
        items = list(CollectionItem.objects.filter(owner=owner))
        if builds.count(200) == 1:
            assert [(i.quantity, i.reservations.get().quantity) for i in items] == [(3, 3)]
            assert Counter(builds) == {200: 1, 400: 9} and deletes == [400] * 10
        else:
            assert items == []
            assert builds == [400] * 10
            # one delete removes the item; the others find it gone (404 before, 409 after
            # they read it)
            assert deletes.count(204) == 1 and set(deletes) <= {204, 404, 409}
        assert_consistent(owner)
        _clear(owner, deck)


def test_patching_quantity_and_trade_quantity_at_once_keeps_trade_within_copies(
    owner: Any, shelf: Shelf
) -> None:
    add(owner, shelf.base_printings[0], 5)
    item = CollectionItem.objects.get(owner=owner)
    clients = [_client(owner) for _ in range(THREADS)]
    url = f"{API}/items/{item.pk}/"
    for _round in range(ROUNDS):
        collection_item_set_quantity(item=item, quantity=5)
        collection_item_update(item=item, trade_quantity=0)
        calls = [_json(c, "patch", url, {"quantity": 1}) for c in clients[: THREADS // 2]]
        calls += [_json(c, "patch", url, {"trade_quantity": 4}) for c in clients[THREADS // 2 :]]
        statuses = race(calls)
        assert statuses[: THREADS // 2] == [200] * 10
        trades = statuses[THREADS // 2 :]
        assert set(trades) <= {200, 400}
        item.refresh_from_db()
        # a trade change that came before the first lowering was cut down to the copies left
        assert (item.quantity, item.trade_quantity) == (1, 1 if 200 in trades else 0)
        assert_consistent(owner)


def test_a_refused_patch_changes_nothing(owner: Any, owner_client: Client, shelf: Shelf) -> None:
    add(owner, shelf.base_printings[0], 2, note="first")
    item = CollectionItem.objects.get(owner=owner)
    body = {"quantity": 7, "note": "second", "finish": "no-such-finish"}
    response = _json(owner_client, "patch", f"{API}/items/{item.pk}/", body)()
    assert response.status_code == 400
    assert list(response.json()) == ["finish"]
    item.refresh_from_db()
    assert (item.quantity, item.note, item.finish) == (2, "first", "normal")
    assert CollectionChange.objects.filter(owner=owner).count() == 1
