"""Collection files as players really have them: each tool's export header exactly as the tool
writes it today (fixtures in tests/collection/fixtures/), the whole header matched, typed
spreadsheets read by their column names, the mapping step (page and API, remembered per
header), one name key for every importer, and the format page."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from catalog.search import name_key
from collection.imports import collection_import_commit_batch, collection_import_preview
from collection.interchange import dialects
from collection.interchange.read import read_collection_csv
from collection.models import CollectionItem, ColumnMapping
from collection.vocab import Condition
from decks.imports import text as deck_text
from tests.catalog.factories import CardFactory, PrintingFactory
from tests.collection.conftest import Shelf

FIXTURES = Path(__file__).parent / "fixtures"
API = "/api/v1/collection"

Row = tuple[str, str, int, int, str, str, str]


def _fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


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
        )
        for i in CollectionItem.objects.filter(owner=owner).select_related("printing__card_set")
    }


EXPECTED: dict[str, tuple[str, set[Row]]] = {
    "deckbox-default.csv": (
        "deckbox",
        {
            ("MT1", "002", 2, 1, "lightly_played", "foil", "ja"),
            ("MT2", "050", 1, 0, "near_mint", "normal", "en"),
            ("MT1", "003", 3, 0, "poor", "normal", "en"),
            ("MT1", "003", 1, 0, "mint", "normal", "ja"),
        },
    ),
    "deckbox-all-columns.csv": (
        "deckbox",
        {
            ("MT1", "001", 1, 0, "played", "normal", "en"),
            ("MT1", "002", 4, 2, "poor", "foil", "ja"),
        },
    ),
    "moxfield.csv": (
        "moxfield",
        {
            ("MT1", "001", 3, 0, "near_mint", "normal", "ja"),
            ("MT1", "003", 1, 1, "poor", "foil", "en"),
            ("MT2", "050", 2, 0, "lightly_played", "normal", "en"),
        },
    ),
    "manabox-old.csv": (
        "manabox",
        {
            ("MT2", "050", 2, 0, "lightly_played", "normal", "ja"),
            ("MT1", "003", 1, 0, "excellent", "foil", "en"),
        },
    ),
    "manabox-new.csv": (
        "manabox",
        {
            ("MT1", "002", 3, 0, "near_mint", "foil", "en"),
            ("MT1", "003", 1, 0, "poor", "normal", "ja"),
        },
    ),
    "dragonshield.csv": (
        "dragonshield",
        {
            ("MT1", "002", 4, 2, "near_mint", "foil", "ja"),
            ("MT1", "003", 1, 0, "lightly_played", "normal", "en"),
        },
    ),
    "dragonshield-app.csv": ("dragonshield", {("MT2", "050", 2, 0, "good", "foil", "en")}),
    "archidekt.csv": (
        "archidekt",
        {
            ("MT2", "050", 2, 0, "near_mint", "normal", "ja"),
            ("MT1", "002", 1, 0, "lightly_played", "foil", "en"),
        },
    ),
    "tcgplayer.csv": (
        "tcgplayer",
        {
            ("MT1", "001", 1, 0, "near_mint", "normal", "en"),
            ("MT1", "002", 2, 0, "played", "foil", "ja"),
        },
    ),
    "typed-quantity-name-set.csv": (
        "generic",
        {
            ("MT1", "003", 2, 0, "near_mint", "normal", "ja"),
            ("MT2", "050", 1, 0, "near_mint", "normal", "ja"),
        },
    ),
    "typed-qty-card-setcode.csv": (
        "generic",
        {
            ("MT1", "003", 2, 0, "near_mint", "normal", "ja"),
            ("MT2", "050", 1, 0, "near_mint", "normal", "ja"),
        },
    ),
    "typed-count-cardname-edition.csv": (
        "generic",
        {
            ("MT1", "003", 2, 0, "near_mint", "normal", "ja"),
            ("MT2", "050", 1, 0, "near_mint", "normal", "ja"),
        },
    ),
    "typed-japanese.csv": (
        "generic",
        {
            ("MT1", "003", 2, 0, "near_mint", "normal", "ja"),
            ("MT2", "050", 1, 0, "near_mint", "normal", "ja"),
            ("MT1", "002", 3, 0, "near_mint", "normal", "ja"),  # one printing: no set needed
        },
    ),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_tools_real_export_is_recognised_and_read(owner: Any, shelf: Shelf, name: str) -> None:
    dialect, expected = EXPECTED[name]
    text = _fixture(name)
    result = read_collection_csv(text, game=shelf.game)
    assert [str(p) for p in result.problems] == []
    assert result.dialect is not None and result.dialect.code == dialect
    preview = collection_import_preview(owner=owner, content=text, game=shelf.game)
    assert preview.batch is not None
    collection_import_commit_batch(batch=preview.batch)
    assert _items(owner) == expected


@pytest.mark.parametrize(
    ("name", "dialect"),
    [
        ("deckbox-default.csv", dialects.DECKBOX),
        ("moxfield.csv", dialects.MOXFIELD),
        ("manabox-old.csv", dialects.MANABOX),
        ("dragonshield.csv", dialects.DRAGON_SHIELD),
        ("archidekt.csv", dialects.ARCHIDEKT),
        ("tcgplayer.csv", dialects.TCGPLAYER),
    ],
)
def test_our_exports_write_each_tools_header_exactly(name: str, dialect: Any) -> None:
    lines = [line for line in _fixture(name).splitlines() if not line.startswith('"sep=')]
    written = ",".join(f'"{c}"' for c in dialect.header) if name == "moxfield.csv" else None
    assert lines[0] == (written or ",".join(dialect.header))


def test_a_deckbox_export_with_tags_is_deckboxs_not_moxfields(shelf: Shelf) -> None:
    header = _fixture("deckbox-default.csv").splitlines()[0].split(",")
    assert "Tags" in header
    assert dialects.detect(header) is dialects.DECKBOX
    result = read_collection_csv(_fixture("deckbox-default.csv"), game=shelf.game)
    tagged = [s for s in result.specs if s.price == Decimal("1.25")]
    assert [s.tags for s in tagged] == [("red", "fox")]


def test_a_header_two_formats_fit_equally_and_read_differently_is_asked(shelf: Shelf) -> None:
    text = "Quantity,Name,Simple Name,Edition Code\n1,Flame Fox,Flame Fox,MT1\n"
    result = read_collection_csv(text, game=shelf.game)
    assert result.specs == []
    assert {d.code for d in result.tied} == {"archidekt", "tcgplayer"}
    assert "Archidekt" in result.problems[0].message and "TCGplayer" in result.problems[0].message
    chosen = read_collection_csv(text, game=shelf.game, dialect_code="archidekt")
    assert [s.printing_id for s in chosen.specs] == [shelf.base_printings[0].pk]


def test_the_page_asks_for_the_format_of_a_tied_header_and_reads_it_when_chosen(
    owner_client: Client, shelf: Shelf
) -> None:
    text = "Quantity,Name,Simple Name,Edition Code\n1,Flame Fox,Flame Fox,MT1\n"
    asked = owner_client.post(reverse("collection:import"), {"game": "mattsan", "text": text})
    assert asked.status_code == 400
    assert (
        "Archidekt" in asked.content.decode()
        and 'id="import-mapping"' not in asked.content.decode()
    )
    chosen = owner_client.post(
        reverse("collection:import"), {"game": "mattsan", "text": text, "format": "archidekt"}
    )
    assert chosen.status_code == 200
    assert "Archidekt file: 1 rows" in chosen.content.decode()


def test_formats_that_would_read_a_header_alike_are_not_asked(shelf: Shelf) -> None:
    result = read_collection_csv(
        "Count,Tradelist Count,Name,Edition\n1,0,Tide Caller,MT1\n", game=shelf.game
    )
    assert result.problems == [] and len(result.specs) == 1


def test_a_card_with_one_printing_needs_no_set_in_any_format(shelf: Shelf) -> None:
    text = "Count,Tradelist Count,Name,Edition,Edition Code\n2,0,Tide Caller,,\n1,0,Flame Fox,,\n"
    result = read_collection_csv(text, game=shelf.game)
    assert [(p.line, p.column) for p in result.problems] == [(3, "Edition Code")]
    assert "MT1, MT2" in result.problems[0].message
    result = read_collection_csv("Quantity,Name\n2,Tide Caller\n", game=shelf.game)
    assert [s.printing_id for s in result.specs] == [shelf.base_printings[2].pk]


# --- one name key --------------------------------------------------------------------------------


@pytest.fixture
def kana(shelf: Shelf) -> Any:
    card = CardFactory(
        game=shelf.game, code="MTC-100", name_en="Monster Eye", name_ja="モンスターアイ"
    )
    return PrintingFactory(card=card, card_set=shelf.base, collector_number="100")


def test_every_importer_and_search_use_one_name_key() -> None:
    assert deck_text.name_key is name_key
    assert name_key("もんすたー　アイ") == name_key("ﾓﾝｽﾀｰ ｱｲ") == name_key("モンスター  アイ")


@pytest.mark.parametrize(
    "typed",
    ["もんすたーあい", "モンスターアイ", "ﾓﾝｽﾀｰｱｲ", "ＭＯＮＳＴＥＲ　ＥＹＥ", "monster eye"],
)
def test_the_typed_list_and_csv_accept_what_the_deck_import_accepts(
    shelf: Shelf, kana: Any, typed: str
) -> None:
    listed = read_collection_csv(f"2 {typed}\n", game=shelf.game, dialect_code="list")
    assert [str(p) for p in listed.problems] == []
    assert [s.printing_id for s in listed.specs] == [kana.pk]
    sheet = read_collection_csv(f"Quantity,Name\n2,{typed}\n", game=shelf.game)
    assert [s.printing_id for s in sheet.specs] == [kana.pk]
    parsed = deck_text.parse_deck_text(f"2 {typed}\n", game=shelf.game)
    assert [e.card.pk for e in parsed.entries] == [kana.card.pk]


# --- the mapping step ----------------------------------------------------------------------------

ODD = "Stk,Karte,Ed\n2,Tide Caller,MT1\n1,Flame Fox,MT2\n"


def test_an_unreadable_header_comes_back_with_its_rows_for_a_mapping(
    owner: Any, shelf: Shelf
) -> None:
    preview = collection_import_preview(owner=owner, content=ODD, game=shelf.game)
    assert preview.batch is None and preview.result.needs_mapping
    assert preview.result.header == ["Stk", "Karte", "Ed"]
    assert preview.result.sample[0] == ["2", "Tide Caller", "MT1"]
    mapped = collection_import_preview(
        owner=owner,
        content=ODD,
        game=shelf.game,
        mapping={"quantity": 0, "name": "karte", "set": 2},
    )
    assert mapped.batch is not None and mapped.batch.mapping == {"quantity": 0, "name": 1, "set": 2}
    collection_import_commit_batch(batch=mapped.batch)
    assert _items(owner) == {
        ("MT1", "003", 2, 0, "near_mint", "normal", "ja"),
        ("MT2", "050", 1, 0, "near_mint", "normal", "ja"),
    }
    # remembered for that header (compared normalised), per player
    again = collection_import_preview(
        owner=owner, content=" STK , karte,ED \n3,Tide Caller,MT1\n", game=shelf.game
    )
    assert again.batch is not None and again.result.dialect is dialects.MAPPED
    assert ColumnMapping.objects.filter(owner=owner).count() == 1


def test_a_mapping_without_quantity_or_name_is_refused(owner: Any, shelf: Shelf) -> None:
    preview = collection_import_preview(
        owner=owner, content=ODD, game=shelf.game, mapping={"name": 1, "set": 7}
    )
    assert preview.batch is None
    assert [p.message for p in preview.result.problems] == ["The file has no column 7."]


def test_the_api_answers_an_unreadable_header_with_it_and_accepts_a_mapping(
    owner_client: Client, shelf: Shelf
) -> None:
    url = f"{API}/imports/"
    refused = owner_client.post(
        url, {"content": ODD, "game": "mattsan"}, content_type="application/json"
    )
    assert refused.status_code == 400
    body = refused.json()
    assert body["header"] == ["Stk", "Karte", "Ed"]
    assert body["rows"][1] == ["2", "Tide Caller", "MT1"]
    assert "quantity" in body["mappable"] and body["formats"] == "/collection/formats/"
    assert body["problems"][0]["line"] == 1
    mapping = {"quantity": "Stk", "name": 1, "set": "Ed"}
    taken = owner_client.post(
        url,
        {"content": ODD, "game": "mattsan", "mapping": mapping},
        content_type="application/json",
    )
    assert taken.status_code == 201, taken.content
    assert taken.json()["format"] == "mapped"
    remembered = owner_client.post(
        url, {"content": ODD, "game": "mattsan"}, content_type="application/json"
    )
    assert remembered.status_code == 201
    wrong = owner_client.post(
        url,
        {"content": ODD, "game": "mattsan", "mapping": {"colour": 1}},
        content_type="application/json",
    )
    assert wrong.status_code == 400 and "mapping" in wrong.json()


def test_the_import_page_offers_the_mapping_step_and_remembers_it(
    owner: Any, owner_client: Client, shelf: Shelf
) -> None:
    page = owner_client.post(reverse("collection:import"), {"game": "mattsan", "text": ODD})
    assert page.status_code == 400
    html = page.content.decode()
    assert 'id="import-mapping"' in html and 'name="map-0"' in html and "Tide Caller" in html
    assert reverse("collection:formats") in html
    mapped = owner_client.post(
        reverse("collection:import"),
        {"game": "mattsan", "text": ODD, "map-0": "quantity", "map-1": "name", "map-2": "set"},
    )
    assert mapped.status_code == 200, mapped.content.decode()[:2000]
    assert 'id="import-preview"' in mapped.content.decode()
    assert ColumnMapping.objects.get(owner=owner).mapping == {"quantity": 0, "name": 1, "set": 2}


# --- the page ------------------------------------------------------------------------------------


def test_the_preview_shows_labels_not_codes_in_each_language(
    owner_client: Client, shelf: Shelf
) -> None:
    text = "Quantity,Name,Set,Condition,Finish,Language\n1,Tide Caller,MT1,near_mint,foil,en\n"
    for language in ("en", "ja"):
        page = owner_client.post(
            reverse("collection:import"),
            {"game": "mattsan", "text": text},
            HTTP_ACCEPT_LANGUAGE=language,
        )
        html = page.content.decode()
        assert page.status_code == 200
        with translation.override(language):
            assert f'data-code="near_mint">{Condition.NEAR_MINT.label}<' in html
        assert ">near_mint<" not in html and ">en<" not in html and ">foil<" not in html
    assert 'class="form-select"' in html and 'class="form-control' in html


def test_the_format_page_lists_every_format_with_its_header(client: Client) -> None:
    for language in ("en", "ja"):
        page = client.get(reverse("collection:formats"), HTTP_ACCEPT_LANGUAGE=language)
        assert page.status_code == 200
        html = page.content.decode()
        for dialect in dialects.DIALECTS:
            assert f'id="format-{dialect.code}"' in html
            assert ",".join(dialect.header).replace('"', "&quot;") in html
        assert 'id="generic-names"' in html and 'id="mapping-step"' in html


def test_the_import_page_links_to_the_format_page(owner_client: Client) -> None:
    page = owner_client.get(reverse("collection:import"))
    assert reverse("collection:formats") in page.content.decode()
