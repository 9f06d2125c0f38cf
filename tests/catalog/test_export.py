"""export_catalog: the database -> DeckLab catalog JSON -> the same rows again.

Also guards the committed games/unmatched/catalog.json: it is what exporting a fresh import of
../shared/data/unmatched gives, it re-imports into an empty database as exactly those rows,
and it holds facts only.
"""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from catalog.exporters import export_catalog, export_catalog_json
from catalog.importers.bundle import CatalogImportError
from catalog.importers.service import catalog_import_path, catalog_import_text
from catalog.models import Card, CardSet, Game, Printing, Product, ProductItem
from games import registry

COMMITTED = registry.get("unmatched").directory / "catalog.json"
SHARED = Path(__file__).resolve().parents[3] / "shared" / "data" / "unmatched"
needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason="needs ../shared/data/unmatched")

# the only keys an Unmatched catalog file may use: anything else could carry prose
FACT_KEYS = {
    *("format", "version", "game", "sets", "cards", "products", "code", "kind", "released"),
    *("name_en", "source", "demo", "type", "attributes", "printings", "set", "number"),
    *("items", "card", "quantity", "zone", "hp", "move", "ranged", "hero_count", "sidekick"),
    *("sidekick_hp", "sidekick_move", "sidekick_ranged", "sidekick_count", "value"),
    *("fighter", "boost"),
}


def catalog_rows(slug: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every catalog row of a game by its natural keys (ids differ between databases)."""
    return {
        "game": list(Game.objects.filter(slug=slug).values_list("slug", "name_en", "name_ja")),
        "sets": list(
            CardSet.objects.filter(game__slug=slug)
            .order_by("code")
            .values_list(
                *("code", "name_en", "name_ja", "kind", "release_date", "release_precision"),
                *("official_size", "source", "is_demo"),
            )
        ),
        "cards": list(
            Card.objects.filter(game__slug=slug)
            .order_by("code")
            .values_list(
                *("code", "name_en", "name_ja", "card_type", "attributes", "copy_limit"),
                *("source", "is_demo", "search_key"),
            )
        ),
        "printings": list(
            Printing.objects.filter(card__game__slug=slug)
            .order_by("card__code", "card_set__code", "collector_number", "variant")
            .values_list(
                "card__code", "card_set__code", "collector_number", "variant", "attributes"
            )
        ),
        "products": list(
            Product.objects.filter(game__slug=slug)
            .order_by("code")
            .values_list(
                *("code", "kind", "name_en", "name_ja", "card_set__code", "release_date"),
                *("card_count", "price_yen", "source", "is_demo"),
            )
        ),
        "items": list(
            ProductItem.objects.filter(product__game__slug=slug)
            .order_by(
                *("product__code", "zone", "printing__card__code", "printing__card_set__code"),
                *("printing__collector_number", "printing__variant"),
            )
            .values_list(
                *("product__code", "zone", "quantity", "printing__card__code"),
                *("printing__card_set__code", "printing__collector_number", "printing__variant"),
            )
        ),
    }


def round_trip(slug: str) -> tuple[str, str]:
    """Export, empty the game's catalog, import the export, export again."""
    first = export_catalog_json(Game.objects.get(slug=slug))
    Game.objects.filter(slug=slug).delete()
    assert not Card.objects.filter(game__slug=slug).exists()
    catalog_import_text(first, name=f"{slug}.json")
    return first, export_catalog_json(Game.objects.get(slug=slug))


def keys_of(data: Any) -> set[str]:
    if isinstance(data, dict):
        return set(data) | {k for value in data.values() for k in keys_of(value)}
    if isinstance(data, list):
        return {k for value in data for k in keys_of(value)}
    return set()


def texts_of(data: Any) -> list[str]:
    if isinstance(data, dict):
        return [t for value in data.values() for t in texts_of(value)]
    if isinstance(data, list):
        return [t for value in data for t in texts_of(value)]
    return [data] if isinstance(data, str) else []


# --- a small catalog with everything the format has -------------------------------------

SMALL: dict[str, Any] = {
    "format": "decklab-catalog",
    "version": 1,
    "game": "recharge",
    "source": "test data",
    "demo": True,
    "sets": [
        {"code": "z-later", "name_en": "Later", "kind": "promo"},
        {"code": "a-first", "name_en": "First", "name_ja": "最初", "released": "2001-05"},
        {"code": "m-year", "name_ja": "年", "kind": "base", "released": "2001", "demo": False},
    ],
    "cards": [
        {
            "code": "twin",
            "type": "hero",
            "name_en": "Twin",
            "name_ja": "ツイン",
            "attributes": {
                "right": ["blue", "green"],
                "power": 3,
                "left": ["red"],
                "special": True,
            },
            "copy_limit": 2,
            "source": "another source",
            "printings": [
                {"set": "a-first", "number": "7"},
                {"set": "a-first", "number": "7", "variant": "power-plus"},
                {"set": "z-later"},
            ],
        },
    ],
    "products": [
        {
            "code": "pack",
            "kind": "booster",
            "set": "a-first",
            "name_ja": "パック",
            "released": "2001-05-20",
            "card_count": 5,
            "price_yen": 300,
            "items": [
                {"card": "twin", "quantity": 2, "set": "a-first", "number": "7", "variant": ""},
                {"card": "twin", "quantity": 1, "variant": "power-plus"},
                {"card": "twin", "quantity": 1, "zone": "bonus", "set": "z-later"},
            ],
        },
        {"code": "empty", "kind": "prebuilt", "name_en": "Empty"},
    ],
}


@pytest.fixture
def small_catalog() -> None:
    """SMALL, imported as a file would be. Never skipped: the importer checks it against the
    Recharge schema (types, attributes, variants), so a schema change that SMALL no longer
    fits fails these tests, with the importer's reasons, until SMALL is brought up to date."""
    try:
        catalog_import_text(json.dumps(SMALL, ensure_ascii=False), name="small.json")
    except CatalogImportError as refused:
        pytest.fail(f"SMALL no longer fits the Recharge schema; update it:\n{refused}")


@pytest.mark.django_db
def test_an_export_imports_into_an_empty_database_as_the_same_rows(small_catalog: None) -> None:
    before = catalog_rows("recharge")
    first, second = round_trip("recharge")
    assert catalog_rows("recharge") == before
    assert second == first


@pytest.mark.django_db
def test_the_export_keeps_each_entrys_source_and_demo_and_leaves_empty_keys_out(
    small_catalog: None,
) -> None:
    data = export_catalog(Game.objects.get(slug="recharge"))
    assert [s["code"] for s in data["sets"]] == ["m-year", "a-first", "z-later"]
    assert data["sets"][0] == {
        "code": "m-year",
        "name_ja": "年",
        "kind": "base",
        "released": "2001",
        "source": "test data",
        "demo": False,
    }
    twin = data["cards"][0]
    assert (twin["source"], twin["demo"], twin["copy_limit"]) == ("another source", True, 2)
    # attribute keys in a fixed order, whatever order the database returns them in
    assert list(twin["attributes"]) == ["left", "power", "right", "special"]
    assert twin["printings"] == [
        {"set": "a-first", "number": "7", "attributes": {}},
        {"set": "a-first", "number": "7", "variant": "power-plus", "attributes": {}},
        {"set": "z-later", "attributes": {}},
    ]
    pack = next(p for p in data["products"] if p["code"] == "pack")
    # the variant is named only where set and number leave a choice
    assert pack["items"] == [
        {"card": "twin", "quantity": 1, "zone": "bonus", "set": "z-later", "number": ""},
        {
            "card": "twin",
            "quantity": 2,
            "zone": "main",
            "set": "a-first",
            "number": "7",
            "variant": "",
        },
        {
            "card": "twin",
            "quantity": 1,
            "zone": "main",
            "set": "a-first",
            "number": "7",
            "variant": "power-plus",
        },
    ]
    assert "source" not in data  # each entry carries its own


@pytest.mark.django_db
def test_the_export_is_readable_utf8_and_the_same_every_time(small_catalog: None) -> None:
    game = Game.objects.get(slug="recharge")
    text = export_catalog_json(game)
    assert "ツイン" in text and "\\u" not in text
    assert text == export_catalog_json(game)
    assert text.startswith('{\n "format": "decklab-catalog",')


@pytest.mark.django_db
def test_the_command_writes_the_file_or_stdout_and_refuses_an_unknown_game(
    small_catalog: None, tmp_path: Path
) -> None:
    target = tmp_path / "out" / "recharge.json"
    call_command("export_catalog", "recharge", output=target, stdout=StringIO())
    assert target.read_text(encoding="utf-8") == export_catalog_json(
        Game.objects.get(slug="recharge")
    )
    out = StringIO()
    call_command("export_catalog", "recharge", stdout=out)
    assert out.getvalue() == target.read_text(encoding="utf-8")
    with pytest.raises(CommandError, match="No catalog for 'unmatched'"):
        call_command("export_catalog", "unmatched", stdout=StringIO())


# --- every committed catalog file survives the round trip -------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path", [g.catalog_file for g in registry.all_games()], ids=lambda p: p.parent.name
)
def test_every_committed_catalog_file_survives_export_and_reimport(path: Path) -> None:
    catalog_import_path(path)
    slug = json.loads(path.read_text(encoding="utf-8"))["game"]
    before = catalog_rows(slug)
    first, second = round_trip(slug)
    assert catalog_rows(slug) == before
    assert second == first


# --- the committed Unmatched catalog ----------------------------------------------------


def test_the_committed_unmatched_catalog_holds_facts_only() -> None:
    data = json.loads(COMMITTED.read_text(encoding="utf-8"))
    assert keys_of(data) <= FACT_KEYS
    texts = texts_of(data)
    assert not [t for t in texts if "://" in t or "www." in t]
    # names and codes are short; effect texts and abilities are sentences
    assert max(len(t) for t in texts if not t.startswith("Cueerno/")) <= 60


@needs_shared
def test_the_committed_unmatched_catalog_has_none_of_the_sources_texts() -> None:
    committed = COMMITTED.read_text(encoding="utf-8")
    for path in (SHARED / "decks").glob("*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        texts = [data["hero"].get("specialAbility"), (data.get("sidekick") or {}).get("quote")]
        for entry in data["cards"]:
            texts += [entry.get(k) for k in ("basicText", "immediateText", "duringText")]
            texts += [entry.get("afterText"), entry.get("imageUrl")]
        assert [t for t in texts if t and t in committed] == [], path.name


@needs_shared
@pytest.mark.django_db
def test_the_committed_unmatched_catalog_is_the_export_of_the_shared_folder() -> None:
    catalog_import_path(SHARED)
    assert export_catalog_json(Game.objects.get(slug="unmatched")) == COMMITTED.read_text(
        encoding="utf-8"
    )


@needs_shared
@pytest.mark.django_db
def test_the_committed_unmatched_catalog_gives_the_rows_of_the_shared_folder() -> None:
    catalog_import_path(SHARED)
    from_folder = catalog_rows("unmatched")
    Game.objects.filter(slug="unmatched").delete()
    report = catalog_import_path(COMMITTED)
    assert report.created == {"sets": 26, "cards": 704, "printings": 803, "products": 59}
    assert catalog_rows("unmatched") == from_folder
    assert len(from_folder["items"]) == 803
