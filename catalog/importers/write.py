"""Apply a validated CatalogBundle: upsert by natural keys, in one transaction.

Idempotent: re-importing the same file changes nothing; a changed file updates rows in place
(never duplicates). A product's contents are replaced by the file's list.

Work follows the file, not the catalog: only the rows the file names are read. On PostgreSQL
cards and printings are written set-based (``write_pg``: a COPY and a few statements per
table, whatever the number of cards); elsewhere (SQLite) in bulk through the ORM, with the
existing rows looked up by the file's codes in batches.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.db import connection, models, transaction

from catalog.importers import write_pg
from catalog.importers.bundle import CardRow, CatalogBundle
from catalog.models import Card, CardSet, Game, Printing, Product, ProductItem
from catalog.search import search_key
from catalog.spec import get_game

M = TypeVar("M", bound=models.Model)

#: codes per lookup query of the ORM path (SQLite's bound on a statement's parameters)
LOOKUP_BATCH = 900


@dataclass
class ImportReport:
    game: str
    created: Counter[str] = field(default_factory=Counter)
    updated: Counter[str] = field(default_factory=Counter)
    unchanged: Counter[str] = field(default_factory=Counter)

    def summary(self) -> str:
        kinds = ["sets", "cards", "printings", "products"]
        return f"{self.game}: " + "; ".join(
            f"{kind} {self.created[kind]} new, {self.updated[kind]} updated, "
            f"{self.unchanged[kind]} unchanged"
            for kind in kinds
        )

    def tally(self, kind: str, *, created: int, updated: int, total: int) -> None:
        """Count rows written in bulk; a kind with none of a sort stays out of that Counter
        (an import that changed nothing has empty ``created`` and ``updated``)."""
        for counter, n in (
            (self.created, created),
            (self.updated, updated),
            (self.unchanged, total - created - updated),
        ):
            if n:
                counter[kind] += n

    def written(self) -> dict[str, int]:
        """Rows created or updated, by table (``catalog.maintenance.analyze_catalog``)."""
        tables = {
            "sets": "catalog_cardset",
            "cards": "catalog_card",
            "printings": "catalog_printing",
        }
        return {table: self.created[kind] + self.updated[kind] for kind, table in tables.items()}

    def merge(self, other: ImportReport) -> None:
        self.created.update(other.created)
        self.updated.update(other.updated)
        self.unchanged.update(other.unchanged)


def set_based() -> bool:
    """Whether cards and printings are written set-based (PostgreSQL) or through the ORM."""
    return connection.vendor == "postgresql"


def game_sync(slug: str) -> Game:
    """The Game row for a registered game, created or refreshed from its spec."""
    spec = get_game(slug)
    game, _created = Game.objects.update_or_create(
        slug=slug,
        defaults={"name_en": spec.name_en, "name_ja": spec.name_ja, "sort_order": spec.sort_order},
    )
    return game


def _differs(obj: models.Model, key: str, value: Any) -> bool:
    """Whether ``obj.key`` differs from ``value``; a foreign key is compared by its id.

    Reading ``obj.card`` would fetch the related row, one query per existing row; the ids
    answer the same question (model instances are equal when their pks are) without a query.
    """
    field = obj._meta.get_field(key)
    if isinstance(field, models.ForeignKey):
        return bool(getattr(obj, field.attname) != (value.pk if value is not None else None))
    return bool(getattr(obj, key) != value)


class _Upsert:
    """Collects new and changed rows of one model, then writes them in bulk."""

    def __init__(self, report: ImportReport, kind: str) -> None:
        self.report = report
        self.kind = kind
        self.new: list[Any] = []
        self.changed: list[Any] = []
        self.fields: set[str] = set()

    def put(self, existing: M | None, values: dict[str, Any], make: type[M]) -> M:
        if existing is None:
            obj = make(**values)
            self.new.append(obj)
            self.report.created[self.kind] += 1
            return obj
        diff = {k: v for k, v in values.items() if _differs(existing, k, v)}
        if diff:
            for key, value in diff.items():
                setattr(existing, key, value)
            self.fields.update(diff)
            self.changed.append(existing)
            self.report.updated[self.kind] += 1
        else:
            self.report.unchanged[self.kind] += 1
        return existing

    def flush(self, model: type[M]) -> None:
        if self.new:
            model._default_manager.bulk_create(self.new, batch_size=500)
        if self.changed:
            model._default_manager.bulk_update(self.changed, sorted(self.fields), batch_size=500)


def write_bundle(bundle: CatalogBundle) -> ImportReport:
    """Write a bundle that ``validate_bundle`` found clean. Callers hold the transaction."""
    report = ImportReport(game=bundle.game)
    game = game_sync(bundle.game)

    sets = {s.code: s for s in CardSet.objects.filter(game=game)}
    upsert = _Upsert(report, "sets")
    for srow in bundle.sets:
        sets[srow.code] = upsert.put(
            sets.get(srow.code),
            {
                "game": game,
                "code": srow.code,
                "name_en": srow.name_en,
                "name_ja": srow.name_ja,
                "kind": srow.kind,
                "release_date": srow.release_date,
                "release_precision": srow.release_precision,
                "official_size": srow.official_size,
                "source": srow.source,
                "is_demo": srow.is_demo,
            },
            CardSet,
        )
    upsert.flush(CardSet)

    if bundle.cards and set_based():
        _write_cards_pg(bundle, game, sets, report)
    elif bundle.cards:
        _write_cards_orm(bundle, game, sets, report)

    products = {
        p.code: p
        for p in Product.objects.filter(game=game, code__in=[p.code for p in bundle.products])
    }
    upsert = _Upsert(report, "products")
    for prod in bundle.products:
        products[prod.code] = upsert.put(
            products.get(prod.code),
            {
                "game": game,
                "code": prod.code,
                "kind": prod.kind,
                "name_en": prod.name_en,
                "name_ja": prod.name_ja,
                "card_set": sets[prod.set_code] if prod.set_code else None,
                "release_date": prod.release_date,
                "card_count": prod.card_count,
                "price_yen": prod.price_yen,
                "source": prod.source,
                "is_demo": prod.is_demo,
            },
            Product,
        )
    upsert.flush(Product)

    if bundle.products:
        named = sorted({item.card_code for prod in bundle.products for item in prod.items})
        by_identity = {
            (code, set_code, number, variant): pk
            for pk, code, set_code, number, variant in Printing.objects.filter(
                card__game=game, card__code__in=named
            ).values_list("pk", "card__code", "card_set__code", "collector_number", "variant")
        }
        touched = [products[prod.code] for prod in bundle.products]
        ProductItem.objects.filter(product__in=touched).delete()
        # validate_bundle resolved every item to exactly one printing (set, number, variant)
        items = [
            ProductItem(
                product=products[prod.code],
                printing_id=by_identity[
                    (
                        item.card_code,
                        item.set_code or "",
                        item.collector_number or "",
                        item.variant or "",
                    )
                ],
                zone=item.zone,
                quantity=item.quantity,
            )
            for prod in bundle.products
            for item in prod.items
        ]
        ProductItem.objects.bulk_create(items, batch_size=1000)
    return report


def _card_values(row: CardRow) -> dict[str, Any]:
    return {
        "name_en": row.name_en,
        "name_ja": row.name_ja,
        "card_type": row.card_type,
        "attributes": row.attributes,
        "copy_limit": row.copy_limit,
        "source": row.source,
        "is_demo": row.is_demo,
        # bulk writes skip save(), so the search key is computed here
        "search_key": search_key(row.name_en, row.name_ja),
    }


def _write_cards_pg(
    bundle: CatalogBundle, game: Game, sets: dict[str, CardSet], report: ImportReport
) -> None:
    ids, created, updated = write_pg.upsert_cards(
        game_id=game.pk,
        rows=[{"code": row.code, **_card_values(row)} for row in bundle.cards],
    )
    report.tally("cards", created=created, updated=updated, total=len(bundle.cards))
    printings = [
        (
            ids[row.code],
            sets[prow.set_code].pk,
            prow.collector_number,
            prow.variant,
            prow.attributes,
        )
        for row in bundle.cards
        for prow in row.printings
    ]
    created, updated = write_pg.upsert_printings(rows=printings) if printings else (0, 0)
    report.tally("printings", created=created, updated=updated, total=len(printings))


def _batches(items: list[Any]) -> Iterator[list[Any]]:
    for start in range(0, len(items), LOOKUP_BATCH):
        yield items[start : start + LOOKUP_BATCH]


def _write_cards_orm(
    bundle: CatalogBundle, game: Game, sets: dict[str, CardSet], report: ImportReport
) -> None:
    codes = [row.code for row in bundle.cards]
    cards = {
        c.code: c
        for batch in _batches(codes)
        for c in Card.objects.filter(game=game, code__in=batch)
    }
    upsert = _Upsert(report, "cards")
    for row in bundle.cards:
        cards[row.code] = upsert.put(
            cards.get(row.code), {"game": game, "code": row.code, **_card_values(row)}, Card
        )
    upsert.flush(Card)

    card_ids = [cards[code].pk for code in codes]
    printings = {
        (p.card_id, p.card_set_id, p.collector_number, p.variant): p
        for batch in _batches(card_ids)
        for p in Printing.objects.filter(card_id__in=batch)
    }
    upsert = _Upsert(report, "printings")
    for row in bundle.cards:
        card = cards[row.code]
        for prow in row.printings:
            card_set = sets[prow.set_code]
            key = (card.pk, card_set.pk, prow.collector_number, prow.variant)
            printings[key] = upsert.put(
                printings.get(key),
                {
                    "card": card,
                    "card_set": card_set,
                    "collector_number": prow.collector_number,
                    "variant": prow.variant,
                    "attributes": prow.attributes,
                },
                Printing,
            )
    upsert.flush(Printing)


def write_bundles(bundles: list[CatalogBundle]) -> ImportReport:
    """Write several clean bundles as one all-or-nothing transaction."""
    total = ImportReport(game=", ".join(sorted({b.game for b in bundles})))
    with transaction.atomic():
        for bundle in bundles:
            total.merge(write_bundle(bundle))
    return total
