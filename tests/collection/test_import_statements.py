"""Collection imports at scale (issue 19): a preview and a commit read only the catalog rows
their file names, in bulk and chunk by chunk, so their statements and the catalog rows they
read do not grow with the catalog, and grow with the file only by a few per chunk of rows."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalog.maintenance import analyze_catalog
from catalog.models import Card, CardSet, Printing
from catalog.search import search_key
from collection.imports import collection_import_commit_batch, collection_import_preview
from collection.interchange import read
from collection.models import CollectionItem
from tests.catalog.factories import CardFactory
from tests.collection.conftest import Shelf

#: a file naming cards by name, set code and number (Deckbox), by name only and by set name
DECKBOX = (
    "Count,Tradelist Count,Name,Edition,Edition Code,Card Number,Condition,Language,Foil\n"
    '2,1,"Stone, Wall",First Strike,MT1,002,Good (Lightly Played),Japanese,foil\n'
    "1,0,flame  fox,Second Wind,,050,Near Mint,English,\n"
    "3,0,潮呼び,,MT1,3,Near Mint,Japanese,\n"
)
DECKLAB = (
    "game,card,set,number,quantity,condition,finish,language\n"
    "mattsan,MTC-001,MT1,001,2,near_mint,normal,ja\n"
    "mattsan,mtc-002,MT1,002,1,played,normal,en\n"
)
LIST = "2 Flame Fox (MT2) 050\n3 石の壁\n1x Tide Caller (MT1)\n"
FILES = [("", DECKBOX), ("", DECKLAB), ("list", LIST)]


def grow_catalog(shelf: Shelf, *, printings: int, start: int = 0) -> None:
    """``printings`` more cards of the shelf's game, each printed once in a set of its own
    kind (bulk, as the catalog importer writes them, search keys included)."""
    card_set, _made = CardSet.objects.get_or_create(
        game=shelf.game, code="BIG", defaults={"name_en": "Big Box"}
    )
    cards = Card.objects.bulk_create(
        Card(
            game=shelf.game,
            code=f"BIG-{n:05d}",
            name_en=f"Filler Beast {n}",
            search_key=search_key(f"Filler Beast {n}"),
        )
        for n in range(start, start + printings)
    )
    Printing.objects.bulk_create(
        Printing(card=card, card_set=card_set, collector_number=str(n))
        for n, card in enumerate(cards, start=start)
    )


class CatalogRows:
    """Counts the rows each statement reading the catalog's cards or printings returns."""

    def __init__(self) -> None:
        self.rows = 0

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        result = execute(sql, params, many, context)
        reads = sql.lstrip().upper().startswith("SELECT")
        if reads and ('"catalog_card"' in sql or '"catalog_printing"' in sql):
            self.rows += max(context["cursor"].rowcount, 0)
        return result


def statements(call: Any) -> tuple[Any, tuple[int, int]]:
    """What ``call()`` returns, and the statements it ran and the catalog rows they read."""
    counter = CatalogRows()
    with CaptureQueriesContext(connection) as queries, connection.execute_wrapper(counter):
        value = call()
    return value, (len(queries), counter.rows)


def preview_and_commit(
    username: str, shelf: Shelf, dialect: str, text: str
) -> tuple[tuple[int, int], tuple[int, int]]:
    importer = get_user_model().objects.create_user(username=username, password="x")
    preview, previewing = statements(
        lambda: collection_import_preview(
            owner=importer, content=text, game=shelf.game, dialect_code=dialect
        )
    )
    assert [str(p) for p in preview.result.problems] == []
    assert preview.batch is not None
    _batch, committing = statements(lambda: collection_import_commit_batch(batch=preview.batch))
    assert CollectionItem.objects.filter(owner=importer).count() == len(preview.result.specs)
    return previewing, committing


@pytest.mark.parametrize(("dialect", "text"), FILES, ids=["deckbox", "decklab", "list"])
def test_a_preview_and_a_commit_cost_the_same_statements_against_100_or_2000_more_printings(
    shelf: Shelf, dialect: str, text: str
) -> None:
    grow_catalog(shelf, printings=100)
    small = preview_and_commit("small", shelf, dialect, text)
    grow_catalog(shelf, printings=1900, start=100)
    large = preview_and_commit("large", shelf, dialect, text)
    assert large == small  # the statements, and the catalog rows read, of each step
    (_statements, rows), _commit = large
    assert rows <= 12  # the file's three cards, their printings, and the sets (of the game)


def decklab_rows(rows: int) -> str:
    lines = ["game,card,set,number,quantity"]
    lines += [f"mattsan,BIG-{n:05d},BIG,{n},1" for n in range(rows)]
    return "\n".join(lines) + "\n"


def test_a_bigger_file_costs_a_few_more_statements_per_chunk_of_rows_only(
    shelf: Shelf, monkeypatch: pytest.MonkeyPatch
) -> None:
    grow_catalog(shelf, printings=40)
    monkeypatch.setattr(read, "CHUNK_ROWS", 4)
    counted = []
    for rows in (4, 8, 16):  # one, two and four chunks
        result, seen = statements(
            lambda rows=rows: read.read_collection_csv(decklab_rows(rows), game=shelf.game)
        )
        assert [str(p) for p in result.problems] == []
        assert len(result.specs) == rows
        statements_run, rows_read = seen
        assert rows_read <= 2 * rows + 3  # each row's card and printing, and the sets
        counted.append(statements_run)
    one, two, four = counted
    per_chunk = two - one
    # the cards by code and their printings: two statements per chunk, none per row
    assert per_chunk == 2
    assert four - two == 2 * per_chunk


def test_an_unknown_name_still_gets_its_did_you_mean_from_a_big_catalog(shelf: Shelf) -> None:
    grow_catalog(shelf, printings=500)
    CardFactory(game=shelf.game, code="MTC-900", name_en="Flame Fox", name_ja="")  # a namesake
    text = "Count,Name,Edition Code\n1,Filler Beest 321,BIG\n1,Flame Fax,MT1\n"
    result, seen = statements(lambda: read.read_collection_csv(text, game=shelf.game))
    messages = [p.message for p in result.problems]
    assert "Did you mean 'Filler Beast 321'" in messages[0]
    assert messages[1].endswith("Did you mean 'Flame Fox'?")  # each name once
    statements_run, rows_read = seen
    assert statements_run < 20 and rows_read < 20  # a few candidates, not the game's names


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's planner")
def test_the_bulk_look_ups_of_names_and_codes_are_answered_by_indexes(shelf: Shelf) -> None:
    """The look-ups' expressions are the indexes' (catalog migration 0007): with sequential
    scans priced out, the planner answers each with its index."""
    grow_catalog(shelf, printings=1000)
    catalog = read._Catalog(shelf.game)
    with CaptureQueriesContext(connection) as queries:
        catalog.load(codes={"big-00007"}, names={"Filler  Beast 8"})
    assert {c.code for c in catalog.cards_by_code.values()} == {"BIG-00007", "BIG-00008"}
    plans = []
    with connection.cursor() as cursor:
        # as a catalog import ends: the GIN indexes' pending lists merged (a long pending list
        # is priced as a slow scan), the planner told of the game's 1,000 cards
        analyze_catalog()
        cursor.execute("SET LOCAL enable_seqscan = off")
        for query in queries.captured_queries:
            if '"catalog_card"' in query["sql"] and "FROM" in query["sql"]:
                cursor.execute("EXPLAIN " + query["sql"])
                plans.append("\n".join(row[0] for row in cursor.fetchall()))
    assert len(plans) == 2
    assert all("Seq Scan" not in plan for plan in plans), plans
    assert "card_code_lower" in plans[0]
    assert "card_name_parts_gin" in plans[1]
