"""The names sheet: a set's cards with their names, to add the name in the other language."""

from __future__ import annotations

import pytest

from catalog.importers.service import import_bundles
from catalog.models import Card
from contributions.names_sheet import (
    NAMES_CODE_TWICE,
    NAMES_NOTHING,
    NAMES_TAKEN,
    NAMES_UNKNOWN_CARD,
)
from contributions.sheet import NameChange, names_sheet_check, names_sheet_template
from contributions.sheet_reading import BOM, SheetProblem
from tests.catalog.factories import CardFactory, CardSetFactory, GameFactory, PrintingFactory

pytestmark = pytest.mark.django_db

MH = "monster-hunter"


@pytest.fixture
def mh_set() -> None:
    """Set MH1: Rathalos (named in both languages), Rathian and Great Jaggi (English only)."""
    game = GameFactory(slug=MH)
    card_set = CardSetFactory(game=game, code="MH1")
    for number, code, en, ja in (
        ("002", "mh1-rathian", "Rathian", ""),
        ("001", "mh1-rathalos", "Rathalos", "リオレウス"),
        ("003", "mh1-jaggi", "Great Jaggi", ""),
    ):
        card = CardFactory(game=game, code=code, card_type="monster", name_en=en, name_ja=ja)
        PrintingFactory(card=card, card_set=card_set, collector_number=number)


def names(*rows: str) -> str:
    return "\r\n".join(["code,number,name_en,name_ja", *rows]) + "\r\n"


def test_the_template_lists_the_sets_cards_in_printed_order(mh_set: None) -> None:
    text = names_sheet_template(MH, "MH1")

    assert text == BOM + names(
        "mh1-rathalos,001,Rathalos,リオレウス",
        "mh1-rathian,002,Rathian,",
        "mh1-jaggi,003,Great Jaggi,",
    )


def test_the_template_of_an_unknown_set_is_a_lookup_error(mh_set: None) -> None:
    with pytest.raises(LookupError):
        names_sheet_template(MH, "MH9")


def test_the_filled_template_changes_only_the_names_it_adds(mh_set: None) -> None:
    rathian = Card.objects.get(code="mh1-rathian")
    text = names_sheet_template(MH, "MH1").replace("Rathian,\r\n", "Rathian,リオレイア\r\n")

    result = names_sheet_check(text, game_slug=MH)

    assert result.problems == []
    assert result.changes == [NameChange("mh1-rathian", "name_ja", "", "リオレイア")]
    assert result.bundle is not None
    (card,) = result.bundle.cards
    assert (card.code, card.name_en, card.name_ja) == ("mh1-rathian", "Rathian", "リオレイア")
    assert (card.card_type, card.attributes) == (rathian.card_type, rathian.attributes)
    import_bundles([result.bundle])
    rathian.refresh_from_db()
    assert rathian.name_ja == "リオレイア"
    assert rathian.printings.count() == 1


def test_an_empty_cell_never_clears_a_name(mh_set: None) -> None:
    result = names_sheet_check(names("mh1-rathalos,,,"), game_slug=MH)

    assert result.changes == []
    assert result.problems == [SheetProblem(0, "", str(NAMES_NOTHING))]


def test_a_three_column_sheet_without_number_is_read(mh_set: None) -> None:
    text = "code,name_ja\nmh1-jaggi,ドスジャギィ\n"

    result = names_sheet_check(text, game_slug=MH)

    assert result.changes == [NameChange("mh1-jaggi", "name_ja", "", "ドスジャギィ")]


def test_an_unknown_code_is_reported_with_the_codes_it_may_mean(mh_set: None) -> None:
    result = names_sheet_check(names("mh1-rathain,,,リオレイア"), game_slug=MH)

    assert result.bundle is None
    (problem,) = result.problems
    assert (problem.line, problem.column) == (2, "code")
    assert problem.reason == str(NAMES_UNKNOWN_CARD) % {"game": MH, "code": "mh1-rathain"}
    assert problem.did_you_mean[0] == "mh1-rathian"


def test_a_name_another_card_has_is_refused(mh_set: None) -> None:
    result = names_sheet_check(names("mh1-rathian,,,ﾘｵﾚｳｽ"), game_slug=MH)

    assert result.problems == [
        SheetProblem(2, "name_ja", str(NAMES_TAKEN) % {"name": "ﾘｵﾚｳｽ", "code": "mh1-rathalos"})
    ]


def test_the_same_new_name_for_two_cards_is_refused(mh_set: None) -> None:
    result = names_sheet_check(
        names("mh1-rathian,,,リオレイア", "mh1-jaggi,,,リオレイア"), game_slug=MH
    )

    assert [(p.line, p.column) for p in result.problems] == [(3, "name_ja")]


def test_a_card_twice_is_refused(mh_set: None) -> None:
    result = names_sheet_check(
        names("mh1-rathian,,,リオレイア", "mh1-rathian,,,雌火竜"), game_slug=MH
    )

    assert result.problems == [
        SheetProblem(3, "code", str(NAMES_CODE_TWICE) % {"code": "mh1-rathian", "line": 2})
    ]


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ("", 1, ""),
        ("name_en,name_ja\nRathian,リオレイア\n", 1, "code"),
        ("code,number\nmh1-rathian,002\n", 1, ""),
        ("code,name_ja,nmae_en\nmh1-rathian,リオレイア,\n", 1, "nmae_en"),
        (names("mh1-rathian,002,Rathian"), 2, ""),
        (names("mh1-rathian,002,Rathian,リオ\x00レイア"), 2, "name_ja"),
        (names("mh1-rathian,002,Rathian," + "リ" * 201), 2, "name_ja"),
    ],
    ids=[
        "empty",
        "no code column",
        "no name column",
        "misspelt column",
        "short row",
        "NUL",
        "name too long",
    ],
)
def test_a_bad_names_sheet_is_reported_at_its_line_and_column(
    mh_set: None, text: str, line: int, column: str
) -> None:
    result = names_sheet_check(text, game_slug=MH)

    assert result.bundle is None
    assert (result.problems[0].line, result.problems[0].column) == (line, column), result.problems
