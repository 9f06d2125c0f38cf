"""At a seeded size, PostgreSQL answers the typical searches from indexes: the plans of the
card list's rows and of its count hold no sequential scan of the card table.

SQLite has no trigram or GIN index and reads the table (docs/search.md): skipped there.
"""

from __future__ import annotations

import pytest
from django.db import connection

from catalog.api import selectors
from catalog.importers.write import game_sync
from catalog.models import Game
from tests.catalog.search_seed import name_parts, seed_unmatched

SEEDED_CARDS = 20_000
SETS = 50
# typical searches: a name prefix, a Japanese name, a field comparison, a negation, a sort
TYPICAL = (
    "kakeki",
    name_parts(1234)[1].split("・")[0],
    "value:5 boost:4",
    "-type:scheme kesa",
    "kasa order:name dir:desc",
    "value>=4 fighter:alice set:seed-07",
)

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the trigram and GIN indexes are PostgreSQL's"
)


@pytest.fixture
def seeded(db: None) -> Game:
    game = game_sync("unmatched")
    seed_unmatched(game, cards=SEEDED_CARDS, sets=SETS)
    return game


def plan(sql_source: object) -> str:
    text: str = sql_source.explain()  # type: ignore[attr-defined]
    return text


def test_the_typical_searches_read_the_card_table_through_its_indexes(seeded: Game) -> None:
    # one seeding for the whole table of queries: 20,000 cards take seconds to write
    scanned = []
    for query in TYPICAL:
        cards = selectors.card_list(game=seeded, filters={"q": query})
        for label, explained in (
            ("rows", plan(cards[:50])),
            ("count", plan(cards.order_by().values("pk"))),
        ):
            assert "catalog_card" in explained
            if "Seq Scan on catalog_card " in explained + " ":
                scanned.append(f"{query!r} ({label}):\n{explained}")
    assert scanned == []
