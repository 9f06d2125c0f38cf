"""A large synthetic Unmatched catalog for the search's index test and bench/search.py.

Names are built from syllables picked with different strides, so name words are as varied as a
real catalog's (a trigram index has something to choose by); every card type and attribute is
one the game's schemas accept. Deterministic: the same size gives the same rows.
"""

from __future__ import annotations

from django.db import connection

from catalog.models import Card, CardSet, Game, Printing
from catalog.search import search_key

EN = (
    "ka",
    "ke",
    "ki",
    "ko",
    "ku",
    "sa",
    "se",
    "shi",
    "so",
    "su",
    "ta",
    "te",
    "ti",
    "to",
    "tu",
    "na",
    "ne",
    "ni",
    "no",
    "nu",
    "ra",
    "re",
    "ri",
    "ro",
    "ru",
    "ma",
    "me",
    "mi",
    "mo",
    "mu",
    "ba",
    "be",
    "bi",
    "bo",
    "bu",
    "ga",
    "ge",
    "gi",
    "go",
    "gu",
    "za",
)
JA = tuple("カケキコクサセシソスタテチトツナネニノヌラレリロルマメミモムバベビボブガゲギゴグザ")
TYPES = ("attack", "defense", "versatile", "scheme")
FIGHTERS = ("any", "Alice", "Medusa", "Sinbad", "Achilles")
BATCH = 5000


def name_parts(i: int) -> tuple[str, str]:
    n = len(EN)
    picks = (i % n, (i // n) % n, (i // (n * n)) % n, (i * 7) % n)
    en = "".join(EN[p] for p in picks[:3]).title() + " " + EN[picks[3]] + str(i % 997)
    ja = "".join(JA[p] for p in picks[:3]) + "・" + JA[picks[3]] + str(i % 997)
    return en, ja


def seed_unmatched(game: Game, *, cards: int, sets: int, prefix: str = "seed") -> None:
    """Add ``cards`` cards over ``sets`` sets (one printing each; every tenth card reprinted in
    the next set), then ANALYZE, as a catalog import ends."""
    card_sets = CardSet.objects.bulk_create(
        [
            CardSet(game=game, code=f"{prefix}-{s:02d}", name_en=f"Seed set {s}", is_demo=True)
            for s in range(sets)
        ]
    )
    for start in range(0, cards, BATCH):
        rows = []
        for i in range(start, min(start + BATCH, cards)):
            en, ja = name_parts(i)
            card_type = TYPES[i % len(TYPES)]
            attributes = {} if card_type == "scheme" else {"value": (i * 7 + i // 4) % 6}
            rows.append(
                Card(
                    game=game,
                    code=f"{prefix}-{i:06d}",
                    name_en=en,
                    name_ja=ja,
                    card_type=card_type,
                    attributes=attributes,
                    search_key=search_key(en, ja),
                    is_demo=True,
                )
            )
        made = Card.objects.bulk_create(rows)
        printings = []
        for offset, card in enumerate(made):
            i = start + offset
            boost = {"fighter": FIGHTERS[i % len(FIGHTERS)], "boost": (i // 3) % 5}
            home = card_sets[i % sets]
            printings.append(
                Printing(card=card, card_set=home, collector_number=f"{i:06d}", attributes=boost)
            )
            if i % 10 == 0:
                again = card_sets[(i + 1) % sets]
                printings.append(
                    Printing(
                        card=card, card_set=again, collector_number=f"r{i:06d}", attributes=boost
                    )
                )
        Printing.objects.bulk_create(printings)
    _analyze()


def _analyze() -> None:
    try:
        from catalog.maintenance import analyze_catalog
    except ImportError:  # the committed code, measured by bench/search.py: plain ANALYZE
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        return
    analyze_catalog()
