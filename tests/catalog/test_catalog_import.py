"""The DeckLab catalog JSON importer: idempotent, all-or-nothing, every problem reported."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from catalog.importers.bundle import CatalogImportError
from catalog.importers.service import catalog_import_text
from catalog.models import Card, CardSet, Game, Printing, Product, ProductItem

GOOD: dict[str, Any] = {
    "format": "decklab-catalog",
    "version": 1,
    "game": "monster-hunter",
    "source": "test data",
    "demo": True,
    "sets": [
        {
            "code": "t1",
            "name_en": "Test",
            "name_ja": "テスト",
            "kind": "base",
            "released": "2007-04",
            "official_size": 2,
        }
    ],
    "cards": [
        {
            "code": "T-001",
            "type": "monster",
            "name_en": "Test Wyvern",
            "name_ja": "テストワイバーン",
            "attributes": {
                "attack": 3,
                "movement": 1,
                "reach": 2,
                "hp": 5,
                "rank": 2,
                "material_points": 3,
            },
            "printings": [{"set": "t1", "number": "001"}],
        },
        {
            "code": "T-002",
            "type": "hunter",
            "name_en": "Test Hunter",
            "attributes": {"attack": 1, "movement": 2, "reach": 1, "item_icons": ["meat"]},
            "printings": [{"set": "t1", "number": "002"}],
        },
    ],
    "products": [
        {
            "code": "t-starter",
            "kind": "starter",
            "set": "t1",
            "name_en": "Starter",
            "card_count": 5,
            "price_yen": 1890,
            "items": [
                {"card": "T-001", "quantity": 4},
                {"card": "T-002", "quantity": 1, "zone": "hunter"},
            ],
        }
    ],
}


def rows() -> tuple[int, ...]:
    return tuple(m.objects.count() for m in (Game, CardSet, Card, Printing, Product, ProductItem))


def as_text(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False)


@pytest.mark.django_db
def test_it_imports_sets_cards_printings_and_products() -> None:
    report = catalog_import_text(as_text(GOOD), name="good.json")
    assert report.created["cards"] == 2
    card = Card.objects.get(code="T-001")
    assert card.is_demo and card.source == "test data"
    assert card.attributes["hp"] == 5
    assert CardSet.objects.get(code="t1").released == "2007-04"
    product = Product.objects.get(code="t-starter")
    assert {(i.printing.card.code, i.zone, i.quantity) for i in product.items.all()} == {
        ("T-001", "main", 4),
        ("T-002", "hunter", 1),
    }


@pytest.mark.django_db
def test_reimporting_the_same_file_changes_nothing() -> None:
    catalog_import_text(as_text(GOOD), name="good.json")
    before = rows()
    report = catalog_import_text(as_text(GOOD), name="good.json")
    assert rows() == before
    assert sum(report.created.values()) == 0 and sum(report.updated.values()) == 0


@pytest.mark.django_db
def test_reimporting_a_changed_file_updates_in_place() -> None:
    catalog_import_text(as_text(GOOD), name="good.json")
    changed = copy.deepcopy(GOOD)
    changed["cards"][0]["attributes"]["hp"] = 7
    changed["products"][0]["items"][0]["quantity"] = 3
    report = catalog_import_text(as_text(changed), name="good.json")
    assert report.updated["cards"] == 1
    assert Card.objects.get(code="T-001").attributes["hp"] == 7
    assert Card.objects.count() == 2
    assert ProductItem.objects.get(printing__card__code="T-001").quantity == 3


def broken(path: list[Any], value: Any) -> dict[str, Any]:
    data = copy.deepcopy(GOOD)
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


def with_duplicate_card() -> dict[str, Any]:
    data = copy.deepcopy(GOOD)
    data["cards"].append(copy.deepcopy(data["cards"][0]))
    return data


BAD_INPUTS = [
    (
        "unknown game",
        as_text(broken(["game"], "monster-huntr")),
        "unknown game 'monster-huntr'",
        "Did you mean 'monster-hunter'?",
    ),
    (
        "bad attribute",
        as_text(broken(["cards", 0, "attributes", "hp"], 0)),
        "good.json: cards[0]",
        "attribute 'hp'",
    ),
    (
        "unknown attribute",
        as_text(broken(["cards", 0, "attributes", "colour"], "red")),
        "good.json: cards[0]",
        "attribute 'colour'",
    ),
    (
        "duplicate key",
        as_text(with_duplicate_card()),
        "good.json: cards[2]",
        "duplicate card code 'T-001'",
    ),
    ("broken JSON", as_text(GOOD)[:-20], "good.json:1", "broken JSON"),
    (
        "unknown type",
        as_text(broken(["cards", 1, "type"], "huntr")),
        "good.json: cards[1]",
        "Did you mean 'hunter'?",
    ),
    (
        "unknown set",
        as_text(broken(["cards", 0, "printings", 0, "set"], "t2")),
        "good.json: cards[0].printings[0]",
        "unknown set 't2'",
    ),
    (
        "unknown card in product",
        as_text(broken(["products", 0, "items", 0, "card"], "T-01")),
        "good.json: products[0].items[0]",
        "Did you mean 'T-001'",
    ),
    (
        "quantity zero",
        as_text(broken(["products", 0, "items", 0, "quantity"], 0)),
        "good.json: products[0].items[0]",
        "quantity must be between 1 and 99",
    ),
    (
        "quantity 100",
        as_text(broken(["products", 0, "items", 0, "quantity"], 100)),
        "good.json: products[0].items[0]",
        "quantity must be between 1 and 99",
    ),
    (
        "bad date",
        as_text(broken(["sets", 0, "released"], "April 2007")),
        "good.json: sets[0].released",
        "YYYY-MM",
    ),
    (
        "unknown key",
        as_text(broken(["cards", 0, "nmae_en"], "x")),
        "good.json: cards[0].nmae_en",
        "unknown key",
    ),
    ("not an object", "[1, 2]", "good.json", "not a catalog"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("label", "text", "where", "reason"), BAD_INPUTS, ids=[case[0] for case in BAD_INPUTS]
)
def test_a_bad_file_writes_nothing_and_says_where_and_why(
    label: str, text: str, where: str, reason: str
) -> None:
    catalog_import_text(as_text(GOOD), name="seed.json")  # an existing catalog must survive
    before = rows()
    with pytest.raises(CatalogImportError) as caught:
        catalog_import_text(text, name="good.json")
    assert rows() == before
    messages = [str(p) for p in caught.value.problems]
    assert any(where in m and reason in m for m in messages), messages


@pytest.mark.django_db
def test_it_reports_every_problem_at_once() -> None:
    data = broken(["cards", 0, "attributes", "hp"], 0)
    data["cards"][1]["type"] = "huntr"
    data["products"][0]["items"][0]["quantity"] = 0
    with pytest.raises(CatalogImportError) as caught:
        catalog_import_text(as_text(data), name="good.json")
    assert len(caught.value.problems) == 3
    assert rows() == (0, 0, 0, 0, 0, 0)


@pytest.mark.django_db
def test_a_product_line_must_name_its_printing_when_a_card_has_several() -> None:
    data = copy.deepcopy(GOOD)
    data["cards"][0]["printings"].append({"set": "t1", "number": "001b"})
    with pytest.raises(CatalogImportError) as caught:
        catalog_import_text(as_text(data), name="good.json")
    assert "has 2 printings" in str(caught.value)
    data["products"][0]["items"][0]["number"] = "001b"
    catalog_import_text(as_text(data), name="good.json")
    assert ProductItem.objects.filter(printing__collector_number="001b").exists()
