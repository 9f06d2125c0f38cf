"""``is:free`` (and ``-is:free``, ``is:owned``) read the searcher's items by index, a few per
card probed, and aggregate none of them (issue 19): the statements the API's paginator runs
for a page of them (the capped count's ids, the page's rows, their printings), explained on a
game and a collection big enough that PostgreSQL prefers an index to reading a table, hold no
sequential scan of the items and no aggregate over them: a card's items are probed by the
(owner, card) index, a printing's by the (owner, printing) one, and the reservations are summed
per item probed (their ``item`` index). The old ``is:free`` grouped every item of the player
with its reservations first (300-600 ms at 100,000 items).

The planner's choices are PostgreSQL's: skipped on SQLite."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalog.api import selectors
from catalog.api.pagination import DEFAULT_PAGE_SIZE
from catalog.importers.write import game_sync
from catalog.maintenance import analyze_catalog
from catalog.models import Card, CardSet, Game, Printing
from catalog.query.context import search_context
from catalog.query.paging import CappedPaginator
from catalog.search import search_key
from collection.models import CollectionItem, DeckBuild, Reservation
from decks.services import deck_create
from tests.catalog.search_seed import name_parts

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the plans are PostgreSQL's"
)

CARDS = 6_000
SETS = 30
ITEMS = "collection_collectionitem"
#: not ``is:missing`` nor ``is:owned``: at this size the planner reckons most cards owned (the
#: items' printings cover most of the game) and may hash the player's items for its (anti-)join,
#: which is the cheaper plan here; at 100,000 items it probes them per card (docs/benchmarks.md,
#: issue 19: ``is:owned`` 27 ms p95, ``is:missing`` 28 ms). ``is:free`` reads the reservations
#: too, where hashing every item would cost what the old aggregate did.
FORMS = ("is:free", "-is:free", "is:free unique:prints")


@pytest.fixture
def searcher(db: None) -> tuple[Game, Any]:
    """A Monster Hunter catalog of ``CARDS`` cards; the searcher owns every other card in two
    conditions (as ``bench/scale.py``'s player), some of those items held by a built deck;
    another player owns half of the rest; a quarter of the cards are nobody's."""
    game = game_sync("monster-hunter")
    sets = CardSet.objects.bulk_create(
        CardSet(game=game, code=f"plan-{s:02d}", name_en=f"Plan {s}") for s in range(SETS)
    )
    cards = Card.objects.bulk_create(
        (
            Card(
                game=game,
                code=f"plan-{i:06d}",
                name_en=name_parts(i)[0],
                name_ja=name_parts(i)[1],
                card_type="monster",
                attributes={"hp": 1 + i % 30},
                search_key=search_key(*name_parts(i)),
            )
            for i in range(CARDS)
        ),
        batch_size=2000,
    )
    printings = Printing.objects.bulk_create(
        (
            Printing(card=card, card_set=sets[i * SETS // CARDS], collector_number=str(i))
            for i, card in enumerate(cards)
        ),
        batch_size=2000,
    )
    users = get_user_model().objects
    me, other = users.create_user(username="free-me"), users.create_user(username="free-other")
    CollectionItem.objects.bulk_create(
        (
            CollectionItem(
                owner=me if i % 2 == 0 else other,
                printing=printing,
                quantity=1 + i % 3,
                condition=condition,
                language="ja",
            )
            for i, printing in enumerate(printings)
            if i % 4 != 3
            for condition in ("near_mint", "played")
        ),
        batch_size=2000,
    )
    deck = deck_create(owner=me, game=game, name="Built")
    build = DeckBuild.objects.create(deck=deck, owner=me)
    held = CollectionItem.objects.filter(owner=me).order_by("pk")[: CARDS // 10]
    Reservation.objects.bulk_create(
        Reservation(build=build, item=i, quantity=i.quantity) for i in held
    )
    analyze_catalog()
    with connection.cursor() as cursor:
        for table in (ITEMS, Reservation._meta.db_table, DeckBuild._meta.db_table):
            cursor.execute(f"ANALYZE {table}")
    return game, me


def _nodes(plan: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield plan
    for child in plan.get("Plans", ()):
        yield from _nodes(child)


def _reads_items(plan: dict[str, Any]) -> bool:
    return any(node.get("Relation Name") == ITEMS for node in _nodes(plan))


def _problems(sql: str) -> tuple[list[str], bool, str]:
    """What is wrong with a statement's plan, whether it reads the items at all, and the plan."""
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN (FORMAT JSON) {sql}")
        plan = cursor.fetchone()[0]
    root = (json.loads(plan) if isinstance(plan, str) else plan)[0]["Plan"]
    wrong = []
    for node in _nodes(root):
        if node.get("Relation Name") == ITEMS and "Index" not in node["Node Type"]:
            wrong.append(f"{node['Node Type']} on the items")
        if node["Node Type"] == "Aggregate" and _reads_items(node):
            wrong.append(f"{node.get('Strategy', '')} aggregate over the items")
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN {sql}")
        text = "\n".join(row[0] for row in cursor.fetchall())
    return wrong, _reads_items(root), text


@pytest.mark.parametrize("query", FORMS)
def test_a_page_of_a_collection_search_reads_the_searchers_items_by_index_and_sums_none(
    searcher: tuple[Game, Any], query: str
) -> None:
    game, me = searcher
    rows = selectors.card_list(game=game, filters={"q": query}, context=search_context(user=me))
    with CaptureQueriesContext(connection) as seen:  # the statements the API runs
        page = CappedPaginator(rows, DEFAULT_PAGE_SIZE).page(1)
        assert len(list(page)) == DEFAULT_PAGE_SIZE
    read_items = False
    for statement in seen.captured_queries:
        wrong, reads, plan = _problems(statement["sql"])
        read_items = read_items or reads
        assert wrong == [], f"{query!r}: {wrong}\n{statement['sql'][:400]}\n{plan}"
    assert read_items, f"{query!r} never read the items"
