"""A proposal's payload is DeckLab catalog JSON: bundle_to_data is the exact inverse of the
importer's reader, over every built-in game's real catalog file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from catalog.importers.decklab_json import bundle_from_decklab
from contributions.payload import bundle_to_data, data_to_bundle

CATALOGS = sorted(Path(__file__).resolve().parents[2].glob("games/*/catalog.json"))


def test_every_built_in_game_has_a_catalog_file() -> None:
    assert len(CATALOGS) == 5


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: p.parent.name)
def test_a_real_catalog_comes_back_equal_through_the_payload(path: Path) -> None:
    first = bundle_from_decklab(json.loads(path.read_text(encoding="utf-8")), "catalog")
    assert first.problems == []
    assert first.cards and first.sets
    # through JSON text as a proposal is stored (a JSONField), dates as text
    data = json.loads(json.dumps(bundle_to_data(first), ensure_ascii=False))
    again = data_to_bundle(data, "catalog")
    assert again.problems == []
    assert again == first


def test_absent_and_empty_printing_keys_of_a_product_line_stay_apart() -> None:
    data = {
        "format": "decklab-catalog",
        "game": "mattsan",
        "source": "file default",
        "demo": True,
        "sets": [{"code": "S", "name_en": "S", "released": "2024"}],
        "cards": [{"code": "C", "type": "unit", "name_ja": "ユ", "copy_limit": 2}],
        "products": [
            {
                "code": "P",
                "kind": "starter",
                "name_en": "P",
                "released": "2024-05",
                "items": [
                    {"card": "C", "quantity": 1},
                    {"card": "C", "quantity": 2, "zone": "extra", "number": "", "variant": ""},
                ],
            }
        ],
    }
    first = bundle_from_decklab(data, "hand")
    again = data_to_bundle(bundle_to_data(first), "hand")
    assert again == first
    items = again.products[0].items
    assert (items[0].collector_number, items[0].variant) == (None, None)
    assert (items[1].collector_number, items[1].variant) == ("", "")
    assert again.sets[0].release_precision == "year"
    assert again.cards[0].source == "file default" and again.cards[0].is_demo
