from __future__ import annotations

import pytest

from catalog.search import normalise, search_key


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("モンスター", "もんすたー"),
        ("ﾓﾝｽﾀｰ", "もんすたー"),  # half-width kana
        ("ＲＡＴＨＩＡＮ", "rathian"),  # full-width Latin
        ("Sword & Shield", "sword & shield"),
        ("大剣", "大剣"),
    ],
)
def test_it_folds_kana_width_and_case(text: str, expected: str) -> None:
    assert normalise(text) == expected


def test_the_search_key_holds_both_names() -> None:
    assert search_key("Feint", "フェイント") == "feint | ふぇいんと"
    assert search_key("Feint", "") == "feint"
