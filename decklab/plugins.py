"""Per-game plug-ins for any app, found by module name under a package.

``game_modules("decks.rules")`` imports every submodule of ``decks.rules`` and returns those
that declare a ``GAME_SLUG``, keyed by it: the decks and simulator apps register their
validators and engines this way, so a new game is a new module, never an edit to shared code.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from types import ModuleType


@cache
def game_modules(package: str) -> dict[str, ModuleType]:
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
