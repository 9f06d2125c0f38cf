"""Seeds: every game of a run gets its own generator, seeded from (run seed, game index).

So a run's results are identical whatever the chunk size or the number of workers: game *i*
plays the same way whichever worker plays it, and in whatever order. Engines take all their
randomness from the generator they are handed, never from the module-level ``random``.
Engines that deal from counter-based keys (``simulator.engine.deal``) ask the generator for
its game's order instead of shuffling with it.
"""

from __future__ import annotations

import hashlib
import random

from simulator.engine.deal import deal_orders

MAX_SEED = 2**63 - 1


def game_seed(run_seed: int, index: int) -> int:
    """A 64-bit seed for game ``index`` of the run seeded ``run_seed`` (stable across Python
    versions and machines: a hash of the two numbers, not ``hash()``)."""
    digest = hashlib.blake2b(f"{run_seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little") & MAX_SEED


class GameRng(random.Random):
    """Game ``index`` of run ``run_seed``'s generator: a ``random.Random`` seeded as every
    engine's game always was, which also knows its game, so an engine that deals from
    counter-based keys deals in one game exactly what its chunk path deals (``order``)."""

    def __init__(self, run_seed: int, index: int) -> None:
        super().__init__(game_seed(run_seed, index))
        self.run_seed = run_seed
        self.index = index

    def order(self, size: int) -> list[int]:
        """This game's deck order (``simulator.engine.deal.deal_orders``)."""
        order: list[int] = deal_orders(self.run_seed, self.index, 1, size)[0].tolist()
        return order

    def __reduce__(self) -> tuple[object, ...]:
        # copies and pickles keep the game and the generator's position
        return (self.__class__, (self.run_seed, self.index), self.getstate())


def game_rng(run_seed: int, index: int) -> GameRng:
    """The generator for game ``index`` of a run."""
    return GameRng(run_seed, index)


def dealt_order(rng: random.Random, size: int) -> list[int]:
    """The deck order of the game ``rng`` belongs to. Only a run's own generator knows its
    game; any other generator would silently deal other games, so it is refused."""
    if not isinstance(rng, GameRng):
        raise TypeError("deal from game_rng(run_seed, index): a plain Random knows no game")
    return rng.order(size)


def new_run_seed() -> int:
    """A fresh seed for a run that was not given one (kept on the run, so it replays)."""
    return random.SystemRandom().randrange(1, MAX_SEED)
