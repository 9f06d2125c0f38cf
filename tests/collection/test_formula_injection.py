"""CSV formula injection: no export writes a cell a spreadsheet would run as a formula
(OWASP: a cell beginning with =, +, -, @, a tab or a carriage return gets a leading single
quote), plain numbers stay numbers, and the readers take the quote off again so that an
export read back is the same collection."""

from __future__ import annotations

import csv
import io
from datetime import date
from decimal import Decimal
from typing import Any

import pytest

from collection.imports import (
    collection_export,
    collection_import_commit_batch,
    collection_import_preview,
)
from collection.interchange.dialects import DIALECTS
from collection.interchange.read import read_collection_csv
from collection.interchange.safety import TRIGGERS, protect, unprotect
from collection.interchange.write import export_wishlist
from collection.models import CollectionItem
from collection.selectors import wishlist
from collection.services import wishlist_add
from decks.imports.text import export_deck_text
from tests.catalog.factories import CardFactory, CardSetFactory, PrintingFactory
from tests.collection.conftest import Shelf, add, make_deck

EVIL = [
    '=HYPERLINK("https://example.invalid","x")',
    "+1+1",
    "-2+3",
    "@SUM(A1)",
    "\tcmd",
    "\r=1",
    "'=already quoted",
    "''@twice",
    "'plain quote",
]


@pytest.fixture
def evil_printing(shelf: Shelf) -> Any:
    card_set = CardSetFactory(game=shelf.game, code="EV1", name_en="=Evil Set", name_ja="@悪")
    card = CardFactory(game=shelf.game, code="MTC-EVL", name_en="=cmd|' /C calc'!A0", name_ja="-悪")
    return PrintingFactory(card=card, card_set=card_set, collector_number="-1")


def _cells(content: str) -> list[str]:
    rows = list(csv.reader(io.StringIO(content.removeprefix("sep=,\r\n"))))
    return [cell for row in rows for cell in row]


@pytest.mark.parametrize("value", EVIL)
def test_protect_and_unprotect_are_inverse_and_leave_nothing_runnable(value: str) -> None:
    written = protect(value)
    assert not written.startswith(TRIGGERS)
    assert unprotect(written) == value
    assert protect("-3", numeric=True) == "-3" and protect("-3") == "'-3"


@pytest.mark.parametrize("dialect", DIALECTS, ids=lambda d: d.code)
def test_no_export_writes_a_cell_a_spreadsheet_would_run(
    owner: Any, shelf: Shelf, evil_printing: Any, dialect: Any
) -> None:
    for i, value in enumerate(EVIL):
        add(
            owner,
            evil_printing if i % 2 else shelf.base_printings[i % 3],
            1 + i,
            binder=value[:80] if i % 2 else f"b{i}",
            note=value,
            tags=(value[:40], f"t{i}"),
        )
    content = collection_export(owner=owner, dialect=dialect).content
    cells = _cells(content)
    assert cells, content
    assert [c for c in cells if c.startswith(TRIGGERS)] == []
    # what was protected reads back as what it was
    result = read_collection_csv(content, game=shelf.game)
    assert [str(p) for p in result.problems] == []
    assert result.dialect is dialect


def test_an_export_with_formula_like_cells_reads_back_as_the_same_collection(
    owner: Any, friend: Any, shelf: Shelf, evil_printing: Any
) -> None:
    # (a carriage return inside a cell is read as a line break, as every line end is)
    for i, value in enumerate(v for v in EVIL if "\r" not in v):
        add(
            owner,
            evil_printing,
            1 + i,
            binder=value,
            note=value,
            # a tag is kept without surrounding spaces (as the forms keep it)
            tags=(value[:40].strip(), "plain"),
            price=Decimal("3.50"),
            currency="JPY",
            acquired_on=date(2024, 1, 2),
        )
    exported = collection_export(owner=owner, dialect=DIALECTS[0])
    assert [c for c in _cells(exported.content) if c.startswith(TRIGGERS)] == []
    preview = collection_import_preview(owner=friend, content=exported.content, game=None)
    assert [str(p) for p in preview.result.problems] == []
    assert preview.batch is not None
    collection_import_commit_batch(batch=preview.batch)
    fields = ("printing_id", "quantity", "binder", "note", "tags", "price", "currency")
    mine = sorted(CollectionItem.objects.filter(owner=owner).values_list(*fields))
    theirs = sorted(CollectionItem.objects.filter(owner=friend).values_list(*fields))
    assert theirs == mine


def test_the_wishlist_export_is_protected_too(owner: Any, evil_printing: Any) -> None:
    wishlist_add(owner=owner, card=evil_printing.card, printing=evil_printing, quantity=2)
    content = export_wishlist(wishlist(owner=owner))
    assert [c for c in _cells(content) if c.startswith(TRIGGERS)] == []
    assert "'=cmd|' /C calc'!A0" in content and ",2\r\n" in content


def test_a_deck_list_export_never_begins_a_line_with_a_formula(
    owner: Any, shelf: Shelf, evil_printing: Any
) -> None:
    deck = make_deck(owner, shelf.game, [(evil_printing.card, 2), (shelf.cards[0], 1)], "=cmd")
    lines = export_deck_text(deck).splitlines()
    assert lines and [line for line in lines if line.startswith(TRIGGERS)] == []
    # every cell a spreadsheet would split the list into, too
    assert [c for c in _cells(export_deck_text(deck)) if c.startswith(TRIGGERS)] == []
