"""No run waits for a compiler: a real ``celery worker`` warms every registered engine before
it says it is ready, loading the kernels this machine compiled before from numba's disk cache
(compiling none), and says so in one log line; the cache lives under VAR_DIR, which DeckLab
can always write to. The worker's log must hold no error (the ``celery_logs`` fixture)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from django.conf import settings

from games import registry
from simulator.engine import compiled
from simulator.warmup import engines_warm
from tests.celery_process import StartCelery, wait_for, worker_arguments

WARMED = re.compile(r"simulation engines warmed in [\d.]+ s \((?P<each>[^)]*)\): (?P<rest>.*)")


def test_the_kernels_disk_cache_is_under_the_var_directory() -> None:
    cache = Path(settings.VAR_DIR) / "numba"
    assert os.environ["NUMBA_CACHE_DIR"] == str(cache)
    assert compiled._NUMBA is not None, "numba is a dependency (requirements.lock)"
    compiled.warm_deal()
    kernel: Any = compiled.deal_order  # a numba dispatcher
    assert Path(kernel.stats.cache_path).is_relative_to(cache)


def test_a_fresh_worker_warms_every_engine_from_the_disk_cache_before_it_is_ready(
    celery_processes: StartCelery,
) -> None:
    # This process fills the cache first (it compiles only what changed since the last run).
    assert not engines_warm().failed
    worker = celery_processes("warm", *worker_arguments("warm"))
    log = wait_for(
        "the worker to be ready",
        lambda: (text := worker.log.read_text(errors="replace")) and " ready." in text and text,
        120,
        [worker.log],
    )
    found = WARMED.search(log)
    assert found, log[-3000:]
    assert found.start() < log.index(" ready.")
    warmed = dict(part.rsplit(" ", 2)[:2] for part in found["each"].split(", "))
    assert set(warmed) == set(registry.engines())
    assert compiled.available()
    loaded = r"\d+ kernel signatures loaded from the disk cache, 0 compiled now"
    assert re.match(loaded, found["rest"]), found["rest"]
