"""The card sheet: its template per game, and every bad sheet reported at its line and column."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

import pytest
from django.test import override_settings
from django.utils import translation

from catalog.importers.csv_cards import EMPTY_FILE, MAX_ROWS, TOO_MANY_ROWS
from catalog.importers.service import import_bundles
from catalog.spec import all_games, get_game
from contributions.sheet import (
    CODE_EXISTS,
    NAME_CLOSE,
    NAME_CLOSE_IN_SET,
    NAME_IN_SET,
    NAME_REPEATED,
    sheet_check,
    sheet_columns,
    sheet_template,
)
from contributions.sheet_reading import (
    BOM,
    CONTROL_CHARACTER,
    SHEET_NOT_READY,
    SHEET_READY,
    TOO_LARGE,
    SheetProblem,
)
from tests.catalog.factories import CardFactory, CardSetFactory, GameFactory, PrintingFactory

pytestmark = pytest.mark.django_db

MH = "monster-hunter"
HEADER = "code,type,name_en,name_ja,set,number,attack,movement,reach,weapon_icon,item_icons,cost"


@pytest.fixture
def mh_set() -> None:
    """Monster Hunter's set MH1 with one card, Rathalos (リオレウス), numbered 001."""
    game = GameFactory(slug=MH)
    card_set = CardSetFactory(game=game, code="MH1")
    rathalos = CardFactory(
        game=game,
        code="mh1-rathalos",
        card_type="monster",
        name_en="Rathalos",
        name_ja="リオレウス",
    )
    PrintingFactory(card=rathalos, card_set=card_set, collector_number="001")


def weapon(code: str, name: str = "", **cells: str) -> str:
    """One weapon row under HEADER; ``cells`` override its columns."""
    row = {
        "code": code,
        "type": "weapon",
        "name_en": name or f"Blade {code}",
        "name_ja": "",
        "set": "MH1",
        "number": "010",
        "attack": "3",
        "movement": "1",
        "reach": "1",
        "weapon_icon": "great-sword",
        "item_icons": "meat",
        "cost": "2",
        **cells,
    }
    return ",".join(row[column] for column in HEADER.split(","))


def sheet(*rows: str, header: str = HEADER) -> str:
    return "\n".join([header, *rows]) + "\n"


def where(problems: list[SheetProblem]) -> list[tuple[int, str]]:
    return [(p.line, p.column) for p in problems]


@dataclass(frozen=True)
class Bad:
    name: str
    text: str
    line: int
    column: str
    did_you_mean: tuple[str, ...] = ()
    reason_has: str = ""


BAD_SHEETS = [
    Bad("unknown set", sheet(weapon("a1", set="MH2")), 2, "set", ("MH1",), "MH2"),
    Bad("number past its bound", sheet(weapon("a1", attack="100")), 2, "attack"),
    Bad("number below its bound", sheet(weapon("a1", cost="-1")), 2, "cost"),
    Bad("not a number", sheet(weapon("a1", reach="far")), 2, "reach"),
    Bad(
        "bad choice with a close code",
        sheet(weapon("a1", weapon_icon="great-swrd")),
        2,
        "weapon_icon",
        ("great-sword",),
    ),
    Bad(
        "bad choice given by its label",
        sheet(weapon("a1", weapon_icon="Long Sword")),
        2,
        "weapon_icon",
        ("long-sword",),
    ),
    Bad(
        "bad value in a list of choices",
        sheet(weapon("a1", item_icons="meat|bal")),
        2,
        "item_icons",
        ("ball",),
    ),
    Bad("unknown card type", sheet(weapon("a1", type="weapn")), 2, "type", ("weapon",)),
    Bad("bad code", sheet(weapon("a 1")), 2, "code"),
    Bad(
        "one code for two different cards",
        sheet(weapon("a1", "Blade One"), weapon("a1", "Blade Two", number="011")),
        3,
        "name_en",
    ),
    Bad(
        "the same printing twice",
        sheet(weapon("a1"), weapon("a1")),
        3,
        "number",
    ),
    Bad(
        "the same name twice in the sheet",
        sheet(weapon("a1", "Iron Blade"), weapon("a2", "iron  blade", number="011")),
        3,
        "name_en",
        (),
        "line 2",
    ),
    Bad(
        "a very close name in the sheet",
        sheet(weapon("a1", "Wyvern Cleaver"), weapon("a2", "Wyvern Claver", number="011")),
        3,
        "name_en",
        (),
        "a1",
    ),
    Bad(
        "a name already in the set",
        sheet(weapon("a1", "RATHALOS")),
        2,
        "name_en",
        (),
        "mh1-rathalos",
    ),
    Bad(
        "a Japanese name already in the set, in katakana's other width",
        sheet(weapon("a1", name_ja="ﾘｵﾚｳｽ")),
        2,
        "name_ja",
        (),
        "mh1-rathalos",
    ),
    Bad(
        "a code already in the catalog",
        sheet(weapon("mh1-rathalos", "New Blade")),
        2,
        "code",
        (),
        "mh1-rathalos",
    ),
    Bad(
        "missing required column",
        sheet("a1,Blade,MH1", header="code,name_en,set"),
        1,
        "type",
    ),
    Bad("misspelt column", sheet(weapon("a1"), header=HEADER.replace("reach", "rech")), 1, "rech"),
    Bad(
        "printing column without its prefix",
        sheet("a1,weapon,Blade,10", header="code,type,name_en,boost"),
        1,
        "boost",
    ),
    Bad("empty file", "", 1, "", (), str(EMPTY_FILE)),
    Bad("only a BOM and blank lines", BOM + "\r\n\r\n", 1, "", (), str(EMPTY_FILE)),
    Bad("header without rows", sheet(), 1, ""),
    Bad("a row too short", sheet("a1,weapon,Blade"), 2, ""),
    Bad("no name", sheet(weapon("a1", name_en=" ")), 2, "name_en"),
    Bad("a name too long", sheet(weapon("a1", "x" * 201)), 2, "name_en"),
    Bad(
        "another game's rows",
        sheet("a1,weapon,Blade,mattsn", header="code,type,name_en,game"),
        2,
        "game",
        ("mattsan",),
    ),
    Bad(
        # a column's label is read as its code ("コード" is ``code``), a word that is no
        # column's label is not: "種類" is not "カードの種類" (test_sheet_japanese_headers.py)
        "Japanese headers that are no column's label",
        sheet("a1,武器,剣", header="コード,種類,名前"),
        1,
        "type",
    ),
    Bad("a NUL in a cell", sheet(weapon("a1", "Bla\x00de")), 2, "name_en", (), ""),
    Bad("an unclosed quote", sheet('a1,weapon,"Blade'), 2, ""),
]


@pytest.mark.parametrize("bad", BAD_SHEETS, ids=[bad.name for bad in BAD_SHEETS])
def test_a_bad_sheet_is_reported_at_its_line_and_column(mh_set: None, bad: Bad) -> None:
    result = sheet_check(bad.text, game_slug=MH)

    assert result.bundle is None
    assert not result.is_clean
    assert result.status == str(SHEET_NOT_READY)
    placed = [p for p in result.problems if (p.line, p.column) == (bad.line, bad.column)]
    assert placed, result.problems
    assert placed[0].did_you_mean[: len(bad.did_you_mean)] == bad.did_you_mean
    assert bad.reason_has in placed[0].reason


def test_a_clean_sheet_gives_the_bundle_the_importer_writes(mh_set: None) -> None:
    text = sheet(
        weapon("a1", "Iron Blade", name_ja="鉄の剣"), weapon("a1", number="010-P", name_en="")
    )

    result = sheet_check(text, game_slug=MH)

    assert result.problems == []
    assert result.is_clean
    assert result.status == str(SHEET_READY)
    assert result.bundle is not None
    card = result.bundle.cards[0]
    assert (card.code, card.name_ja, len(card.printings)) == ("a1", "鉄の剣", 2)
    assert card.attributes["attack"] == 3  # cleaned by the validator, as it is written
    report = import_bundles([result.bundle])
    assert (report.created["cards"], report.created["printings"]) == (1, 2)


def test_a_sheet_saved_by_excel_with_a_bom_and_crlf_checks_clean(mh_set: None) -> None:
    text = BOM + sheet(weapon("a1", "Iron Blade")).replace("\n", "\r\n")

    assert sheet_check(text, game_slug=MH).problems == []


def test_a_quoted_line_break_keeps_the_following_lines_numbered_as_in_the_file(
    mh_set: None,
) -> None:
    text = sheet(weapon("a1", '"Iron\nBlade"'), weapon("a2", number="011", attack="100"))

    result = sheet_check(text, game_slug=MH)

    assert where(result.problems) == [(4, "attack")]


def test_every_problem_is_listed_not_only_the_first(mh_set: None) -> None:
    text = sheet(
        weapon("a1", set="MH9"), weapon("a2", number="011", attack="x"), weapon("a3", cost="")
    )

    result = sheet_check(text, game_slug=MH)

    assert where(result.problems) == [(2, "set"), (3, "attack"), (4, "cost")]


def test_a_problem_is_placed_in_japanese_too(mh_set: None) -> None:
    with translation.override("ja"):
        result = sheet_check(sheet(weapon("a1", set="MH2")), game_slug=MH)

    assert where(result.problems) == [(2, "set")]
    assert result.problems[0].did_you_mean == ("MH1",)
    assert "MH2" in result.problems[0].reason
    assert "Did you mean" not in result.problems[0].reason


def test_a_choice_given_by_half_its_label_is_meant() -> None:
    GameFactory(slug="ouka-fushin")
    text = sheet_template("ouka-fushin").replace(",goton,", ",五遁,", 1)

    result = sheet_check(text, game_slug="ouka-fushin")

    assert [(p.column, p.did_you_mean) for p in result.problems] == [("school", ("goton",))]


def test_the_validators_hint_becomes_the_did_you_mean_and_leaves_the_reason(mh_set: None) -> None:
    result = sheet_check(sheet(weapon("a1", type="weapn")), game_slug=MH)

    assert result.problems[0].did_you_mean == ("weapon",)
    assert "Did you mean" not in result.problems[0].reason


def test_a_numbered_sibling_is_not_a_near_duplicate(mh_set: None) -> None:
    text = sheet(
        weapon("a1", "Bone Blade II"),
        weapon("a2", "Bone Blade III", number="011"),
        weapon("a3", "Bone Blade 2", number="012"),
        weapon("a4", "Bone Blade 3", number="013"),
    )

    assert sheet_check(text, game_slug=MH).problems == []


def test_a_name_of_another_set_is_no_collision(mh_set: None) -> None:
    CardSetFactory(game=GameFactory(slug=MH), code="MH2")

    assert sheet_check(sheet(weapon("a1", "Rathalos", set="MH2")), game_slug=MH).problems == []


def test_near_duplicate_messages_name_the_line_and_the_card(mh_set: None) -> None:
    twice = sheet(weapon("a1", "Iron Blade"), weapon("a2", "Iron Blade", number="011"))
    close = sheet(weapon("a1", "Wyvern Cleaver"), weapon("a2", "Wyvern Claver", number="011"))
    in_set = sheet(weapon("a1", "Rathalos"))
    close_in_set = sheet(weapon("a1", "Rathaloss"))

    assert sheet_check(twice, game_slug=MH).problems[0].reason == str(NAME_REPEATED) % {
        "name": "Iron Blade",
        "line": 2,
        "code": "a1",
    }
    assert sheet_check(close, game_slug=MH).problems[0].reason == str(NAME_CLOSE) % {
        "name": "Wyvern Claver",
        "other": "Wyvern Cleaver",
        "line": 2,
        "code": "a1",
    }
    assert sheet_check(in_set, game_slug=MH).problems[0].reason == str(NAME_IN_SET) % {
        "set": "MH1",
        "other": "Rathalos",
        "code": "mh1-rathalos",
    }
    assert sheet_check(close_in_set, game_slug=MH).problems[0].reason == str(NAME_CLOSE_IN_SET) % {
        "name": "Rathaloss",
        "other": "Rathalos",
        "set": "MH1",
        "code": "mh1-rathalos",
    }


def test_an_existing_code_is_refused_with_its_name(mh_set: None) -> None:
    result = sheet_check(sheet(weapon("mh1-rathalos", "Other")), game_slug=MH)

    assert result.problems[0].reason == str(CODE_EXISTS) % {
        "code": "mh1-rathalos",
        "name": "Rathalos",
    }


def test_a_control_character_is_named_in_its_cell(mh_set: None) -> None:
    result = sheet_check(sheet(weapon("a1", "Blade\x07")), game_slug=MH)

    assert result.problems == [SheetProblem(2, "name_en", str(CONTROL_CHARACTER))]


@override_settings(CATALOG_UPLOAD_MAX_BYTES=1 << 20)
def test_a_sheet_over_the_upload_limit_is_refused_before_reading(mh_set: None) -> None:
    text = sheet(weapon("a1", "ブレード" * 100_000))  # 1.2 MB in UTF-8, 400 k characters

    result = sheet_check(text, game_slug=MH)

    assert result.problems == [SheetProblem(0, "", str(TOO_LARGE) % {"max": 1})]


def test_rows_past_the_importers_limit_are_refused(mh_set: None) -> None:
    rows = [weapon(f"a{i}", number=f"{i}") for i in range(MAX_ROWS + 1)]

    result = sheet_check(sheet(*rows), game_slug=MH)

    assert (MAX_ROWS + 2, "", str(TOO_MANY_ROWS)) in [
        (p.line, p.column, p.reason) for p in result.problems
    ]


def test_an_unknown_game_is_one_problem_of_the_whole_sheet() -> None:
    result = sheet_check(sheet(weapon("a1")), game_slug="monster-huntr")

    assert where(result.problems) == [(0, "")]


# --- the template ---------------------------------------------------------------------------
@pytest.mark.parametrize("slug", [spec.slug for spec in all_games()])
def test_every_games_template_checks_clean(slug: str) -> None:
    GameFactory(slug=slug)

    result = sheet_check(sheet_template(slug), game_slug=slug)

    assert result.problems == []
    assert result.bundle is not None
    assert len(result.bundle.cards) == len(get_game(slug).card_types)


@pytest.mark.parametrize("slug", [spec.slug for spec in all_games()])
def test_every_games_template_printed_in_a_set_checks_clean(slug: str) -> None:
    CardSetFactory(game=GameFactory(slug=slug), code="NEW1")

    result = sheet_check(sheet_template(slug, set_code="NEW1"), game_slug=slug)

    assert result.problems == []
    assert result.bundle is not None
    assert all(len(card.printings) == 1 for card in result.bundle.cards)


def test_the_template_has_every_declared_attribute_column() -> None:
    spec = get_game("unmatched")
    header = next(csv.reader(io.StringIO(sheet_template("unmatched").removeprefix(BOM))))

    assert header == sheet_columns(spec)
    for card_type in spec.card_types:
        assert set(card_type.schema.base_fields) <= set(header)
    assert {"printing.fighter", "printing.boost"} <= set(header)
    assert "variant" in sheet_columns(get_game("recharge"))


def test_the_template_opens_in_a_japanese_excel() -> None:
    text = sheet_template("ouka-fushin")

    # the BOM tells Excel the file is UTF-8 (else it reads Shift_JIS); CRLF ends each row
    assert text.startswith(BOM)
    assert text.count("\r\n") == len(get_game("ouka-fushin").card_types) + 1
    assert "記入例" in text


def test_a_template_with_its_example_codes_taken_is_refused() -> None:
    CardSetFactory(game=GameFactory(slug="mattsan"), code="NEW1")
    first = sheet_check(sheet_template("mattsan", set_code="NEW1"), game_slug="mattsan")
    assert first.bundle is not None
    import_bundles([first.bundle])

    again = sheet_check(sheet_template("mattsan", set_code="NEW1"), game_slug="mattsan")

    assert {p.column for p in again.problems} == {"code"}
