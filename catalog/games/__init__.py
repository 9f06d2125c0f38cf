"""The per-game seam of the catalog: a registry of ``GameSpec`` keyed by game slug.

Every module in this package (other than ``base``) that defines ``GAME`` is a game. Adding a
sixth game means adding one module here; nothing shared is edited. The other apps find their
own per-game pieces through ``decklab.plugins`` keyed by the same slugs.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from catalog.games.base import CardType, EmptySchema, Facet, GameSpec

__all__ = [
    "CardType",
    "EmptySchema",
    "Facet",
    "GameSpec",
    "all_games",
    "discover_games",
    "get_game",
    "is_game",
]


def discover_games(package: str) -> dict[str, GameSpec]:
    """Every ``GAME`` declared by a module of ``package``, in the games' sort order."""
    root = importlib.import_module(package)
    found: dict[str, GameSpec] = {}
    for info in pkgutil.iter_modules(root.__path__):
        if info.name.startswith("_") or info.name == "base":
            continue
        module = importlib.import_module(f"{package}.{info.name}")
        spec = getattr(module, "GAME", None)
        if isinstance(spec, GameSpec):
            if spec.slug in found:
                raise RuntimeError(f"Two catalog modules declare the game {spec.slug!r}")
            found[spec.slug] = spec
    return dict(sorted(found.items(), key=lambda item: (item[1].sort_order, item[0])))


@cache
def _registry() -> dict[str, GameSpec]:
    return discover_games(__name__)


def all_games() -> list[GameSpec]:
    return list(_registry().values())


def is_game(slug: str) -> bool:
    return slug in _registry()


def get_game(slug: str) -> GameSpec:
    try:
        return _registry()[slug]
    except KeyError:
        raise LookupError(f"Unknown game {slug!r}") from None
