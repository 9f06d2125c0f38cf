"""Seeds: every game of a run gets its own generator, seeded from (run seed, game index).

So a run's results are identical whatever the chunk size or the number of workers: game *i*
plays the same way whichever worker plays it, and in whatever order. Engines take all their
randomness from the generator they are handed, never from the module-level ``random``.
"""

from __future__ import annotations

import hashlib
import random

MAX_SEED = 2**63 - 1


def game_seed(run_seed: int, index: int) -> int:
    """A 64-bit seed for game ``index`` of the run seeded ``run_seed`` (stable across Python
    versions and machines: a hash of the two numbers, not ``hash()``)."""
    digest = hashlib.blake2b(f"{run_seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little") & MAX_SEED


def game_rng(run_seed: int, index: int) -> random.Random:
    """The generator for game ``index`` of a run."""
    return random.Random(game_seed(run_seed, index))


def new_run_seed() -> int:
    """A fresh seed for a run that was not given one (kept on the run, so it replays)."""
    return random.SystemRandom().randrange(1, MAX_SEED)
