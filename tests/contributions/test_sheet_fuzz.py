"""Any text at all, as a sheet: a result with problems (or a clean bundle), never an exception."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, Phase, example, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from contributions.sheet import names_sheet_check, sheet_check
from tests.catalog.factories import CardFactory, CardSetFactory, GameFactory, PrintingFactory

pytestmark = pytest.mark.django_db

RUN = hypothesis_settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)

HEADER = "code,type,name_en,name_ja,set,number,hp,weapon_icon,item_icons,printing.boost,game"
CELLS = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["", "MH1", "weapon", "monster", "mh1-rathalos", "meat|ball", "great-sword"]),
    st.sampled_from(["\x00", "a\x00b", '"', '""', "\r", "\n", "\ufeff", "|", "99999999999999999"]),
    st.integers(min_value=131_000, max_value=140_000).map(lambda n: "x" * n),
)
ROWS = st.lists(st.lists(CELLS, min_size=0, max_size=13), max_size=6)
TEXTS = st.one_of(
    st.binary(max_size=300).map(lambda raw: raw.decode("utf-8", "replace")),
    st.binary(max_size=300).map(lambda raw: raw.decode("cp932", "replace")),
    st.text(max_size=300),
    ROWS.map(lambda rows: "\n".join([HEADER, *(",".join(row) for row in rows)])),
    ROWS.map(lambda rows: "\r\n".join(['"' + '","'.join(row) + '"' for row in rows])),
)


@pytest.fixture
def mh_set() -> None:
    game = GameFactory(slug="monster-hunter")
    card_set = CardSetFactory(game=game, code="MH1")
    card = CardFactory(game=game, code="mh1-rathalos", card_type="monster", name_en="Rathalos")
    PrintingFactory(card=card, card_set=card_set, collector_number="001")


#: NULs where the check reads the database (codes, set codes, names), a cell past the csv
#: module's limit, a lone surrogate
NASTY = [
    HEADER + "\nmh1-rath\x00alos,monster,Rath\x00alos,,MH\x001,001,8,,,,\n",
    HEADER + "\na1,weapon,Rathalos,,MH1,0\x00,,great-sword,meat,,\n",
    HEADER + "\na1,weapon," + "x" * 140_000 + ",,MH1,1,,bow,,,\n",
    "code,name_ja\nmh1-rath\x00alos,\x00\nmh1-rathalos,\ud800\n",
    "\x00" * 10,
]


@RUN
@given(text=TEXTS)
@example(text=NASTY[0])
@example(text=NASTY[1])
@example(text=NASTY[2])
@example(text=NASTY[3])
@example(text=NASTY[4])
def test_any_text_is_a_card_sheet_result(mh_set: None, text: str) -> None:
    result = sheet_check(text, game_slug="monster-hunter")

    assert (result.bundle is None) == bool(result.problems)
    for problem in result.problems:
        assert problem.line >= 0
        assert problem.reason


@RUN
@given(text=TEXTS)
@example(text=NASTY[0])
@example(text=NASTY[3])
@example(text=NASTY[4])
def test_any_text_is_a_names_sheet_result(mh_set: None, text: str) -> None:
    result = names_sheet_check(text, game_slug="monster-hunter")

    assert (result.bundle is None) == bool(result.problems)
