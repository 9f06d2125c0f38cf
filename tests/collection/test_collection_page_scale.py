"""The collection page's first visit after a change (issue 19): its totals and set completion
are counted from the card and set each item carries, never by joining the items to their
printings, in at most 10 statements; the counts stay exact through every write path (adds,
merges, moves, quantity changes, deletes, imports and their undo, 20 writes at once) and when a
printing is moved to another set."""

from __future__ import annotations

import contextlib
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Count, F, Sum
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from catalog.cache import catalog_version_bump
from catalog.models import Card, CardSet, Printing
from collection import errors
from collection.imports import collection_export, collection_import_preview
from collection.interchange.dialects import BY_CODE
from collection.marks import collection_mark
from collection.models import CollectionItem
from collection.selectors import (
    collection_binders,
    collection_items,
    collection_page_totals,
    set_completion,
)
from collection.services import (
    ItemSpec,
    collection_add,
    collection_import_commit,
    collection_import_undo,
    collection_item_change,
    collection_item_move,
    collection_item_set_quantity,
    collection_item_update,
)
from tests.catalog.factories import PrintingFactory
from tests.collection.conftest import Shelf, add
from tests.collection.test_concurrency import _client, _json, assert_consistent, race

on_postgresql = pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's planner")

#: the page's filters whose totals are checked against a plain count
FILTERS: tuple[dict[str, str], ...] = (
    {},
    {"set": "MT1"},
    {"set": "MT2"},
    {"condition": "played"},
    {"binder": "Red"},
    {"card": "MTC-001"},
    {"trade": "1"},
)


def page(client: Client, **params: str) -> tuple[list[str], str]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("collection:game", args=["mattsan"]), params)
    assert response.status_code == 200
    return [q["sql"] for q in queries], response.content.decode()


def counting(statements: list[str]) -> list[str]:
    """The page's counting statements: the totals and the owned counts per set."""
    return [sql for sql in statements if "COUNT(DISTINCT" in sql]


def plain_totals(owner: Any, filters: dict[str, str]) -> tuple[int, int, int, int]:
    """The totals counted the plain way: every item joined to its printing and card."""
    items = CollectionItem.objects.filter(owner=owner, printing__card__game__slug="mattsan")
    if "set" in filters:
        items = items.filter(printing__card_set__code=filters["set"])
    if "card" in filters:
        items = items.filter(printing__card__code=filters["card"])
    for name in ("condition", "binder"):
        if name in filters:
            items = items.filter(**{name: filters[name]})
    if "trade" in filters:
        items = items.filter(trade_quantity__gt=0)
    found = items.aggregate(
        items=Count("id"),
        copies=Sum("quantity"),
        cards=Count("printing__card", distinct=True),
        trade=Sum("trade_quantity"),
    )
    return found["items"], found["copies"] or 0, found["cards"], found["trade"] or 0


def plain_owned(owner: Any) -> dict[str, int]:
    rows = (
        CollectionItem.objects.filter(owner=owner)
        .values("printing__card_set__code")
        .annotate(n=Count("printing__card", distinct=True))
        .order_by()
    )
    return {row["printing__card_set__code"]: row["n"] for row in rows}


def assert_exact(owner: Any, shelf: Shelf, step: str) -> None:
    """What the page shows (through the cache, as the page reads it) is a plain recount."""
    drifted = CollectionItem.objects.filter(owner=owner).exclude(
        card_id=F("printing__card_id"), card_set_id=F("printing__card_set_id")
    )
    assert not drifted.exists(), f"{step}: an item's card or set is not its printing's"
    mark = collection_mark(owner=owner)
    for filters in FILTERS:
        shown = {**filters, "game": "mattsan"}
        totals = collection_page_totals(
            owner=owner,
            items=collection_items(owner=owner, filters=shown),
            filters=shown,
            mark=mark,
        )
        counted = (totals.items, totals.copies, totals.cards, totals.for_trade)
        assert counted == plain_totals(owner, filters), f"{step}, filtered by {filters}"
    owned = {r.card_set.code: r.owned for r in set_completion(owner=owner, game=shelf.game)}
    expected = plain_owned(owner)
    assert owned == {code: expected.get(code, 0) for code in owned}, step


@pytest.fixture(autouse=True)
def _fresh_catalog_version() -> Iterator[None]:
    """What these tests cached under the catalog's version is not served to the next test:
    SQLite gives its rows the same ids again after a rollback."""
    yield
    catalog_version_bump()


@pytest.fixture
def printings(shelf: Shelf) -> list[Printing]:
    """The shelf's printings and a foil of each card in the first set: a card counted once
    however many of its printings (and sets) a player holds."""
    foils = [
        PrintingFactory(
            card=card, card_set=shelf.base, collector_number=f"{i + 1:03d}", variant="foil"
        )
        for i, card in enumerate(shelf.cards)
    ]
    return [*shelf.base_printings, *foils, shelf.reprint]


def test_the_page_counts_again_in_at_most_10_statements_on_its_first_visit_after_a_change(
    owner: Any, owner_client: Client, shelf: Shelf, printings: list[Printing]
) -> None:
    for printing in printings:
        add(owner, printing, 2, binder="Red")
    page(owner_client)  # counted and cached
    cached, _html = page(owner_client)
    assert counting(cached) == []

    item = CollectionItem.objects.filter(owner=owner).order_by("pk").first()
    assert item is not None
    collection_item_set_quantity(item=item, quantity=5)
    statements, html = page(owner_client)
    assert len(statements) <= 10, "\n".join(statements)
    recounted = counting(statements)
    assert len(recounted) == 2, "the totals and the owned counts were not counted again"
    for sql in recounted:
        assert '"catalog_printing"' not in sql, sql  # counted from the items alone
    assert 'data-copies="17" data-cards="3"' in html
    assert 'data-set="MT1" data-owned="3"' in html and 'data-set="MT2" data-owned="1"' in html


@on_postgresql
def test_the_totals_and_set_completion_statements_read_the_players_items_by_index_alone(
    owner: Any, owner_client: Client, shelf: Shelf
) -> None:
    # a catalog and other players' collections large enough for the planner to choose
    sets = CardSet.objects.bulk_create(
        CardSet(game=shelf.game, code=f"PLAN{n:02d}", name_en=f"Plan {n}") for n in range(8)
    )
    cards = Card.objects.bulk_create(
        Card(game=shelf.game, code=f"PLAN-{i:05d}", name_en=f"Plan {i}", search_key=f"plan {i}")
        for i in range(8_000)
    )
    made = Printing.objects.bulk_create(
        Printing(card=card, card_set=sets[i // 1_000], collector_number=str(i % 1_000))
        for i, card in enumerate(cards)
    )
    others = [
        get_user_model().objects.create_user(username=f"collector{n}", password="x")
        for n in range(6)
    ]
    CollectionItem.objects.bulk_create(
        CollectionItem(owner=other, printing=printing, quantity=1, language="ja")
        for n, other in enumerate(others)
        for printing in made[n * 1_000 : n * 1_000 + 3_000]
    )
    for printing in made[:300:3]:
        add(owner, printing, 1)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # as autovacuum would after the bulk writes
    page(owner_client)
    add(owner, made[1], 1)  # a change: the next visit counts again

    statements, _html = page(owner_client)
    recounted = counting(statements)
    assert len(recounted) == 2
    for sql in recounted:
        with connection.cursor() as cursor:
            cursor.execute(f"EXPLAIN {sql}")
            plan = "\n".join(row[0] for row in cursor.fetchall())
        for table in ("catalog_printing", "catalog_card "):
            assert table not in plan + " ", plan
        # the player's items found by an index on their owner, not by reading everyone's
        assert re.search(r"Index (Only )?Scan using \w+ on collection_collectionitem", plan), plan


def test_the_counts_stay_exact_through_a_random_series_of_every_kind_of_write(
    owner: Any, stranger: Any, shelf: Shelf, printings: list[Printing]
) -> None:
    rng = random.Random(19)
    batches: list[Any] = []

    def some_item() -> CollectionItem | None:
        items = list(CollectionItem.objects.filter(owner=owner).order_by("pk"))
        return rng.choice(items) if items else None

    def add_copies() -> None:
        add(
            owner,
            rng.choice(printings),
            rng.randint(1, 3),
            condition=rng.choice(["near_mint", "played"]),
            binder=rng.choice(["", "Red"]),
            trade_quantity=rng.randint(0, 1),
        )

    def change_quantity() -> None:
        item = some_item()
        if item is not None:
            collection_item_set_quantity(item=item, quantity=rng.randint(0, 4))  # 0: deleted

    def change_trade() -> None:
        item = some_item()
        if item is not None:
            collection_item_update(item=item, trade_quantity=rng.randint(0, item.quantity))

    def move() -> None:
        item = some_item()
        if item is not None:
            collection_item_move(
                item=item,
                quantity=rng.randint(1, item.quantity),
                binder=rng.choice(["", "Red", "Blue"]),
                condition=rng.choice(["near_mint", "played"]),
            )

    def patch() -> None:
        item = some_item()
        if item is not None:
            collection_item_change(
                item=item,
                changes={"quantity": rng.randint(1, 3), "binder": rng.choice(["", "Red"])},
            )

    def import_file() -> None:
        CollectionItem.objects.filter(owner=stranger).delete()
        for printing in rng.sample(printings, 3):
            add(stranger, printing, rng.randint(1, 2), binder=rng.choice(["", "Red"]))
        content = collection_export(owner=stranger, dialect=BY_CODE["decklab"]).content
        preview = collection_import_preview(owner=owner, content=content, game=None)
        assert preview.batch is not None, preview.result.problems
        collection_import_commit(batch=preview.batch, specs=preview.result.specs)
        batches.append(preview.batch)

    def undo() -> None:
        if batches:
            # refused when copies it added were taken since: then nothing changed
            with contextlib.suppress(errors.CollectionError):
                collection_import_undo(batch=batches.pop(rng.randrange(len(batches))))

    writes = [add_copies, change_quantity, change_trade, move, patch, import_file, undo]
    assert_exact(owner, shelf, "empty")
    for step in range(60):
        write = rng.choice(writes)
        write()
        assert_exact(owner, shelf, f"step {step}: {write.__name__}")
    assert_consistent(owner)


def test_a_printing_moved_to_another_set_moves_its_items_counts_along(
    owner: Any, shelf: Shelf
) -> None:
    add(owner, shelf.base_printings[2], 2)
    printing = shelf.base_printings[2]
    printing.card_set = shelf.reprints
    printing.save()  # as the admin saves it
    item = CollectionItem.objects.get(owner=owner)
    assert (item.card_id, item.card_set_id) == (printing.card_id, shelf.reprints.pk)
    assert_exact(owner, shelf, "after the move")


def test_items_written_in_bulk_or_one_by_one_carry_their_printings_card_and_set(
    owner: Any, shelf: Shelf
) -> None:
    one = CollectionItem.objects.create(owner=owner, printing=shelf.reprint, quantity=1)
    CollectionItem.objects.bulk_create(
        [CollectionItem(owner=owner, printing=shelf.base_printings[1], quantity=1)]
    )
    collection_add(
        owner=owner, specs=[ItemSpec(printing_id=shelf.base_printings[2].pk, quantity=1)]
    )
    found = {
        i.printing_id: (i.card_id, i.card_set_id)
        for i in CollectionItem.objects.filter(owner=owner)
    }
    assert found == {
        p.pk: (p.card_id, p.card_set_id)
        for p in (shelf.reprint, shelf.base_printings[1], shelf.base_printings[2])
    }
    assert one.card_set_id == shelf.reprints.pk


@on_postgresql  # SQLite has one writer at a time: the others fail "database is locked"
@pytest.mark.django_db(transaction=True)
def test_twenty_writes_at_once_leave_the_counts_exact(owner: Any, shelf: Shelf) -> None:
    foils = [
        PrintingFactory(
            card=card, card_set=shelf.base, collector_number=f"{i + 1:03d}", variant="foil"
        )
        for i, card in enumerate(shelf.cards)
    ]
    for printing in shelf.base_printings:
        add(owner, printing, 4, binder="Red")
    items = list(CollectionItem.objects.filter(owner=owner).order_by("pk"))
    clients = [_client(owner) for _ in range(20)]
    api = "/api/v1/collection/items"
    calls = []
    for n, client in enumerate(clients):
        if n % 2:  # half move an item's copies to another binder, merging there
            item = items[n % len(items)]
            calls.append(_json(client, "patch", f"{api}/{item.pk}/", {"binder": f"Box {n % 3}"}))
        else:  # half add new items and copies onto existing ones, of other sets and cards
            number, variant = [("001", ""), ("050", ""), ("002", "foil")][n % 3]
            body = {
                "game": "mattsan",
                "set": "MT2" if number == "050" else "MT1",
                "number": number,
                "variant": variant,
                "quantity": 1,
                "language": "ja",
                "binder": f"Box {n % 4}",
            }
            calls.append(_json(client, "post", f"{api}/", body))
    statuses = race(calls)
    assert set(statuses) <= {200, 201, 404, 409}, statuses
    assert CollectionItem.objects.filter(owner=owner, card_id=foils[1].card_id).exists()
    assert_exact(owner, shelf, "after the race")
    assert_consistent(owner)


def test_the_binder_list_is_every_binder_of_the_players_once_in_order(
    owner: Any, stranger: Any, shelf: Shelf, printings: list[Printing]
) -> None:
    for n, binder in enumerate(["", "Red", "Blue", "Box 10", "box 2", "Red", "Ünter", "赤"]):
        add(owner, printings[n % len(printings)], 1, binder=binder)
    add(stranger, printings[0], 1, binder="Stranger's")
    plain = list(
        CollectionItem.objects.filter(owner=owner)
        .exclude(binder="")
        .order_by("binder")
        .values_list("binder", flat=True)
        .distinct()
    )
    assert collection_binders(owner=owner) == plain
    assert len(plain) == 6
    assert collection_binders(owner=stranger) == ["Stranger's"]
    empty = get_user_model().objects.create_user(username="empty", password="x")
    assert collection_binders(owner=empty) == []
