"""Catalog file formats a game brings with it (``CATALOG_FORMATS`` in its ``formats.py``),
recognised by their shape beside the shared ones (DeckLab catalog JSON, CSV)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from catalog.importers.bundle import CatalogBundle
from games import registry


@dataclass(frozen=True)
class CatalogFormat:
    name: str
    #: whether decoded JSON is in this format, and its bundle (``origin`` labels problems)
    recognises: Callable[[Any], bool]
    read: Callable[[Any, str], CatalogBundle]
    #: whether a folder is in this format, and its bundle
    recognises_folder: Callable[[Path], bool] | None = None
    read_folder: Callable[[Path], CatalogBundle] | None = None


def catalog_formats() -> list[CatalogFormat]:
    """Every registered game's catalog formats, in the games' order."""
    found: list[CatalogFormat] = []
    for game in registry.all_games():
        found.extend(game.catalog_formats)
    return found
