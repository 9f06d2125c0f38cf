"""Per-game simulation modules (simulator/games/*.py), found by module like the other apps.

Each module declares ``GAME_SLUG`` and ``SCHEDULE`` (its draw schedule, for test hands and
odds), and ``ENGINE`` when the game has a goldfish engine.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from types import ModuleType
from typing import Any

from simulator.engine.engine import Engine
from simulator.engine.schedule import DrawSchedule

GAMES_PACKAGE = "simulator.games"


@cache
def _modules(package: str = GAMES_PACKAGE) -> dict[str, ModuleType]:
    root = importlib.import_module(package)
    found: dict[str, ModuleType] = {}
    for info in pkgutil.iter_modules(root.__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{package}.{info.name}")
        slug = getattr(module, "GAME_SLUG", None)
        if isinstance(slug, str):
            found[slug] = module
    return found


def schedule_for(slug: str) -> DrawSchedule:
    module = _modules().get(slug)
    if module is None:
        raise LookupError(f"No simulation module for the game {slug!r}")
    schedule: DrawSchedule = module.SCHEDULE
    return schedule


def engine_for(slug: str) -> Engine[Any, Any] | None:
    """The game's engine, or None when the game has test hands and odds but no goldfish."""
    module = _modules().get(slug)
    engine = getattr(module, "ENGINE", None) if module else None
    return engine if isinstance(engine, Engine) else None


def engines() -> dict[str, Engine[Any, Any]]:
    return {slug: e for slug in _modules() if (e := engine_for(slug)) is not None}
