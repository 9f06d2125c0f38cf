"""Collection CSV: every dialect read from sample files with the quirks players' files have,
all-or-nothing imports, undo, export -> import identity and loss warnings."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

import pytest

from collection import errors
from collection.imports import (
    collection_export,
    collection_import_commit_batch,
    collection_import_preview,
)
from collection.interchange.dialects import BY_CODE
from collection.interchange.read import decode, read_collection_csv
from collection.models import CollectionChange, CollectionItem, ImportBatch
from collection.services import collection_import_undo, collection_item_set_quantity
from tests.collection.conftest import Shelf, add

DECKBOX = (
    "Count,Tradelist Count,Name,Edition,Edition Code,Card Number,Condition,Language,Foil,"
    "Signed,Artist Proof,Altered Art,Misprint,Promo,Textless,My Price\r\n"
    '2,1,"Stone, Wall",First Strike,MT1,002,Good (Lightly Played),Japanese,foil,,,,,,,\r\n'
    "\r\n"
    "1,0,Flame Fox  ,First Strike,MT1,001,Near Mint,English,,,,,,,,$1.50\r\n"
    '2,1,"Stone, Wall",First Strike,MT1,002,Good (Lightly Played),Japanese,foil,,,,,,,\r\n'
)
MOXFIELD = (
    "\ufeffCount,Tradelist Count,Name,Edition,Condition,Language,Foil,Tags,Last Modified,"
    "Collector Number,Alter,Proxy,Purchase Price\n"
    "3,0,炎の狐,mt1,NM,Japanese,,red;fox,2025-01-01 10:00:00,001,False,False,\n"
    "1,0,Tide Caller,MT1,Heavily Played,English,foil,,2025-01-01 10:00:00,3,False,False,2.00\n"
)
MANABOX = (
    "Binder Name,Binder Type,Name,Set code,Set name,Collector number,Foil,Rarity,Quantity,"
    "ManaBox ID,Scryfall ID,Purchase price,Misprint,Altered,Condition,Language,"
    "Purchase price currency\r"
    "Red box,binder,Flame Fox,,再起,050,normal,common,２,1,x,120,false,false,light_played,ja,"
    "JPY\r"
    "Red box,binder,潮呼び,MT1,First Strike,003,foil,common,１０,2,y,,false,false,mint,en,\r"
)
DRAGON_SHIELD = (
    "sep=,\n"
    "Folder Name,Quantity,Trade Quantity,Card Name,Set Code,Set Name,Card Number,Condition,"
    "Printing,Language,Price Bought,Date Bought,LOW,MID,MARKET\n"
    'Deck box,4,2,"Stone, Wall",MT1,First Strike,2,NearMint,Foil,Japanese,0.50,2024/03/09,'
    ",,\n"
    "Deck box,1,0,Tide Caller,MT1,First Strike,003,Excellent,Normal,English,,,,,\n"
)

Row = tuple[str, str, int, int, str, str, str, str]


def _items(owner: Any) -> set[Row]:
    return {
        (
            i.printing.card_set.code,
            i.printing.collector_number,
            i.quantity,
            i.trade_quantity,
            i.condition,
            i.finish,
            i.language,
            i.binder,
        )
        for i in CollectionItem.objects.filter(owner=owner).select_related("printing__card_set")
    }


def _import(owner: Any, shelf: Shelf, text: str) -> None:
    preview = collection_import_preview(owner=owner, content=text, game=shelf.game)
    assert [str(p) for p in preview.result.problems] == []
    assert preview.batch is not None
    collection_import_commit_batch(batch=preview.batch)


@pytest.mark.parametrize(
    ("text", "dialect", "expected"),
    [
        (
            DECKBOX,
            "deckbox",
            {
                ("MT1", "002", 4, 2, "lightly_played", "foil", "ja", ""),  # two rows merged
                ("MT1", "001", 1, 0, "near_mint", "normal", "en", ""),
            },
        ),
        (
            MOXFIELD,
            "moxfield",
            {
                ("MT1", "001", 3, 0, "near_mint", "normal", "ja", ""),
                ("MT1", "003", 1, 0, "poor", "foil", "en", ""),
            },
        ),
        (
            MANABOX,
            "manabox",
            {
                ("MT2", "050", 2, 0, "lightly_played", "normal", "ja", "Red box"),
                ("MT1", "003", 10, 0, "mint", "foil", "en", "Red box"),
            },
        ),
        (
            DRAGON_SHIELD,
            "dragonshield",
            {
                ("MT1", "002", 4, 2, "near_mint", "foil", "ja", "Deck box"),
                ("MT1", "003", 1, 0, "excellent", "normal", "en", "Deck box"),
            },
        ),
    ],
)
def test_each_dialect_is_recognised_and_read(
    owner: Any, shelf: Shelf, text: str, dialect: str, expected: set[Row]
) -> None:
    result = read_collection_csv(text, game=shelf.game)
    assert result.dialect is not None and result.dialect.code == dialect
    _import(owner, shelf, text)
    assert _items(owner) == expected


def test_a_file_as_bytes_may_be_shift_jis_or_utf8_with_a_bom() -> None:
    assert decode("名前".encode("cp932")) == "名前"
    assert decode("\ufeff名前".encode()) == "名前"


def test_the_extra_fields_of_a_dialect_are_kept(owner: Any, shelf: Shelf) -> None:
    _import(owner, shelf, MANABOX)
    fox = CollectionItem.objects.get(owner=owner, printing=shelf.reprint)
    assert (fox.price, fox.currency) == (Decimal("120.00"), "JPY")
    _import(owner, shelf, MOXFIELD)
    mox = CollectionItem.objects.get(owner=owner, printing=shelf.base_printings[0])
    assert mox.tags == ["red", "fox"]


def test_bad_rows_are_all_reported_and_nothing_is_written(owner: Any, shelf: Shelf) -> None:
    text = (
        "Count,Tradelist Count,Name,Edition,Edition Code,Card Number,Condition,Language,Foil\n"
        "1,0,Flame Fox,First Strike,MT1,001,Near Mint,English,\n"
        "x,0,Flame Fax,First Strike,MT1,001,Near Mint,English,\n"
        "1,0,Tide Caller,,MT9,003,Near Mint,Klingon,\n"
        "1,0,Tide Caller,First Strike,MT1,003,Shiny,English,\n"
    )
    preview = collection_import_preview(owner=owner, content=text, game=shelf.game)
    problems = [(p.line, p.column, p.message) for p in preview.result.problems]
    assert [(line, column) for line, column, _m in problems] == [
        (3, "Name"),
        (3, "Count"),
        (4, "Edition Code"),
        (4, "Language"),
        (5, "Condition"),
    ]
    assert "Did you mean 'Flame Fox'?" in problems[0][2]
    assert problems[2][2] == "Mattsan Card Game has no set “MT9”. Did you mean 'MT2', 'MT1'?"
    assert preview.batch is None
    assert not CollectionItem.objects.exists()
    assert not ImportBatch.objects.exists()


def test_an_unknown_header_is_one_problem_on_its_line(shelf: Shelf) -> None:
    result = read_collection_csv("\n\nfoo,bar\n1,2\n", game=shelf.game)
    assert [(p.line, p.column) for p in result.problems] == [(3, "")]


@pytest.mark.parametrize(
    ("quantity", "ok"),
    [("0", False), ("1", True), ("9999", True), ("10000", False), ("-1", False), ("１", True)],
)
def test_quantity_bounds_in_a_file(shelf: Shelf, quantity: str, ok: bool) -> None:
    text = f"Count,Tradelist Count,Name,Edition Code\n{quantity},0,Flame Fox,MT1\n"
    result = read_collection_csv(text, game=shelf.game)
    assert [p.column for p in result.problems] == ([] if ok else ["Count"])


def test_the_preview_says_what_is_added_and_what_is_merged(owner: Any, shelf: Shelf) -> None:
    add(owner, shelf.base_printings[0], 1, language="en")
    preview = collection_import_preview(owner=owner, content=DECKBOX, game=shelf.game)
    assert (preview.new_items, preview.merged_items, preview.copies) == (1, 1, 5)
    assert preview.result.merged_rows == 1
    assert _items(owner) == {("MT1", "001", 1, 0, "near_mint", "normal", "en", "")}


def test_an_import_is_undone_in_one_action(owner: Any, shelf: Shelf) -> None:
    add(owner, shelf.base_printings[0], 1, language="en")
    _import(owner, shelf, DECKBOX)
    batch = ImportBatch.objects.get(owner=owner)
    collection_import_undo(batch=batch)
    assert _items(owner) == {("MT1", "001", 1, 0, "near_mint", "normal", "en", "")}
    assert list(
        CollectionChange.objects.filter(batch=batch, action="undo")
        .order_by("quantity_before")
        .values_list("quantity_before", "quantity_after")
    ) == [(2, 1), (4, 0)]
    with pytest.raises(errors.CollectionError):
        collection_import_undo(batch=batch)


def test_an_import_whose_copies_were_since_removed_is_not_undone(owner: Any, shelf: Shelf) -> None:
    _import(owner, shelf, DECKBOX)
    item = CollectionItem.objects.get(owner=owner, printing=shelf.base_printings[1])
    collection_item_set_quantity(item=item, quantity=1)
    with pytest.raises(errors.CollectionError) as refused:
        collection_import_undo(batch=ImportBatch.objects.get(owner=owner))
    assert refused.value.field == "batch"
    assert CollectionItem.objects.get(pk=item.pk).quantity == 1


def test_export_then_import_gives_back_the_same_collection(
    owner: Any, friend: Any, shelf: Shelf
) -> None:
    add(
        owner,
        shelf.base_printings[0],
        3,
        trade_quantity=1,
        condition="excellent",
        finish="foil",
        language="en",
        binder='Box "A", top',
        tags=("x", "y"),
        acquired_on=date(2024, 2, 29),
        price=Decimal("1200.50"),
        currency="JPY",
        note="from a friend,\nsigned",
    )
    add(owner, shelf.reprint, 1)
    add(owner, shelf.base_printings[2], 2, binder="日本語のバインダー")
    exported = collection_export(owner=owner, dialect=BY_CODE["decklab"])
    assert exported.warnings == []
    preview = collection_import_preview(owner=friend, content=exported.content, game=None)
    assert preview.batch is not None
    collection_import_commit_batch(batch=preview.batch)
    fields = (
        "printing_id",
        "quantity",
        "trade_quantity",
        "condition",
        "finish",
        "language",
        "binder",
        "tags",
        "acquired_on",
        "price",
        "currency",
        "note",
    )
    mine = sorted(CollectionItem.objects.filter(owner=owner).values_list(*fields))
    theirs = sorted(CollectionItem.objects.filter(owner=friend).values_list(*fields))
    assert theirs == mine


def test_an_export_says_what_its_format_cannot_carry(owner: Any, shelf: Shelf) -> None:
    add(owner, shelf.base_printings[0], 1, binder="Red", note="n", condition="excellent")
    add(owner, shelf.base_printings[1], 1, binder="Red")
    warnings = collection_export(owner=owner, dialect=BY_CODE["deckbox"]).warnings
    assert warnings == [
        "Deckbox has no column for the binder: 2 items lose it.",
        "Deckbox has no column for the note: 1 items lose it.",
        "Deckbox has no word for “excellent”: 1 items are written as “Near Mint”.",
    ]
    assert collection_export(owner=owner, dialect=BY_CODE["manabox"]).warnings == [
        "ManaBox has no column for the note: 1 items lose it."
    ]


@pytest.mark.parametrize(
    "code", ["deckbox", "moxfield", "manabox", "dragonshield", "archidekt", "tcgplayer"]
)
def test_every_dialects_export_reads_back(owner: Any, friend: Any, shelf: Shelf, code: str) -> None:
    add(owner, shelf.base_printings[1], 2, condition="near_mint", finish="foil", language="ja")
    add(owner, shelf.reprint, 1, condition="poor", language="en")
    content = collection_export(owner=owner, dialect=BY_CODE[code]).content
    result = read_collection_csv(content, game=shelf.game)
    assert result.dialect is not None and result.dialect.code == code
    assert sorted(
        (s.printing_id, s.quantity, s.condition, s.finish, s.language) for s in result.specs
    ) == sorted(
        [
            (shelf.base_printings[1].pk, 2, "near_mint", "foil", "ja"),
            (shelf.reprint.pk, 1, "poor", "normal", "en"),
        ]
    )


def test_a_sep_line_names_another_separator(owner: Any, shelf: Shelf) -> None:
    text = (
        '"sep=;"\r\n'
        "Folder Name;Quantity;Trade Quantity;Card Name;Set Code;Set Name;Card Number;"
        "Condition;Printing;Language;Price Bought;Date Bought;LOW;MID;MARKET\r\n"
        "Box;1;0;Stone, Wall;MT1;;002;Poor;Normal;日本語;;;;;\r\n"
        "Box;x;0;Stone, Wall;MT1;;002;Poor;Normal;日本語;;;;;\r\n"
    )
    result = read_collection_csv(text, game=shelf.game)
    assert result.dialect is not None and result.dialect.code == "dragonshield"
    assert [(p.line, p.column) for p in result.problems] == [(4, "Quantity")]


def test_a_typed_list_is_read_line_by_line(owner: Any, shelf: Shelf) -> None:
    text = "# my cards\n2 Flame Fox (MT2) 050\n\n３ 石の壁\n1x Tide Caller (MT1)\n"
    result = read_collection_csv(text, game=shelf.game, dialect_code="list")
    assert [str(p) for p in result.problems] == []
    assert sorted((s.printing_id, s.quantity) for s in result.specs) == sorted(
        [
            (shelf.reprint.pk, 2),
            (shelf.base_printings[1].pk, 3),
            (shelf.base_printings[2].pk, 1),
        ]
    )


def test_a_typed_list_reports_each_bad_line(shelf: Shelf) -> None:
    text = "2 Flame Fox\nfoo\n\n1 Flame Fax (MT1)\n"
    result = read_collection_csv(text, game=shelf.game, dialect_code="list")
    assert [(p.line, p.column) for p in result.problems] == [(2, "")]
    result = read_collection_csv(
        "2 Flame Fox\n\n1 Flame Fax (MT1)\n", game=shelf.game, dialect_code="list"
    )
    assert [(p.line, p.column, p.message) for p in result.problems] == [
        (1, "Set", "Flame Fox has several printings: name the set in parentheses (MT1, MT2)."),
        (3, "Name", "Mattsan Card Game has no card named “Flame Fax”. Did you mean 'Flame Fox'?"),
    ]
