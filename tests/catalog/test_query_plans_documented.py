"""Every documented search form (tests/catalog/documented_forms.py) is answered from indexes:
on a five-game catalog big enough that PostgreSQL prefers an index to reading a table, the
plans of the API's page of rows and of its count hold no sequential scan of the card or the
printing table (issue 19); nor do the statements the API's paginator really runs (the capped
count's ids, the page's rows by those ids or in the query's order, their printings:
``catalog/query/paging.py``); a sort of a whole game by ``value`` reads its page from an index.

SQLite has no trigram, GIN or expression indexes of these kinds (docs/search.md): skipped there.
"""

from __future__ import annotations

from collections.abc import Callable
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
from tests.catalog.documented_forms import DOCUMENTED_FORMS
from tests.catalog.search_seed import name_parts

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="the trigram, GIN and expression indexes are PostgreSQL's",
)

CARDS_PER_GAME = 8_000
SETS_PER_GAME = 40
FIGHTERS = 200
SCANS = ("Seq Scan on catalog_card ", "Seq Scan on catalog_printing ")


def _unmatched(i: int) -> tuple[str, dict[str, Any], dict[str, Any]]:
    kind = ("attack", "defense", "versatile", "scheme", "character")[i % 5]
    if kind == "character":
        card: dict[str, Any] = {"hp": 8 + i % 13, "move": 1 + i % 4}
    elif kind == "scheme":
        card = {}
    else:
        card = {"value": (i * 7 + i // 4) % 6}
    fighter = "any" if i % 3 == 0 else f"Hero {(i * 31) % FIGHTERS}"
    return kind, card, {"fighter": fighter, "boost": (i // 3) % 5}


def _monster_hunter(i: int) -> tuple[str, dict[str, Any], dict[str, Any]]:
    weapons = ("great-sword", "long-sword", "sword-and-shield", "dual-blades", "hammer", "lance")
    items = ("meat", "medicine", "ball", "barrel-bomb", "whetstone", "trap")
    kind = ("hunter", "monster", "weapon", "armor", "item")[i % 5]
    card: dict[str, Any]
    if kind == "monster":
        card = {"hp": 1 + i % 99, "rank": i % 21, "attack": i % 60}
    elif kind == "hunter":
        card = {"attack": i % 6, "reach": i % 4, "item_icons": [items[i % 6]]}
    elif kind == "weapon":
        card = {"weapon_icon": weapons[i % 9 % 6], "attack": i % 9, "cost": i % 30}
    else:
        card = {"cost": i % 30, "item_icons": [items[i % 6], items[(i + 1) % 6]]}
    return kind, card, {}


def _ouka_fushin(i: int) -> tuple[str, dict[str, Any], dict[str, Any]]:
    schools = ("goton", "henge-genjutsu", "fusui-bokusen", "raijin", "kenshin", "houjutsu")
    kind = ("character", "story", "climax", "mission", "protagonist")[i % 5]
    card: dict[str, Any]
    if kind == "story":
        card = {"story_kind": ("normal", "event")[i % 2], "keywords": [f"語{i % 300}"]}
        card["points"] = i % 200
    elif kind == "climax":
        card = {"conditions": [f"語{i % 300}"], "bonus": 50}
    else:
        card = {"school": schools[i % 6], "destiny": 1 + i % 3}
    return kind, card, {}


def _recharge(i: int) -> tuple[str, dict[str, Any], dict[str, Any]]:
    colours = ("red", "green", "yellow", "blue")
    kind = ("hero", "teamwork", "power")[i % 3]
    left, right = [colours[i % 4]], [colours[(i // 4) % 4]]
    if kind == "power":
        card: dict[str, Any] = {"left": left, "right": right, "left_power": i % 120}
        card["right_power"] = (i * 7) % 120
    else:
        card = {"power": i % 200, "left": left, "right": right}
    if i % 17 == 0:
        card["special"] = True
    return kind, card, {}


def _mattsan(i: int) -> tuple[str, dict[str, Any], dict[str, Any]]:
    kind = ("unit", "trump", "terrain", "trap")[i % 4]
    card: dict[str, Any] = {}
    if kind == "unit":
        card = {"hp": 1 + i % 40, "soul": i % 10, "family": f"家{i % 250}"}
    elif kind == "trump":
        card = {"cost": i % 10}
    return kind, card, {"rarity": 1 + i % 5}


SHAPES: dict[str, Callable[[int], tuple[str, dict[str, Any], dict[str, Any]]]] = {
    "unmatched": _unmatched,
    "monster-hunter": _monster_hunter,
    "ouka-fushin": _ouka_fushin,
    "recharge": _recharge,
    "mattsan": _mattsan,
}


def _seed(slug: str, offset: int) -> Game:
    game = game_sync(slug)
    sets = CardSet.objects.bulk_create(
        [
            CardSet(game=game, code=f"plan-{s:02d}", name_en=f"Plan {s}")
            for s in range(SETS_PER_GAME)
        ]
        + [CardSet(game=game, code="cobble-fog", name_en="Cobble & Fog")]
    )
    cards, shapes = [], []
    for i in range(CARDS_PER_GAME):
        en, ja = name_parts(offset + i)
        kind, attributes, printing = SHAPES[slug](i)
        shapes.append(printing)
        cards.append(
            Card(
                game=game,
                code=f"plan-{i:06d}",
                name_en=en,
                name_ja=ja,
                card_type=kind,
                attributes=attributes,
                search_key=search_key(en, ja),
            )
        )
    made = Card.objects.bulk_create(cards, batch_size=2000)
    Printing.objects.bulk_create(
        [
            Printing(
                card=card,
                card_set=sets[i * len(sets) // len(made)],
                collector_number=str(i),
                attributes=shapes[i],
            )
            for i, card in enumerate(made)
        ],
        batch_size=2000,
    )
    return game


@pytest.fixture
def catalog(db: None) -> dict[str, Game]:
    games = {slug: _seed(slug, n * CARDS_PER_GAME) for n, slug in enumerate(SHAPES)}
    analyze_catalog()
    return games


def _plan(rows: Any) -> str:
    text: str = rows.explain()
    return text


def test_every_documented_search_form_reads_cards_and_printings_through_indexes(
    catalog: dict[str, Game],
) -> None:
    player = get_user_model().objects.create_user(username="planner", password="x")
    context = search_context(user=player)
    scanned = []
    for slug, query in DOCUMENTED_FORMS:
        rows = selectors.card_list(game=catalog[slug], filters={"q": query}, context=context)
        for label, explained in (
            ("rows", _plan(rows[:50])),
            ("count", _plan(rows.order_by().values("pk"))),
        ):
            if any(scan in explained + " " for scan in SCANS):
                scanned.append(f"{slug}: {query!r} ({label}):\n{explained}")
    assert scanned == [], f"{len(scanned)} plans read a whole table:\n\n" + "\n\n".join(scanned)


def _explained(sql: str) -> str:
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN {sql}")
        return "\n".join(row[0] for row in cursor.fetchall())


def test_every_documented_form_s_first_page_and_its_capped_count_read_through_indexes(
    catalog: dict[str, Game],
) -> None:
    player = get_user_model().objects.create_user(username="pager", password="x")
    context = search_context(user=player)
    scanned = []
    for slug, query in DOCUMENTED_FORMS:
        rows = selectors.card_list(game=catalog[slug], filters={"q": query}, context=context)
        with CaptureQueriesContext(connection) as seen:
            list(CappedPaginator(rows, DEFAULT_PAGE_SIZE).page(1))
        assert seen.captured_queries, query
        for statement in seen.captured_queries:
            explained = _explained(statement["sql"])
            if any(scan in explained + " " for scan in SCANS):
                scanned.append(f"{slug}: {query!r}:\n{statement['sql'][:300]}\n{explained}")
    assert scanned == [], f"{len(scanned)} plans read a whole table:\n\n" + "\n\n".join(scanned)


@pytest.mark.parametrize(
    ("query", "index"),
    [("order:value dir:desc", "card_value_desc"), ("order:value", "card_value_asc")],
)
def test_sorting_a_whole_game_by_value_reads_the_page_from_its_index(
    catalog: dict[str, Game], query: str, index: str
) -> None:
    rows = selectors.card_list(game=catalog["unmatched"], filters={"q": query})
    explained = _plan(rows[:DEFAULT_PAGE_SIZE])
    assert index in explained, explained
    assert "Sort" not in explained, explained  # no card of the game sorted, only 50 read


def test_the_planner_has_statistics_for_game_types_and_wide_number_fields(db: None) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT stxname FROM pg_statistic_ext")
        names = {row[0] for row in cursor.fetchall()}
    assert {"card_game_type_stats", "card_reach_stats", "card_hp_stats"} <= names


KESTRELS = 2_500  # name matches sitting together at the end of the table, as an import leaves them


def test_a_name_matching_thousands_of_cards_in_one_stretch_is_counted_through_the_index(
    catalog: dict[str, Game],
) -> None:
    """Thousands of ``kestrel`` cards written by one import sit together at the table's end:
    a plain scan under the capped count's LIMIT, which the planner expects to stop early,
    reads the whole game first (issue 19: 120,000 rows, over a second at 8 clients). The
    game's trigram index (catalog migration 0010) answers it instead."""
    game = catalog["unmatched"]
    cards = Card.objects.bulk_create(
        [
            Card(
                game=game,
                code=f"kestrel-{i:05d}",
                name_en=f"Kestrel {name_parts(i)[0]}",
                card_type="attack",
                attributes={"value": i % 5},
                search_key=search_key(f"Kestrel {name_parts(i)[0]}", ""),
            )
            for i in range(KESTRELS)
        ],
        batch_size=2000,
    )
    fog = CardSet.objects.get(game=game, code="cobble-fog")
    Printing.objects.bulk_create(
        [
            Printing(card=card, card_set=fog, collector_number=f"k{i}")
            for i, card in enumerate(cards)
        ]
    )
    analyze_catalog()
    rows = selectors.card_list(game=game, filters={"q": "kestrel"})
    with CaptureQueriesContext(connection) as seen:
        paginator = CappedPaginator(rows, DEFAULT_PAGE_SIZE)
        list(paginator.page(1))
    assert not paginator.count_is_exact  # more than the cap match: the count reads 1,001 ids
    explained = [_explained(statement["sql"]) for statement in seen.captured_queries]
    assert not [text for text in explained if "Seq Scan on catalog_card " in text + " "], explained
    assert any("card_game_search_key_trgm" in text for text in explained), explained
