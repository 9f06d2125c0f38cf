"""The engines warmed as a worker starts (decklab/celery.py): every registered engine's
``warm`` compiles its kernels, or loads them from numba's disk cache, before the worker takes
a chunk, and one log line says how long it took and whether anything had to be compiled.

A fresh worker on a machine that has compiled the kernels before loads them from the cache
(``NUMBA_CACHE_DIR``, decklab/settings.py) in well under a second; the first start after a
kernel changed compiles it, once per machine.
"""

from __future__ import annotations

import logging
import os
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from games import registry
from simulator.engine import compiled

logger = logging.getLogger(__name__)


def _dispatchers() -> list[Any]:
    """The compiled kernels loaded so far: numba dispatchers at the top of the engines'
    modules (games and the shared engine core)."""
    try:
        from numba.core.dispatcher import Dispatcher
    except ImportError:  # pragma: no cover - no numba: nothing compiled
        return []
    found: dict[int, Any] = {}
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith(("games.", "simulator.engine")):
            continue
        for value in list(vars(module).values()):
            if isinstance(value, Dispatcher):
                found[id(value)] = value
    return list(found.values())


@dataclass
class Warmed:
    """What a warm-up did: seconds per engine, kernels loaded from the cache or compiled."""

    seconds: dict[str, float] = field(default_factory=dict)
    total: float = 0.0
    compiled: bool = True
    loaded: int = 0
    built: int = 0
    failed: list[str] = field(default_factory=list)

    def line(self) -> str:
        each = ", ".join(f"{slug} {seconds:.2f} s" for slug, seconds in self.seconds.items())
        said = f"simulation engines warmed in {self.total:.2f} s ({each})"
        if not self.compiled:
            return f"{said}: compiled kernels off, the engines play their Python batch path"
        cache = os.environ.get("NUMBA_CACHE_DIR") or "__pycache__ beside each kernel"
        said += (
            f": {self.loaded} kernel signatures loaded from the disk cache, {self.built} "
            f"compiled now (cache: {cache})"
        )
        if self.failed:
            said += f"; warm-up failed for {', '.join(self.failed)}"
        return said


def engines_warm() -> Warmed:
    """Warm every registered engine; a warm-up that fails is logged and the others go on (that
    engine's first chunk then compiles, or fails its run visibly)."""
    warmed = Warmed(compiled=compiled.available())
    began = time.perf_counter()
    for slug, engine in registry.engines().items():
        started = time.perf_counter()
        try:
            engine.warm()
        except Exception:
            logger.exception("engine %s: the warm-up failed", slug)
            warmed.failed.append(slug)
        warmed.seconds[slug] = time.perf_counter() - started
    warmed.total = time.perf_counter() - began
    for dispatcher in _dispatchers():
        stats = dispatcher.stats
        warmed.loaded += len(stats.cache_hits)
        warmed.built += len(stats.cache_misses)
    return warmed
