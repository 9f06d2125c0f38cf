"""The collection's read paths at scale (issue 19): the page's statements do not grow with
items or sets, its cached totals and set completion follow every change, set completion reads
printings by the player's items (never the game's whole catalog), the app's PostgreSQL
connections run without JIT, and a deck's report through the API costs five statements."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from catalog.cache import catalog_version_bump
from catalog.models import Card, CardSet, Printing
from catalog.selectors import game_sets
from collection.models import CollectionItem
from collection.selectors import set_completion
from collection.services import collection_item_set_quantity, deck_mark_built
from tests.catalog.factories import CardFactory, CardSetFactory, PrintingFactory
from tests.collection.conftest import Shelf, add, make_deck

on_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="PostgreSQL's planner and settings"
)


def page_statements(client: Client) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("collection:game", args=["mattsan"]))
    assert response.status_code == 200
    return len(queries), response.content.decode()


def grow(owner: Any, shelf: Shelf, *, sets: int, cards_per_set: int) -> None:
    for n in range(sets):
        card_set = CardSetFactory(game=shelf.game, code=f"G{n}")
        for i in range(cards_per_set):
            card = CardFactory(game=shelf.game, code=f"G{n}-{i}")
            add(owner, PrintingFactory(card=card, card_set=card_set), 1)
            add(owner, PrintingFactory(card=card, card_set=card_set, variant="foil"), 1)


def test_the_collection_page_costs_the_same_statements_for_3_or_60_items_in_1_or_11_sets(
    owner_client: Client, owner: Any, shelf: Shelf, django_assert_max_num_queries: Any
) -> None:
    add(owner, shelf.base_printings[0], 2)
    small, _html = page_statements(owner_client)  # counted: nothing cached for this player yet
    grow(owner, shelf, sets=10, cards_per_set=3)
    catalog_version_bump()  # as the catalog importer does: the new sets are counted
    with django_assert_max_num_queries(10):
        large, html = page_statements(owner_client)  # counted again: the collection changed
    assert large == small
    assert 'data-set="G9" data-owned="3" data-listed="3"' in html
    cached, _html = page_statements(owner_client)
    assert cached <= large - 2  # the totals and the owned counts come from the cache


def test_the_cached_totals_and_completion_follow_every_change_of_the_collection(
    owner_client: Client, owner: Any, shelf: Shelf
) -> None:
    add(owner, shelf.base_printings[0], 2)
    _n, html = page_statements(owner_client)
    assert 'data-copies="2" data-cards="1"' in html
    assert 'data-set="MT1" data-owned="1" data-listed="3"' in html

    add(owner, shelf.base_printings[1], 3)  # a new item
    _n, html = page_statements(owner_client)
    assert 'data-copies="5" data-cards="2"' in html
    assert 'data-set="MT1" data-owned="2" data-listed="3"' in html

    first = CollectionItem.objects.get(owner=owner, printing=shelf.base_printings[0])
    collection_item_set_quantity(item=first, quantity=7)  # a quantity changed in place
    _n, html = page_statements(owner_client)
    assert 'data-copies="10" data-cards="2"' in html

    collection_item_set_quantity(item=first, quantity=0)  # an item removed
    _n, html = page_statements(owner_client)
    assert 'data-copies="3" data-cards="1"' in html
    assert 'data-set="MT1" data-owned="1" data-listed="3"' in html


def test_the_totals_of_a_filtered_page_are_not_the_unfiltered_ones_from_the_cache(
    owner_client: Client, owner: Any, shelf: Shelf
) -> None:
    add(owner, shelf.base_printings[0], 2)
    add(owner, shelf.base_printings[1], 1, binder="Red")
    url = reverse("collection:game", args=["mattsan"])
    assert 'data-copies="3" data-cards="2"' in owner_client.get(url).content.decode()
    red = owner_client.get(url + "?binder=Red").content.decode()
    assert 'data-copies="1" data-cards="1"' in red
    assert 'data-copies="3" data-cards="2"' in owner_client.get(url).content.decode()


@on_postgresql
def test_set_completion_reads_printings_by_the_players_items_not_the_whole_catalog(
    owner: Any, shelf: Shelf
) -> None:
    # a catalog large enough for the planner to tell the two ways apart: 20 sets of 500
    sets = CardSet.objects.bulk_create(
        CardSet(game=shelf.game, code=f"BIG{n:02d}", name_en=f"Big {n}") for n in range(20)
    )
    cards = Card.objects.bulk_create(
        Card(game=shelf.game, code=f"BIG-{i:05d}", name_en=f"Big {i}", search_key=f"big {i}")
        for i in range(10_000)
    )
    printings = Printing.objects.bulk_create(
        Printing(card=card, card_set=sets[i // 500], collector_number=str(i % 500))
        for i, card in enumerate(cards)
    )
    for printing in printings[:40:2]:
        add(owner, printing, 1)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # as autovacuum would after the bulk writes
    game_sets(game=shelf.game)  # the catalog's own set sizes: counted once per catalog version

    with CaptureQueriesContext(connection) as queries:
        completion = set_completion(owner=owner, game=shelf.game)
    assert [(r.card_set.code, r.owned, r.listed) for r in completion[:3]] == [
        ("BIG00", 20, 500),
        ("BIG01", 0, 500),
        ("BIG02", 0, 500),
    ]
    reading_items = [q["sql"] for q in queries if '"collection_collectionitem"' in q["sql"]]
    assert reading_items, "the owned counts were not read"
    for sql in reading_items:
        with connection.cursor() as cursor:
            cursor.execute(f"EXPLAIN {sql}")
            plan = "\n".join(row[0] for row in cursor.fetchall())
        assert "Seq Scan on catalog_printing" not in plan, plan


@on_postgresql
def test_the_apps_postgresql_connections_run_without_jit(db: None) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SHOW jit")
        assert cursor.fetchone()[0] == "off"


def test_a_deck_report_through_the_api_is_five_statements_however_many_entries(
    owner_client: Client, owner: Any, shelf: Shelf, django_assert_max_num_queries: Any
) -> None:
    entries: list[Any] = []
    for i in range(18):
        card = CardFactory(game=shelf.game, code=f"R-{i:02d}", name_en=f"Report {i}")
        printing = PrintingFactory(
            card=card, card_set=shelf.base, collector_number=f"R{i}", variant="foil" * (i % 2)
        )
        if i % 3:
            add(owner, printing, 2)
        entries.append((card, 3, printing) if i % 2 else (card, 1))
    holder = make_deck(owner, shelf.game, [(entries[1][0], 1)], name="Holder")
    deck_mark_built(deck=holder, user=owner)
    deck = make_deck(owner, shelf.game, entries, name="Eighteen")

    with django_assert_max_num_queries(5):
        body = owner_client.get(f"/api/v1/decks/{deck.public_id}/collection/").json()
    assert len(body["entries"]) == 18
    by_card = {e["card"]: e for e in body["entries"]}
    pinned = Printing.objects.get(card__code="R-01")
    # the printing spelled as before, without reading it
    assert by_card["R-01"]["printing"] == str(pinned) == "Report 1 (MT1) R1 [foil]"
    assert by_card["R-00"]["printing"] == ""
    assert by_card["R-01"]["held_by"] == [
        {"deck_name": "Holder", "public_id": holder.public_id, "quantity": 1}
    ]
    assert (by_card["R-01"]["owned"], by_card["R-01"]["missing"]) == (1, 2)
    assert (by_card["R-02"]["owned"], by_card["R-03"]["missing"]) == (1, 3)


def test_the_deck_pages_report_reads_the_collection_once_however_many_entries(
    owner_client: Client, owner: Any, shelf: Shelf
) -> None:
    entries: list[Any] = []
    for i in range(18):
        card = CardFactory(game=shelf.game, code=f"P-{i:02d}")
        printing = PrintingFactory(card=card, card_set=shelf.base, collector_number=f"P{i}")
        add(owner, printing, 1)
        entries.append((card, 2, printing) if i % 2 else (card, 1))
    deck = make_deck(owner, shelf.game, entries, name="Page")
    with CaptureQueriesContext(connection) as queries:
        response = owner_client.get(reverse("decks:detail", args=[deck.public_id]))
    assert response.status_code == 200 and 'id="collection-report"' in response.content.decode()
    reading = [
        q["sql"]
        for q in queries
        if '"collection_collectionitem"' in q["sql"] or '"collection_reservation"' in q["sql"]
    ]
    assert len(reading) == 1, reading  # the copies and the reservations, one UNION ALL
