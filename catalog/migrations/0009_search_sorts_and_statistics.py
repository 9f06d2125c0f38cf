"""Indexes and planner statistics for a page of a search that matches much of a game
(issue 19). PostgreSQL only, as 0005 and 0006.

- ``order:value dir:desc`` over Unmatched's 100,000 cards sorted every card of the game for
  a page of 50 (56-80 ms). The compiler orders by ``(attributes -> 'key') DESC NULLS LAST,
  name_en, id`` (``catalog/query/compile.py``, ``order_cards``) on the public cards of one
  game: a btree on ``(game_id, that key in that direction, name_en, id)``, partial on
  ``owner_id IS NULL`` as the search's rows are, lets the planner read the page's 50 cards
  from the index in order and stop (0.4 ms). One index per direction: a backward scan would
  put the cards without the key first.
- Statistics the planner had no way to gather, so a page of many matches is read by walking
  the name index (a few thousand rows) rather than by fetching and sorting every match:
  card types belong to one game (``type:monster`` is a quarter of Monster Hunter, not of the
  whole table: estimated at half its size, and ``type:monster rank<=2`` at 585 cards for
  9,493, read and sorted in 27-39 ms); and the number keys of 0006 are indexed by partial
  expression indexes, of which PostgreSQL keeps no statistics (``reach:2``: 177 estimated,
  17,538 found, 43 ms). Extended statistics on ``(game_id, card_type)`` and on each
  ``attributes -> 'key'`` give the estimates; ``ANALYZE`` fills them at once.

A game that documents a sort by another number field adds its key to ``CARD_ORDER_KEYS`` in
a new migration (``tests/catalog/test_query_plans_documented.py`` checks the documented
forms' plans); a new wide number field of 0006's kind adds its statistics the same way.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations

CARD_ORDER_KEYS = ("value",)
DIRECTIONS = (("asc", "ASC"), ("desc", "DESC"))
#: the wide-range number keys of 0006 (its partial indexes keep no statistics)
CARD_NUMBER_KEYS = ("hp", "reach", "attack", "cost", "power", "left_power", "right_power", "points")


def _indexes() -> list[tuple[str, str]]:
    """(name, CREATE INDEX statement) of each index."""
    return [
        (
            f"card_{key}_{short}",
            f"CREATE INDEX IF NOT EXISTS card_{key}_{short} ON catalog_card "
            f"(game_id, (attributes -> '{key}') {direction} NULLS LAST, name_en, id) "
            "WHERE owner_id IS NULL",
        )
        for key in CARD_ORDER_KEYS
        for short, direction in DIRECTIONS
    ]


def _statistics() -> list[tuple[str, str]]:
    """(name, CREATE STATISTICS statement) of each statistics object."""
    found = [
        (
            "card_game_type_stats",
            "CREATE STATISTICS IF NOT EXISTS card_game_type_stats (mcv) "
            "ON game_id, card_type FROM catalog_card",
        )
    ]
    for key in CARD_NUMBER_KEYS:
        name = f"card_{key}_stats"
        found.append(
            (
                name,
                f"CREATE STATISTICS IF NOT EXISTS {name} "
                f"ON (attributes -> '{key}') FROM catalog_card",
            )
        )
    return found


def create(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        for _name, statement in [*_indexes(), *_statistics()]:
            schema_editor.execute(statement)
        schema_editor.execute("ANALYZE catalog_card")


def drop(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        for name, _statement in reversed(_statistics()):
            schema_editor.execute(f"DROP STATISTICS IF EXISTS {name}")
        for name, _statement in reversed(_indexes()):
            schema_editor.execute(f"DROP INDEX IF EXISTS {name}")


class Migration(migrations.Migration):
    dependencies = [("catalog", "0008_kinds_declared_by_games")]

    operations = [migrations.RunPython(create, drop)]
