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


# str.translate tables: a catalog import folds every name, character by character in C
_KATAKANA_AS_HIRAGANA = {
    code: code - _KANA_OFFSET for code in range(_KATAKANA_START, _KATAKANA_END + 1)
}


class _WithoutPunctuation(dict[int, str | None]):
    """Drops Unicode punctuation (category P*); each character's category is read once."""

    def __missing__(self, code: int) -> str | None:
        kept = None if unicodedata.category(chr(code)).startswith("P") else chr(code)
        self[code] = kept
        return kept


_WITHOUT_PUNCTUATION = _WithoutPunctuation()


def normalise(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold().translate(_KATAKANA_AS_HIRAGANA)


def name_key(text: str) -> str:
    """How every importer compares a name it was given with the catalog's: ``normalise``
    (width, case, katakana as hiragana) with runs of spaces as one. The deck list, the deck
    editor's suggestions, the collection files and the typed list all use this one key."""
    return " ".join(normalise(text).split())


def fold(text: str) -> str:
    """``normalise`` less punctuation (Unicode category P*: ・ - . ' 「」 and the like)."""
    return normalise(text).translate(_WITHOUT_PUNCTUATION)


def search_key(*names: str) -> str:
    return " | ".join(fold(name) for name in names if name)
