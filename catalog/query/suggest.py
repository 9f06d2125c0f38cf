"""Near-miss names: when a search by name finds nothing, the names it probably meant.

PostgreSQL ranks the game's names by pg_trgm word similarity (``<%``, answered by the trigram
index on ``search_key``); SQLite compares the game's names in Python with difflib, which is
fine for catalogs of a few thousand cards and is the documented slow path.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from django.db import connection, transaction
from django.db.models import BooleanField, FloatField, QuerySet
from django.db.models.expressions import RawSQL

from catalog.models import Card
from catalog.search import fold

MAX_SUGGESTIONS = 5
#: pg_trgm's default word-similarity threshold (0.6) misses "kestral" -> "kestrel"
_SIMILARITY = 0.4
_SQLITE_SCAN_LIMIT = 20_000


def near_names(cards: QuerySet[Card], words: Sequence[str]) -> list[Card]:
    """Up to five cards of ``cards`` whose names are close to ``words`` (best first)."""
    text = " ".join(fold(word) for word in words).strip()
    if not text:
        return []
    if connection.vendor == "postgresql":
        similar = RawSQL(
            "word_similarity(%s, catalog_card.search_key)", (text,), output_field=FloatField()
        )
        close = RawSQL("%s <%% catalog_card.search_key", (text,), output_field=BooleanField())
        with transaction.atomic(), connection.cursor() as cursor:
            # the operator's threshold, for this transaction only (SET LOCAL needs one)
            cursor.execute("SET LOCAL pg_trgm.word_similarity_threshold = %s", [_SIMILARITY])
            return list(
                cards.filter(close)
                .annotate(similarity=similar)
                .order_by("-similarity", "name_en", "pk")[:MAX_SUGGESTIONS]
            )
    keys = list(cards.values_list("pk", "search_key")[:_SQLITE_SCAN_LIMIT])
    scored: list[tuple[float, int]] = []
    for pk, key in keys:
        best = max(
            (
                difflib.SequenceMatcher(None, text, part).ratio()
                for name in key.split(" | ")
                for part in (name, *name.split())
            ),
            default=0.0,
        )
        if best >= 0.7:
            scored.append((best, pk))
    scored.sort(key=lambda item: (-item[0], item[1]))
    chosen = [pk for _score, pk in scored[:MAX_SUGGESTIONS]]
    found = {card.pk: card for card in cards.filter(pk__in=chosen).select_related("game")}
    return [found[pk] for pk in chosen if pk in found]
