"""The 央華封神 engine's dice: the game's one generator (its d6 and its shuffle) and how many
faces of a d6 pass a story's check (pure Python)."""

from __future__ import annotations

import copy
import random
from typing import Any


def plain_faces(need: int) -> int:
    """Die faces (of 6) that pass a check needing ``need`` (ouka-fushin.md:62)."""
    return 6 if need <= 1 else max(0, 7 - need)


def hidden_faces(need: int) -> int:
    """Die faces that pass when a hidden success turns a failed 1/2/3 into 6/5/4
    (ouka-fushin.md:63, seed:200-204)."""
    return sum(1 for face in range(1, 7) if face >= need or (face <= 3 and 7 - face >= need))


def roll(rng: random.Random) -> int:
    """One d6 from the game's generator (the only way the engine rolls)."""
    return int(rng.random() * 6) + 1


def shuffle(cards: list[int], rng: random.Random) -> None:
    """The game's shuffle, in place: Fisher-Yates on ``rng.random()`` (a few times faster than
    ``random.shuffle``'s exact integer draws, and as determined by the seed)."""
    draw = rng.random
    for i in range(len(cards) - 1, 0, -1):
        j = int(draw() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]


class Dice:
    """The game's generator, held by a state: equal when the generators' states are equal (so
    a state's fields compare by value) and deep-copied with it (so a copy rolls on its own)."""

    __slots__ = ("rng",)

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def roll(self) -> int:
        return roll(self.rng)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Dice) and self.rng.getstate() == other.rng.getstate()

    __hash__ = None  # type: ignore[assignment]

    def __deepcopy__(self, memo: dict[int, Any]) -> Dice:
        return Dice(copy.deepcopy(self.rng, memo))
