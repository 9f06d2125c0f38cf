"""Unmatched: unmatched.cards deck JSON and the shared/data/unmatched folder -> CatalogBundle.

(Stub: filled in by the Unmatched importer work.)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from catalog.importers.bundle import CatalogBundle


def looks_like_unmatched_deck(data: Any) -> bool:
    return isinstance(data, dict) and "hero" in data and "cards" in data


def bundle_from_unmatched_deck(data: Any, origin: str) -> CatalogBundle:
    raise NotImplementedError


def is_unmatched_folder(path: Path) -> bool:
    return (path / "decks").is_dir()


def bundle_from_unmatched_folder(path: Path) -> CatalogBundle:
    raise NotImplementedError
