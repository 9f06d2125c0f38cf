"""A player's collection mark: a value that moves whenever their collection does, so the
collection page's aggregates (totals, set completion) are counted once and then read from the
cache until the next change.

Every write to an item saves its ``updated_at`` (``auto_now``; the services' bulk paths set it
too), and every removal, move, import and undo writes a ``CollectionChange`` row (the model's
rule: nothing changes a quantity without one). The latest of each, per player, is therefore a
version of the collection: two index probes, (owner, -updated_at) and (owner, -created_at).
Writers take the player's collection lock before they stamp anything, so a later write never
carries an earlier stamp. What is cached also names the catalog's version (an import moves a
printing's card or set) and lives ``FRAGMENT_SECONDS`` at most, which bounds any miss.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from django.core.cache import cache
from django.db import connection

from catalog.cache import FRAGMENT_SECONDS, catalog_version
from collection.models import CollectionChange, CollectionItem

log = logging.getLogger(__name__)
T = TypeVar("T")


def collection_mark(*, owner: Any) -> str:
    """The player's latest item write and latest logged change, in one statement."""
    quote = connection.ops.quote_name
    items, changes = CollectionItem._meta.db_table, CollectionChange._meta.db_table
    with connection.cursor() as cursor:
        # MAX over a leading-equality index column: PostgreSQL and SQLite read one index entry
        cursor.execute(
            f"SELECT (SELECT MAX(updated_at) FROM {quote(items)} WHERE owner_id = %s), "
            f"(SELECT MAX(created_at) FROM {quote(changes)} WHERE owner_id = %s)",
            [owner.pk, owner.pk],
        )
        last_item, last_change = cursor.fetchone()
    return f"{last_item}|{last_change}"


def collection_cached(
    *, what: str, owner_id: int, mark: str, parts: Mapping[str, Any], compute: Callable[[], T]
) -> T:
    """``compute()``, or its result from the cache while the collection and the catalog stand
    still. ``parts`` name what else the result depends on (the game, the filters)."""
    named = "&".join(f"{k}={parts[k]}" for k in sorted(parts))
    digest = hashlib.sha256(f"{mark}|{named}".encode()).hexdigest()[:32]
    try:
        key = f"collection:{what}:{owner_id}:v{catalog_version()}:{digest}"
        found = cache.get(key)
    except Exception:  # the cache unreachable: count without it
        log.warning("collection cache unreachable", exc_info=True)
        return compute()
    if found is not None:
        return found
    value = compute()
    with contextlib.suppress(Exception):  # counted all the same; the next page counts again
        cache.set(key, value, timeout=FRAGMENT_SECONDS)
    return value
