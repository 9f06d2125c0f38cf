"""A proposal's payload: DeckLab catalog JSON (docs/catalog-format.md) <-> CatalogBundle, and
the catalog's rows as the entries of that format (the history's before/after snapshots).

The importer reads the payload (``bundle_from_decklab``); this module writes the other way, so
a payload, a snapshot and a revert are all one format read by one parser and one validator.
"""

from __future__ import annotations

import copy
from typing import Any

from catalog.exporters import product_fields
from catalog.importers.bundle import (
    CardRow,
    CatalogBundle,
    PrintingRow,
    ProductItemRow,
    ProductRow,
    SetRow,
    release_text,
)
from catalog.importers.decklab_json import FORMAT_NAME, FORMAT_VERSION, bundle_from_decklab
from catalog.models import Card, CardSet, Game, Printing, Product, ProductItem

Snapshot = dict[str, Any]
#: a printing's natural key: (card code, set code, collector number, variant)
PrintingKey = tuple[str, str, str, str]


def bundle_to_data(bundle: CatalogBundle) -> dict[str, Any]:
    """The DeckLab catalog JSON dict that ``bundle_from_decklab`` reads back into ``bundle``
    (every field it reads; ``where`` follows from the same origin). Problems are not data."""
    return {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "game": bundle.game,
        "sets": [_set_entry(row) for row in bundle.sets],
        "cards": [_card_entry(row) for row in bundle.cards],
        "products": [_product_entry(row) for row in bundle.products],
    }


def data_to_bundle(data: Any, origin: str) -> CatalogBundle:
    """The payload parsed by the importer's own reader (problems recorded at their JSON path)."""
    return bundle_from_decklab(data, origin)


def _set_entry(row: SetRow) -> dict[str, Any]:
    return {
        "code": row.code,
        "name_en": row.name_en,
        "name_ja": row.name_ja,
        "kind": row.kind,
        "released": release_text(row.release_date, row.release_precision),
        "official_size": row.official_size,
        "source": row.source,
        "demo": row.is_demo,
    }


def _printing_entry(row: PrintingRow) -> dict[str, Any]:
    return {
        "set": row.set_code,
        "number": row.collector_number,
        "variant": row.variant,
        "attributes": copy.deepcopy(row.attributes),
    }


def _card_entry(row: CardRow) -> dict[str, Any]:
    return {
        "code": row.code,
        "type": row.card_type,
        "name_en": row.name_en,
        "name_ja": row.name_ja,
        "attributes": copy.deepcopy(row.attributes),
        "copy_limit": row.copy_limit,
        "source": row.source,
        "demo": row.is_demo,
        "printings": [_printing_entry(p) for p in row.printings],
    }


def _item_entry(row: ProductItemRow) -> dict[str, Any]:
    entry: dict[str, Any] = {"card": row.card_code, "quantity": row.quantity, "zone": row.zone}
    # the reader tells an absent key (any printing) from an empty one (the plain printing)
    for key, value in (
        ("set", row.set_code),
        ("number", row.collector_number),
        ("variant", row.variant),
    ):
        if value is not None:
            entry[key] = value
    return entry


def _product_entry(row: ProductRow) -> dict[str, Any]:
    return {
        "code": row.code,
        "kind": row.kind,
        "set": row.set_code,
        "name_en": row.name_en,
        "name_ja": row.name_ja,
        # a product's date is a day (the reader keeps no precision for it)
        "released": row.release_date.isoformat() if row.release_date else None,
        "card_count": row.card_count,
        "price_yen": row.price_yen,
        "source": row.source,
        "demo": row.is_demo,
        "items": [_item_entry(item) for item in row.items],
    }


# --- the catalog's rows as snapshots ----------------------------------------------------------


def printing_code(key: PrintingKey) -> str:
    """A printing's ``CatalogChange.object_code``: its card's code first (no code holds a
    '/'), so a card's history finds its printings by that prefix."""
    card, set_code, number, variant = key
    return f"{card}/{set_code}/{number}" + (f"/{variant}" if variant else "")


def bundle_keys(bundle: CatalogBundle) -> dict[str, list[str | PrintingKey]]:
    """What a (validated) bundle touches, by object kind, in the bundle's order."""
    return {
        "set": [row.code for row in bundle.sets],
        "card": [row.code for row in bundle.cards],
        "printing": [
            (row.code, p.set_code, p.collector_number, p.variant)
            for row in bundle.cards
            for p in row.printings
        ],
        "product": [row.code for row in bundle.products],
    }


def set_snapshot(card_set: CardSet) -> Snapshot:
    return {
        "code": card_set.code,
        "name_en": card_set.name_en,
        "name_ja": card_set.name_ja,
        "kind": card_set.kind,
        "released": release_text(card_set.release_date, card_set.release_precision),
        "official_size": card_set.official_size,
        "source": card_set.source,
        "demo": card_set.is_demo,
    }


def card_snapshot(card: Card) -> Snapshot:
    """The card's own fields (its printings are snapshots of their own)."""
    return {
        "code": card.code,
        "type": card.card_type,
        "name_en": card.name_en,
        "name_ja": card.name_ja,
        "attributes": card.attributes,
        "copy_limit": card.copy_limit,
        "source": card.source,
        "demo": card.is_demo,
    }


def printing_snapshot(key: PrintingKey, attributes: dict[str, Any]) -> Snapshot:
    card, set_code, number, variant = key
    return {
        "card": card,
        "set": set_code,
        "number": number,
        "variant": variant,
        "attributes": attributes,
    }


def snapshots(game: Game, keys: dict[str, list[Any]]) -> dict[tuple[str, str], Snapshot]:
    """The current rows of ``keys`` as snapshots by (object kind, object code); an absent row
    is absent from the answer. One query per kind, whatever the number of rows."""
    found: dict[tuple[str, str], Snapshot] = {}
    if keys.get("set"):
        for card_set in CardSet.objects.filter(game=game, code__in=keys["set"]):
            found["set", card_set.code] = set_snapshot(card_set)
    if keys.get("card"):
        # a card withdrawn from the catalog (Card.withdrawn_at) is absent from it, and so are
        # its printings: its withdrawal is recorded as a removal, and reverted as one
        for card in Card.objects.filter(game=game, code__in=keys["card"], withdrawn_at=None):
            found["card", card.code] = card_snapshot(card)
    if keys.get("printing"):
        wanted = set(keys["printing"])
        rows = Printing.objects.filter(
            card__game=game, card__code__in={key[0] for key in wanted}, card__withdrawn_at=None
        ).values_list("card__code", "card_set__code", "collector_number", "variant", "attributes")
        for card_code, set_code, number, variant, attributes in rows:
            key = (card_code, set_code, number, variant)
            if key in wanted:
                found["printing", printing_code(key)] = printing_snapshot(key, attributes)
    if keys.get("product"):
        products = Product.objects.filter(game=game, code__in=keys["product"]).select_related(
            "card_set"
        )
        items: dict[int, list[dict[str, Any]]] = {}
        for product_id, card_code, set_code, number, variant, zone, quantity in (
            ProductItem.objects.filter(product__in=products)
            .order_by("zone", "printing__card__code", "printing__card_set__code", "printing__id")
            .values_list(
                "product_id",
                "printing__card__code",
                "printing__card_set__code",
                "printing__collector_number",
                "printing__variant",
                "zone",
                "quantity",
            )
        ):
            items.setdefault(product_id, []).append(
                {
                    "card": card_code,
                    "quantity": quantity,
                    "zone": zone,
                    "set": set_code,
                    "number": number,
                    "variant": variant,
                }
            )
        for product in products:
            found["product", product.code] = {
                **product_fields(product),
                "items": items.get(product.pk, []),
            }
    return found


def snapshot_key(kind: str, key: str | PrintingKey) -> tuple[str, str]:
    return (kind, printing_code(key) if isinstance(key, tuple) else key)


def restore_data(game: Game, rows: list[tuple[str, Snapshot]]) -> dict[str, Any]:
    """A DeckLab catalog JSON payload that writes the snapshots ``rows`` (object kind,
    snapshot) back through the importer, all at once.

    A printing travels under its card: the card's own snapshot when it is restored too, else
    its current row (which the importer then leaves unchanged)."""
    sets = [dict(snap) for kind, snap in rows if kind == "set"]
    products = [dict(snap) for kind, snap in rows if kind == "product"]
    cards = {snap["code"]: {**snap, "printings": []} for kind, snap in rows if kind == "card"}
    printings = [snap for kind, snap in rows if kind == "printing"]
    carriers = {snap["card"] for snap in printings} - set(cards)
    for card in Card.objects.filter(game=game, code__in=carriers):
        cards[card.code] = {**card_snapshot(card), "printings": []}
    for snap in printings:
        entry = {k: snap[k] for k in ("set", "number", "variant", "attributes")}
        cards[snap["card"]]["printings"].append(entry)
    return {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "game": game.slug,
        "sets": sets,
        "cards": list(cards.values()),
        "products": products,
    }
