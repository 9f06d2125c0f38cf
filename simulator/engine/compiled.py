"""The compiled path of the engines: numba, when it loads, and the one deal every kernel uses.

An engine's batch kernel (``games/<game>/kernel.py``) is a plain function over typed numpy
arrays, compiled by ``kernel`` below with numba's on-disk cache, so a worker compiles it once
per machine and later processes load the machine code. Where numba cannot load (a platform
without wheels) or ``DECKLAB_COMPILED=0`` turns it off, ``available()`` is false, the engine
plays its Python batch path, and ``fallback_notice`` says so once in the log: the two paths
play the same games (every engine's kernel tests compare them seed by seed), so the answer
never depends on which one ran.

``deal_order`` is ``simulator.engine.deal.deal_orders`` for one game, written for numba: the
same splitmix64 keys and the same stable order (an insertion sort keeps equal keys in place,
as the stable argsort does), so a kernel deals exactly what the chunk path and the state API
deal without a numpy call per game.
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

log = logging.getLogger(__name__)

F = TypeVar("F", bound=Callable[..., Any])

try:  # numba is a dependency; a platform without its wheels still plays, on the Python path
    import numba

    _NUMBA: Any = numba
except ImportError:  # pragma: no cover - exercised by DECKLAB_COMPILED=0 in the tests
    _NUMBA = None


def _cache_generation() -> str:
    """A name for this module's source and numba's version. numba keys a cached kernel by its
    own file only, yet every kernel inlines ``deal_order`` from here: a changed deal would go
    on being played from the cache. Each generation gets a folder of its own."""
    digest = hashlib.blake2b(Path(__file__).read_bytes(), digest_size=6)
    digest.update(str(getattr(_NUMBA, "__version__", "")).encode())
    return digest.hexdigest()


if _NUMBA is not None and _NUMBA.config.CACHE_DIR:
    # the folder the settings chose (NUMBA_CACHE_DIR), one level down per generation
    _NUMBA.config.CACHE_DIR = str(Path(_NUMBA.config.CACHE_DIR) / _cache_generation())

_noticed: set[str] = set()


def available() -> bool:
    """Whether kernels run compiled (numba loads and ``DECKLAB_COMPILED`` is not "0")."""
    return _NUMBA is not None and os.environ.get("DECKLAB_COMPILED", "1") != "0"


def fallback_notice(slug: str) -> None:
    """One log line per process and game when a batch falls back to the Python path."""
    if slug not in _noticed:
        _noticed.add(slug)
        log.info("engine %s: compiled kernels unavailable, playing the Python batch path", slug)


def kernel(function: F) -> F:
    """``function`` compiled by numba (no Python objects, cached on disk, the GIL released),
    or ``function`` itself where numba is missing (never called then: see ``available``)."""
    if _NUMBA is None:
        return function
    compiled: F = _NUMBA.njit(cache=True, nogil=True)(function)
    return compiled


_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_SALT = np.uint64(0x5DEECE66D)
_S30, _S27, _S31 = np.uint64(30), np.uint64(27), np.uint64(31)


@kernel
def _mix(z: np.uint64) -> np.uint64:
    # every operand a uint64: numba would turn uint64 (op) int64 into a float
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@kernel
def deal_order(
    run_seed: int, index: int, size: int, keys: npt.NDArray[np.uint64], out: npt.NDArray[np.intp]
) -> None:
    """Game ``index``'s deck order into ``out[:size]`` (``keys`` is scratch at least as long):
    ``out[k]`` is the position in the unshuffled pile of the k-th card from the top."""
    base = _mix(np.uint64(run_seed) ^ _SALT)
    game = _mix(base + np.uint64(index) * _GAMMA)
    for j in range(size):
        key = _mix(game + np.uint64(j + 1) * _GAMMA)
        # insertion: shift the larger keys right; an equal key stays before (stable)
        k = j
        while k > 0 and keys[k - 1] > key:
            keys[k] = keys[k - 1]
            out[k] = out[k - 1]
            k -= 1
        keys[k] = key
        out[k] = j


def warm_deal() -> None:
    """Compile (or load from the cache) the deal: what every kernel's warm-up calls first."""
    if not available():
        return
    keys = np.empty(3, dtype=np.uint64)
    out = np.empty(3, dtype=np.intp)
    deal_order(1, 0, 3, keys, out)
