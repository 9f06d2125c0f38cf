"""catalog_import_*: read any supported catalog input, validate all of it, write all or nothing.

Formats, recognised by their shape (docs/catalog-format.md):
- DeckLab catalog JSON (``"format": "decklab-catalog"``);
- the formats a game brings with it (``catalog.importers.formats``), e.g. another
  site's deck files, or a folder of them with its database seed;
- a CSV card list (header row; the game from a ``game`` column or the ``game`` argument).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from catalog.cache import catalog_version_bump
from catalog.importers import csv_cards
from catalog.importers.bundle import CatalogBundle, CatalogImportError, ImportProblem
from catalog.importers.decklab_json import bundle_from_decklab, looks_like_decklab
from catalog.importers.formats import catalog_formats
from catalog.importers.validate import validate_bundle
from catalog.importers.write import ImportReport, write_bundle
from catalog.maintenance import analyze_catalog
from decklab import safe_input

# Lazy: translated when the problem is recorded (str() it), in the language active then.
UNRECOGNISED = gettext_lazy(
    "not a catalog this importer knows: expected DeckLab catalog JSON, a CSV card list, or a "
    "file in one of the games' own catalog formats"
)


def _too_big(size: int) -> bool:
    return size > int(getattr(settings, "CATALOG_UPLOAD_MAX_BYTES", 20 * 1024 * 1024))


def bundles_from_text(text: str, *, name: str, game: str | None = None) -> list[CatalogBundle]:
    """Parse one file's text; ``name`` labels every problem and picks CSV by its suffix."""
    try:
        safe_input.check_text(text)
        if name.lower().endswith(".csv"):
            return [csv_cards.parse_csv(text, name, game)]
        data: Any = safe_input.loads(text)
    except safe_input.UnsafeInput as exc:
        unsafe = CatalogBundle(game="", origin=name)
        unsafe.problem(name, str(exc))
        return [unsafe]
    except json.JSONDecodeError as exc:
        broken = CatalogBundle(game="", origin=name)
        broken.problem(
            f"{name}:{exc.lineno}",
            _("broken JSON: %(error)s (column %(column)d)")
            % {"error": exc.msg, "column": exc.colno},
        )
        return [broken]
    if looks_like_decklab(data):
        return [bundle_from_decklab(data, name)]
    for fmt in catalog_formats():
        if fmt.recognises(data):
            return [fmt.read(data, name)]
    failed = CatalogBundle(game="", origin=name)
    failed.problem(name, str(UNRECOGNISED))
    return [failed]


def bundles_from_path(path: Path, *, game: str | None = None) -> list[CatalogBundle]:
    if path.is_dir():
        for fmt in catalog_formats():
            if fmt.recognises_folder and fmt.read_folder and fmt.recognises_folder(path):
                return [fmt.read_folder(path)]
        files = sorted(p for p in path.iterdir() if p.suffix.lower() in {".json", ".csv"})
        if not files:
            failed = CatalogBundle(game="", origin=str(path))
            failed.problem(str(path), _("no .json or .csv catalog files in this folder"))
            return [failed]
        return [b for f in files for b in bundles_from_path(f, game=game)]
    if not path.exists():
        missing = CatalogBundle(game="", origin=str(path))
        missing.problem(str(path), _("no such file or folder"))
        return [missing]
    if _too_big(path.stat().st_size):
        big = CatalogBundle(game="", origin=str(path))
        big.problem(str(path), _("file is larger than the catalog import limit"))
        return [big]
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        bad = CatalogBundle(game="", origin=str(path))
        bad.problem(str(path), _("not UTF-8 text (byte %(byte)d)") % {"byte": exc.start})
        return [bad]
    return bundles_from_text(text, name=str(path), game=game)


def import_bundles(bundles: list[CatalogBundle]) -> ImportReport:
    """Validate every bundle, then write all of them in one transaction, or nothing.

    Bundles are validated in order inside the transaction, so a later file may refer to the
    sets and cards of an earlier one; any problem anywhere rolls everything back.
    """
    report = ImportReport(game=", ".join(sorted({b.game for b in bundles if b.game})))
    problems: list[ImportProblem] = []
    with transaction.atomic():
        for bundle in bundles:
            found = validate_bundle(bundle)
            if found:
                problems.extend(found)
                continue
            if not problems:
                report.merge(write_bundle(bundle))
        if problems:
            transaction.set_rollback(True)
        else:
            # fresh statistics once the rows are visible (catalog.maintenance says why)
            written = report.written()
            transaction.on_commit(lambda: analyze_catalog(written=written))
            transaction.on_commit(catalog_version_bump)
    if problems:
        raise CatalogImportError(problems)
    return report


def catalog_import_path(path: Path | str, *, game: str | None = None) -> ImportReport:
    return import_bundles(bundles_from_path(Path(path), game=game))


def catalog_import_text(text: str, *, name: str, game: str | None = None) -> ImportReport:
    if _too_big(len(text.encode("utf-8"))):
        raise CatalogImportError(
            [ImportProblem(name, _("file is larger than the catalog import limit"))]
        )
    return import_bundles(bundles_from_text(text, name=name, game=game))
