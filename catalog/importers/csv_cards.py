"""The CSV card-list format (docs/catalog-format.md) -> CatalogBundle.

(Stub: filled in by the CSV importer work.)
"""

from __future__ import annotations

from catalog.importers.bundle import CatalogBundle


def parse_csv(text: str, origin: str, game: str | None) -> CatalogBundle:
    raise NotImplementedError
