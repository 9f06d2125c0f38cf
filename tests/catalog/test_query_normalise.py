"""Normalisation of names and search words: kana, width, case and punctuation do not matter."""

from __future__ import annotations

import pytest

from catalog.search import fold, search_key


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("モンスター", "もんすたー"),  # katakana to hiragana
        ("もんすたー", "もんすたー"),
        ("ﾓﾝｽﾀｰ", "もんすたー"),  # half-width katakana
        ("ＲＡＴＨＩＡＮ", "rathian"),  # full-width Latin
        ("ｒａｔｈｉａｎ", "rathian"),
        ("１２３", "123"),  # full-width digits
        ("ナイト・ガード", "ないとがーど"),  # the middle dot is punctuation
        ("ﾅｲﾄ･ｶﾞｰﾄﾞ", "ないとがーど"),  # its half-width form, and a voiced mark
        ("Yian Kut-Ku", "yian kutku"),
        ("Dr. Jekyll's", "dr jekylls"),
        ("「旅立ち」", "旅立ち"),
        ("大剣", "大剣"),
    ],
)
def test_search_words_fold_kana_width_case_and_punctuation(text: str, expected: str) -> None:
    assert fold(text) == expected


def test_the_search_key_holds_both_names_folded() -> None:
    assert search_key("Night-Guard", "ナイト・ガード") == "nightguard | ないとがーど"
