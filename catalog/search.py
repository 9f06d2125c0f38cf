"""Name search keys: one normalised string per card so ja and en names match loosely.

NFKC folds full-width letters and half-width kana; katakana is folded to hiragana so that
「もんすたー」 finds 「モンスター」; case is folded for Latin names. The search key (and the
search language's words, ``fold``) also drop punctuation, so 「ナイト・ガード」 and
「ナイトガード」, "X-Men" and "xmen" find each other.
"""

from __future__ import annotations

import unicodedata

_KATAKANA_START, _KATAKANA_END = 0x30A1, 0x30F6
_KANA_OFFSET = 0x60


def normalise(text: str) -> str:
    folded = unicodedata.normalize("NFKC", text).casefold()
    return "".join(
        chr(ord(ch) - _KANA_OFFSET) if _KATAKANA_START <= ord(ch) <= _KATAKANA_END else ch
        for ch in folded
    )


def fold(text: str) -> str:
    """``normalise`` less punctuation (Unicode category P*: ・ - . ' 「」 and the like)."""
    return "".join(ch for ch in normalise(text) if not unicodedata.category(ch).startswith("P"))


def search_key(*names: str) -> str:
    return " | ".join(fold(name) for name in names if name)
