"""Keeping the planner's picture of the catalog true after bulk writes.

A catalog import adds thousands of rows at once; until autovacuum gets round to it, PostgreSQL
plans searches with the empty table's statistics (a freshly loaded database served a
cross-game search in 548 ms instead of a few). Every import therefore ends with ANALYZE of
the tables it changed noticeably: more than ``ANALYZE_SHARE`` of their rows (autovacuum's own
default threshold), or any rows of a table never analysed. A 10,000-card sheet added to a
200,000-printing catalog leaves the statistics true enough, and analysing it would cost the
import as much as writing it (autovacuum gets there in its own time).
"""

from __future__ import annotations

from collections.abc import Mapping

from django.db import connection

CATALOG_TABLES = ("catalog_card", "catalog_printing", "catalog_cardset")
#: the search's GIN indexes (catalog migration 0005): rows added in bulk wait in their pending
#: list, which the planner prices as a slow scan until VACUUM or autoanalyze merges it
GIN_INDEXES = (
    "card_search_key_trgm",
    "card_game_search_key_trgm",  # a game's name search (catalog migration 0010)
    "card_attributes_gin",
    "printing_attributes_gin",
    "card_name_parts_gin",  # the collection imports' name look-up (catalog migration 0007)
    "printing_fighter_trgm",  # text fields' trigram indexes (catalog migration 0006)
    "card_family_trgm",
)
#: the share of a table's rows an import must write for its statistics to be refreshed
ANALYZE_SHARE = 0.1


def analyze_catalog(*, written: Mapping[str, int] | None = None) -> None:
    """Merge the GIN indexes' pending entries and refresh the statistics of the catalog
    tables (both databases understand ANALYZE). With ``written`` (rows an import wrote, by
    table), only the tables it changed noticeably are analysed on PostgreSQL."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT gin_clean_pending_list(oid) FROM pg_class "
                "WHERE relkind = 'i' AND relname = ANY(%s)",
                [list(GIN_INDEXES)],
            )
            tables = list(CATALOG_TABLES)
            if written is not None:
                cursor.execute(
                    "SELECT relname, reltuples FROM pg_class "
                    "WHERE relkind = 'r' AND relname = ANY(%s)",
                    [tables],
                )
                # reltuples is -1 (or 0) until a table is first analysed
                known = dict(cursor.fetchall())
                tables = [
                    t
                    for t in tables
                    if written.get(t, 0)
                    and written[t] > ANALYZE_SHARE * max(float(known.get(t, 0)), 0.0)
                ]
            if tables:
                cursor.execute(f"ANALYZE {', '.join(tables)}")
        else:
            for table in CATALOG_TABLES:
                cursor.execute(f"ANALYZE {table}")
