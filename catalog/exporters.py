"""One game's catalog from the database -> the DeckLab catalog JSON format.

The output is what ``catalog.importers.decklab_json`` reads, so exporting and importing into
an empty database gives the same rows. Ordering is fixed (sets by release date and code, the
rest by code), so an unchanged catalog always exports to the same bytes and a changed one
diffs cleanly. Each entry keeps its own ``source`` and ``demo``; keys whose value is empty
are left out, since the importer reads an absent key as that same empty value.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from django.db.models import F

from catalog.importers.bundle import release_text
from catalog.importers.decklab_json import FORMAT_NAME, FORMAT_VERSION
from catalog.models import Card, CardSet, Game, Printing, Product, ProductItem

PrintingPlace = tuple[int, str, str]  # (card id, set code, collector number)


def export_catalog(game: Game) -> dict[str, Any]:
    """The game's sets, cards with their printings, and products with their items."""
    return {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "game": game.slug,
        "sets": _sets(game),
        "cards": _cards(game),
        "products": _products(game),
    }


def export_catalog_json(game: Game) -> str:
    """The export as text: names stay readable (no \\u escapes), one key a line."""
    return json.dumps(export_catalog(game), ensure_ascii=False, indent=1) + "\n"


def _compact(entry: dict[str, Any], optional: Iterable[str]) -> dict[str, Any]:
    """The entry without the optional keys that have no value."""
    skip = {key for key in optional if entry.get(key) in (None, "")}
    return {key: value for key, value in entry.items() if key not in skip}


def _sorted(attributes: Any) -> Any:
    # the database may hand keys back in any order (PostgreSQL's jsonb sorts them its own way)
    if isinstance(attributes, dict):
        return {key: attributes[key] for key in sorted(attributes)}
    return attributes


def _sets(game: Game) -> list[dict[str, Any]]:
    # sets without a date go last, so the dated ones read as a release history
    rows = CardSet.objects.filter(game=game).order_by(
        F("release_date").asc(nulls_last=True), "code"
    )
    return [
        _compact(
            {
                "code": s.code,
                "name_en": s.name_en,
                "name_ja": s.name_ja,
                "kind": s.kind,
                "released": release_text(s.release_date, s.release_precision),
                "official_size": s.official_size,
                "source": s.source,
                "demo": s.is_demo,
            },
            optional=("name_en", "name_ja", "released", "official_size"),
        )
        for s in rows
    ]


def _cards(game: Game) -> list[dict[str, Any]]:
    printings: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for printing in (
        Printing.objects.filter(card__game=game)
        .select_related("card_set")
        .order_by("card_set__code", "collector_number", "variant")
    ):
        printings[printing.card_id].append(
            _compact(
                {
                    "set": printing.card_set.code,
                    "number": printing.collector_number,
                    "variant": printing.variant,
                    "attributes": _sorted(printing.attributes),
                },
                optional=("number", "variant"),
            )
        )
    return [
        _compact(
            {
                "code": card.code,
                "type": card.card_type,
                "name_en": card.name_en,
                "name_ja": card.name_ja,
                "attributes": _sorted(card.attributes),
                "copy_limit": card.copy_limit,
                "source": card.source,
                "demo": card.is_demo,
                "printings": printings[card.pk],
            },
            optional=("name_en", "name_ja", "copy_limit"),
        )
        for card in Card.objects.filter(game=game).order_by("code")
    ]


def _products(game: Game) -> list[dict[str, Any]]:
    places: dict[PrintingPlace, int] = defaultdict(int)
    for place in Printing.objects.filter(card__game=game).values_list(
        "card_id", "card_set__code", "collector_number"
    ):
        places[place] += 1
    items: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for item in (
        ProductItem.objects.filter(product__game=game)
        .select_related("printing__card", "printing__card_set")
        .order_by(
            "zone",
            "printing__card__code",
            "printing__card_set__code",
            "printing__collector_number",
            "printing__variant",
        )
    ):
        items[item.product_id].append(_item(item, places))
    return [
        _compact(
            {**product_fields(product), "items": items[product.pk]},
            optional=("set", "name_en", "name_ja", "released", "card_count", "price_yen"),
        )
        for product in Product.objects.filter(game=game).select_related("card_set").order_by("code")
    ]


def product_fields(product: Product) -> dict[str, Any]:
    """A product's own fields in DeckLab catalog JSON (its ``items`` apart); the product's
    ``card_set`` should be selected with it."""
    return {
        "code": product.code,
        "kind": product.kind,
        "set": product.card_set.code if product.card_set else None,
        "name_en": product.name_en,
        "name_ja": product.name_ja,
        "released": product.release_date.isoformat() if product.release_date else None,
        "card_count": product.card_count,
        "price_yen": product.price_yen,
        "source": product.source,
        "demo": product.is_demo,
    }


def _item(item: ProductItem, places: dict[PrintingPlace, int]) -> dict[str, Any]:
    printing = item.printing
    entry: dict[str, Any] = {
        "card": printing.card.code,
        "quantity": item.quantity,
        "zone": item.zone,
        # set and number always: a card printed in several products needs them to be found
        "set": printing.card_set.code,
        "number": printing.collector_number,
    }
    # the variant only where the set and number still leave a choice (or it is not the plain one)
    if printing.variant or places[(printing.card_id, printing.card_set.code, entry["number"])] > 1:
        entry["variant"] = printing.variant
    return entry
