"""The project's own catalog format (docs/catalog-format.md) -> CatalogBundle."""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext as _

from catalog.importers.bundle import (
    CardRow,
    CatalogBundle,
    PrintingRow,
    ProductItemRow,
    ProductRow,
    SetRow,
    parse_release,
)
from decklab import safe_input

FORMAT_NAME = "decklab-catalog"
FORMAT_VERSION = 1

TOP_KEYS = {"format", "version", "game", "source", "demo", "sets", "cards", "products"}
SET_KEYS = {"code", "name_en", "name_ja", "kind", "released", "official_size", "source", "demo"}
CARD_KEYS = {
    "code",
    "type",
    "name_en",
    "name_ja",
    "attributes",
    "copy_limit",
    "source",
    "demo",
    "printings",
}
PRINTING_KEYS = {"set", "number", "variant", "attributes"}
PRODUCT_KEYS = {
    "code",
    "kind",
    "set",
    "name_en",
    "name_ja",
    "released",
    "card_count",
    "price_yen",
    "source",
    "demo",
    "items",
}
ITEM_KEYS = {"card", "quantity", "zone", "set", "number", "variant"}


def looks_like_decklab(data: Any) -> bool:
    return isinstance(data, dict) and data.get("format") == FORMAT_NAME


class _Reader:
    """Typed getters that record a problem at the JSON path instead of raising."""

    def __init__(self, bundle: CatalogBundle, origin: str) -> None:
        self.bundle = bundle
        self.origin = origin

    def at(self, path: str) -> str:
        return f"{self.origin}: {path}" if path else self.origin

    def keys(self, obj: dict[str, Any], allowed: set[str], path: str) -> None:
        for key in obj:
            if key not in allowed:
                self.bundle.problem(self.at(f"{path}.{key}"), _("unknown key"))

    def text(self, obj: dict[str, Any], key: str, path: str, *, required: bool = False) -> str:
        value = obj.get(key)
        if value is None or value == "":
            if required:
                self.bundle.problem(self.at(f"{path}.{key}"), _("missing"))
            return ""
        if not isinstance(value, str):
            self.bundle.problem(self.at(f"{path}.{key}"), _("expected text"))
            return ""
        return value.strip()

    def integer(self, obj: dict[str, Any], key: str, path: str) -> int | None:
        value = obj.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.bundle.problem(self.at(f"{path}.{key}"), _("expected a whole number"))
            return None
        return value

    def boolean(self, obj: dict[str, Any], key: str, path: str, default: bool) -> bool:
        value = obj.get(key, default)
        if not isinstance(value, bool):
            self.bundle.problem(self.at(f"{path}.{key}"), _("expected true or false"))
            return default
        return value

    def mapping(self, obj: dict[str, Any], key: str, path: str) -> dict[str, Any]:
        value = obj.get(key, {})
        if not isinstance(value, dict):
            self.bundle.problem(self.at(f"{path}.{key}"), _("expected an object"))
            return {}
        return value

    def objects(self, obj: dict[str, Any], key: str, path: str) -> list[tuple[str, dict[str, Any]]]:
        value = obj.get(key, [])
        if not isinstance(value, list):
            self.bundle.problem(self.at(f"{path}.{key}" if path else key), _("expected a list"))
            return []
        found = []
        for index, item in enumerate(value):
            item_path = f"{path}.{key}[{index}]" if path else f"{key}[{index}]"
            if isinstance(item, dict):
                found.append((item_path, item))
            else:
                self.bundle.problem(self.at(item_path), _("expected an object"))
        return found

    def release(self, obj: dict[str, Any], path: str) -> tuple[Any, str]:
        value = obj.get("released")
        if value in (None, ""):
            return None, "day"
        try:
            return parse_release(value)
        except (ValueError, TypeError):
            self.bundle.problem(
                self.at(f"{path}.released"), _("expected a date as YYYY, YYYY-MM or YYYY-MM-DD")
            )
            return None, "day"


def parse_decklab_json(text: str, origin: str) -> CatalogBundle:
    """Parse one DeckLab catalog file. Broken JSON becomes a problem with its line."""
    try:
        data = safe_input.loads(text)
    except safe_input.UnsafeInput as exc:
        bundle = CatalogBundle(game="", origin=origin)
        bundle.problem(origin, str(exc))
        return bundle
    except json.JSONDecodeError as exc:
        bundle = CatalogBundle(game="", origin=origin)
        bundle.problem(
            f"{origin}:{exc.lineno}",
            # Translators: error is Python's own (English) description of the JSON error.
            _("broken JSON: %(error)s (column %(column)d)")
            % {"error": exc.msg, "column": exc.colno},
        )
        return bundle
    return bundle_from_decklab(data, origin)


def bundle_from_decklab(data: Any, origin: str) -> CatalogBundle:
    if not isinstance(data, dict):
        bundle = CatalogBundle(game="", origin=origin)
        bundle.problem(origin, _("expected a JSON object at the top"))
        return bundle
    bundle = CatalogBundle(game=str(data.get("game") or ""), origin=origin)
    read = _Reader(bundle, origin)
    read.keys(data, TOP_KEYS, "")
    if data.get("version", FORMAT_VERSION) != FORMAT_VERSION:
        bundle.problem(
            read.at("version"),
            _("only version %(version)d is understood") % {"version": FORMAT_VERSION},
        )
    if not bundle.game:
        bundle.problem(read.at("game"), _("missing"))
    default_source = read.text(data, "source", "")
    default_demo = read.boolean(data, "demo", "", False)

    for path, obj in read.objects(data, "sets", ""):
        read.keys(obj, SET_KEYS, path)
        date, precision = read.release(obj, path)
        bundle.sets.append(
            SetRow(
                where=read.at(path),
                code=read.text(obj, "code", path, required=True),
                name_en=read.text(obj, "name_en", path),
                name_ja=read.text(obj, "name_ja", path),
                kind=read.text(obj, "kind", path) or "expansion",
                release_date=date,
                release_precision=precision,
                official_size=read.integer(obj, "official_size", path),
                source=read.text(obj, "source", path) or default_source,
                is_demo=read.boolean(obj, "demo", path, default_demo),
            )
        )

    for path, obj in read.objects(data, "cards", ""):
        read.keys(obj, CARD_KEYS, path)
        card = CardRow(
            where=read.at(path),
            code=read.text(obj, "code", path, required=True),
            card_type=read.text(obj, "type", path, required=True),
            name_en=read.text(obj, "name_en", path),
            name_ja=read.text(obj, "name_ja", path),
            attributes=read.mapping(obj, "attributes", path),
            copy_limit=read.integer(obj, "copy_limit", path),
            source=read.text(obj, "source", path) or default_source,
            is_demo=read.boolean(obj, "demo", path, default_demo),
        )
        for p_path, p_obj in read.objects(obj, "printings", path):
            read.keys(p_obj, PRINTING_KEYS, p_path)
            card.printings.append(
                PrintingRow(
                    where=read.at(p_path),
                    set_code=read.text(p_obj, "set", p_path, required=True),
                    collector_number=read.text(p_obj, "number", p_path),
                    variant=read.text(p_obj, "variant", p_path),
                    attributes=read.mapping(p_obj, "attributes", p_path),
                )
            )
        bundle.cards.append(card)

    for path, obj in read.objects(data, "products", ""):
        read.keys(obj, PRODUCT_KEYS, path)
        date, _precision = read.release(obj, path)
        product = ProductRow(
            where=read.at(path),
            code=read.text(obj, "code", path, required=True),
            kind=read.text(obj, "kind", path, required=True),
            name_en=read.text(obj, "name_en", path),
            name_ja=read.text(obj, "name_ja", path),
            set_code=read.text(obj, "set", path) or None,
            release_date=date,
            card_count=read.integer(obj, "card_count", path),
            price_yen=read.integer(obj, "price_yen", path),
            source=read.text(obj, "source", path) or default_source,
            is_demo=read.boolean(obj, "demo", path, default_demo),
        )
        for i_path, i_obj in read.objects(obj, "items", path):
            read.keys(i_obj, ITEM_KEYS, i_path)
            quantity = read.integer(i_obj, "quantity", i_path)
            if quantity is None:
                bundle.problem(read.at(f"{i_path}.quantity"), _("missing"))
            product.items.append(
                ProductItemRow(
                    where=read.at(i_path),
                    card_code=read.text(i_obj, "card", i_path, required=True),
                    quantity=quantity if quantity is not None else 0,
                    zone=read.text(i_obj, "zone", i_path) or "main",
                    set_code=read.text(i_obj, "set", i_path) or None,
                    collector_number=(
                        read.text(i_obj, "number", i_path) if "number" in i_obj else None
                    ),
                    variant=read.text(i_obj, "variant", i_path) if "variant" in i_obj else None,
                )
            )
        bundle.products.append(product)
    return bundle
