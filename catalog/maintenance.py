"""Keeping the planner's picture of the catalog true after bulk writes.

A catalog import adds thousands of rows at once; until autovacuum gets round to it, PostgreSQL
plans searches with the empty table's statistics (a freshly loaded database served a
cross-game search in 548 ms instead of a few). Every import therefore ends with ANALYZE.
"""

from __future__ import annotations

from django.db import connection

CATALOG_TABLES = ("catalog_card", "catalog_printing", "catalog_cardset")
#: the search's GIN indexes (catalog migration 0005): rows added in bulk wait in their pending
#: list, which the planner prices as a slow scan until VACUUM or autoanalyze merges it
GIN_INDEXES = ("card_search_key_trgm", "card_attributes_gin", "printing_attributes_gin")


def analyze_catalog() -> None:
    """Merge the GIN indexes' pending entries and refresh the statistics of the catalog
    tables (both databases understand ANALYZE)."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT gin_clean_pending_list(oid) FROM pg_class "
                "WHERE relkind = 'i' AND relname = ANY(%s)",
                [list(GIN_INDEXES)],
            )
            cursor.execute(f"ANALYZE {', '.join(CATALOG_TABLES)}")
        else:
            for table in CATALOG_TABLES:
                cursor.execute(f"ANALYZE {table}")
