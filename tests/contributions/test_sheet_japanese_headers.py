"""A sheet whose columns a Japanese contributor titled as the Japanese form names the facts
("攻撃力", not ``attack``) reads exactly as the template's English codes do: the same cards,
the same problems at the same lines and columns; the page names a problem's column by the
sheet's own title.

The sheets are real CSV files as a spreadsheet writes them: UTF-8 with a byte order mark and
CRLF line ends ("CSV UTF-8"), or Shift_JIS (a Japanese Excel's plain "CSV"), decoded by the
upload's own decoder.
"""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import translation

from catalog.importers.bundle import CatalogBundle
from catalog.importers.csv_cards import PRINTING_PREFIX
from catalog.models import Game
from catalog.spec import all_games, get_game
from collection.interchange.read import decode
from contributions.models import Proposal
from contributions.sheet import names_sheet_check, sheet_check, sheet_template
from contributions.sheet_reading import BOM, header_in_codes, importer_columns
from tests.catalog.factories import CardSetFactory, GameFactory
from tests.contributions.conftest import SOURCE

pytestmark = pytest.mark.django_db

SHEET_URL = "/contribute/monster-hunter/sheet/"

#: the fixed columns as the Japanese proposal form titles them (written out: this is what a
#: Japanese contributor reads on the page, not something derived from the code under test)
JAPANESE_FIXED = {
    "code": "カードコード",
    "type": "カードの種類",
    "name_en": "英語名",
    "name_ja": "日本語名",
    "set": "セット",
    "number": "カード番号",
    "variant": "バリアント",
}
#: how the Japanese form prefixes a printing's own fact
PRINTING_JA = "版："

#: Monster Hunter hunters with every column titled in Japanese (one with a stray space)
MH_JAPANESE = (
    "カードコード,カードの種類,英語名,日本語名,セット,カード番号,攻撃力,移動力, リーチ,"
    "アイテムアイコン"
)
MH_CODES = "code,type,name_en,name_ja,set,number,attack,movement,reach,item_icons"
MH_ROWS = [
    "T-002,hunter,Second Hunter,二人目のハンター,t1,002,2,1,1,meat|ball",
    "T-003,hunter,Third Hunter,,t1,003,1,1,1,",
]
#: line 3 misspells the set, line 4 has an attack the game does not allow
MH_BAD_ROWS = [
    "T-002,hunter,Second Hunter,,t1,002,2,1,1,",
    "T-003,hunter,Third Hunter,,t2,003,1,1,1,",
    "T-004,hunter,Fourth Hunter,,t1,004,100,1,1,",
]


def spreadsheet_bytes(rows: list[list[str]], encoding: str = "utf-8-sig") -> bytes:
    """What a spreadsheet saves: CRLF line ends, a BOM in "CSV UTF-8"."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(rows)
    return out.getvalue().encode(encoding)


def lines(header: str, rows: list[str]) -> list[list[str]]:
    return [next(csv.reader([line])) for line in [header, *rows]]


def japanese_title(column: str, slug: str) -> str:
    """A column's title as the Japanese proposal form labels the same fact."""
    if column in JAPANESE_FIXED:
        return JAPANESE_FIXED[column]
    spec = get_game(slug)
    with translation.override("ja"):
        if column.startswith(PRINTING_PREFIX):
            key = column[len(PRINTING_PREFIX) :]
            schema = next(
                s
                for s in (spec.printing_schema, *spec.printing_schemas.values())
                if key in s.base_fields
            )
            return PRINTING_JA + str(schema.base_fields[key].label)
        schema = next(t.schema for t in spec.card_types if column in t.schema.base_fields)
        return str(schema.base_fields[column].label)


def cards_of(bundle: CatalogBundle | None) -> list[tuple[Any, ...]]:
    assert bundle is not None
    return [
        (
            card.code,
            card.card_type,
            card.name_en,
            card.name_ja,
            card.attributes,
            [(p.set_code, p.collector_number, p.variant, p.attributes) for p in card.printings],
        )
        for card in bundle.cards
    ]


@pytest.fixture
def mh(db: None) -> Game:
    GameFactory(slug="monster-hunter")
    game = Game.objects.get(slug="monster-hunter")
    CardSetFactory(game=game, code="t1")
    return game


# --- every game's template, retitled in Japanese ---------------------------------------------
@pytest.mark.parametrize("slug", [spec.slug for spec in all_games()])
def test_every_games_template_titled_in_japanese_reads_as_the_english_one(slug: str) -> None:
    CardSetFactory(game=GameFactory(slug=slug), code="NEW1")
    english = sheet_template(slug, set_code="NEW1")
    header, *rows = list(csv.reader(io.StringIO(english.removeprefix(BOM), newline="")))
    titled = [japanese_title(column, slug) for column in header]
    assert all(not title.isascii() for title in titled), titled  # every title is Japanese
    text = decode(spreadsheet_bytes([titled, *rows]))

    in_english = sheet_check(english, game_slug=slug)
    in_japanese = sheet_check(text, game_slug=slug)

    assert in_japanese.problems == []
    assert cards_of(in_japanese.bundle) == cards_of(in_english.bundle)
    assert len(cards_of(in_japanese.bundle)) == len(get_game(slug).card_types)


@pytest.mark.parametrize("encoding", ["utf-8-sig", "cp932"])
def test_a_japanese_titled_sheet_saved_by_excel_gives_the_same_cards(
    mh: Game, encoding: str
) -> None:
    japanese = decode(spreadsheet_bytes(lines(MH_JAPANESE, MH_ROWS), encoding))
    english = decode(spreadsheet_bytes(lines(MH_CODES, MH_ROWS)))

    result = sheet_check(japanese, game_slug="monster-hunter")

    assert result.problems == []
    assert cards_of(result.bundle) == cards_of(
        sheet_check(english, game_slug="monster-hunter").bundle
    )
    assert cards_of(result.bundle)[0][4] == {
        "attack": 2,
        "movement": 1,
        "reach": 1,
        "item_icons": ["meat", "ball"],
    }


def test_problems_of_a_japanese_titled_sheet_are_where_they_are_in_english(mh: Game) -> None:
    japanese = decode(spreadsheet_bytes(lines(MH_JAPANESE, MH_BAD_ROWS)))
    english = decode(spreadsheet_bytes(lines(MH_CODES, MH_BAD_ROWS)))

    found = sheet_check(japanese, game_slug="monster-hunter").problems
    expected = sheet_check(english, game_slug="monster-hunter").problems

    assert [(p.line, p.column, p.did_you_mean) for p in found] == [
        (p.line, p.column, p.did_you_mean) for p in expected
    ]
    assert [(p.line, p.column) for p in found] == [(3, "set"), (4, "attack")]
    # each named by the sheet's own title too, which an English sheet does not need
    assert [p.header for p in found] == ["セット", "攻撃力"]
    assert [p.header for p in expected] == ["", ""]


def test_full_width_letters_and_parentheses_are_the_same_title(db: None) -> None:
    # a Japanese keyboard types "ＨＰ" and "（": NFKC folds them as the labels are compared
    spec = get_game("monster-hunter")
    header = header_in_codes(
        "カードコード,ＨＰ,ランク（ＨＲポイント）, 攻撃力 \r\nm1,3,2,1\r\n",
        spec.slug,
        importer_columns(spec),
    )
    assert header.text == "code,hp,rank,attack\r\nm1,3,2,1\r\n"
    assert header.titles["hp"] == "ＨＰ"


def test_a_header_broken_over_two_lines_keeps_every_row_on_its_line(mh: Game) -> None:
    header = MH_JAPANESE.replace("攻撃力", '"攻撃力\n"')
    text = "\r\n".join([header, *MH_BAD_ROWS]) + "\r\n"

    problems = sheet_check(text, game_slug="monster-hunter").problems

    # the header spans lines 1-2; the rows are on lines 3, 4 and 5 of the file
    assert [(p.line, p.column) for p in problems] == [(4, "set"), (5, "attack")]


def test_a_misspelt_japanese_title_is_reported_with_the_column_meant(mh: Game) -> None:
    text = "\r\n".join([MH_JAPANESE.replace("攻撃力", "攻撃"), *MH_ROWS]) + "\r\n"

    problems = sheet_check(text, game_slug="monster-hunter").problems

    unknown = [p for p in problems if p.line == 1]
    assert [(p.column, p.did_you_mean) for p in unknown] == [("攻撃", ("attack",))]


def test_a_title_and_a_code_for_one_column_are_one_column_twice(mh: Game) -> None:
    text = "\r\n".join([MH_CODES + ",攻撃力", *(row + ",2" for row in MH_ROWS)]) + "\r\n"

    problems = sheet_check(text, game_slug="monster-hunter").problems

    assert [(p.line, p.column) for p in problems] == [(1, "attack")]
    assert "attack" in problems[0].reason


def test_an_english_label_is_a_title_too(mh: Game) -> None:
    titled = MH_CODES.replace("name_en", "English name").replace("item_icons", "Item icons")
    text = "\r\n".join([titled, *MH_ROWS]) + "\r\n"

    assert sheet_check(text, game_slug="monster-hunter").problems == []


def test_a_names_sheet_titled_in_japanese_reads(mh: Game) -> None:
    from tests.catalog.factories import CardFactory, PrintingFactory

    card = CardFactory(game=mh, code="T-001", card_type="hunter", name_en="Test Hunter")
    PrintingFactory(card=card, card_set=mh.sets.get(code="t1"), collector_number="001")
    rows = [
        ["カードコード", "カード番号", "英語名", "日本語名"],
        ["T-001", "001", "Test Hunter", "試験狩人"],
    ]

    result = names_sheet_check(decode(spreadsheet_bytes(rows)), game_slug="monster-hunter")

    assert result.problems == []
    assert [(c.code, c.field, c.after) for c in result.changes] == [
        ("T-001", "name_ja", "試験狩人")
    ]


# --- the sheet page --------------------------------------------------------------------------
def upload(raw: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile("シート.csv", raw, content_type="text/csv")


def test_the_page_proposes_a_japanese_titled_sheet_as_an_english_one(
    game: Game, owner_client: Client
) -> None:
    owner_client.cookies["django_language"] = "ja"
    raw = spreadsheet_bytes(lines(MH_JAPANESE, MH_ROWS))

    preview = owner_client.post(SHEET_URL, {"step": "check", "file": upload(raw), **SOURCE})
    body = preview.content.decode()
    assert 'id="sheet-confirm"' in body, body[-3000:]
    text = re.search(r'<textarea name="text"[^>]*>\n(.*?)</textarea>', body, re.S)
    assert text is not None
    confirmed = owner_client.post(SHEET_URL, {"step": "confirm", "text": text.group(1), **SOURCE})

    assert confirmed.status_code == 302
    proposal = Proposal.objects.get()
    assert [card["code"] for card in proposal.payload["cards"]] == ["T-002", "T-003"]
    assert proposal.payload["cards"][0]["attributes"]["item_icons"] == ["meat", "ball"]


def test_the_page_names_a_problems_column_by_the_sheets_title(
    game: Game, owner_client: Client
) -> None:
    owner_client.cookies["django_language"] = "ja"
    raw = spreadsheet_bytes(lines(MH_JAPANESE, MH_BAD_ROWS))

    body = owner_client.post(SHEET_URL, {"step": "check", "file": upload(raw), **SOURCE}).content
    html = body.decode()

    row = re.search(r'<tr data-line="4" data-column="attack">(.*?)</tr>', html, re.S)
    assert row is not None, html[-3000:]
    assert "攻撃力" in row.group(1) and "(attack)" in row.group(1)
    assert not Proposal.objects.exists()
