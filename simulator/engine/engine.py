"""The base every game's engine subclasses (python-chess style: a few named hooks and
class-level facts), and ``run_games``, the loop a worker runs for one chunk of a run.

A game is fully determined by its seed and the policy's choices: the shuffle at the start
is the explicit chance step, drawn from the game's own generator.
"""

from __future__ import annotations

import random
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, ClassVar, Generic, TypeVar

from simulator.engine.cards import SimDeck
from simulator.engine.goals import Goal, Values, values_by_play
from simulator.engine.metrics import Metrics
from simulator.engine.params import ParamSpec
from simulator.engine.rng import game_rng
from simulator.engine.schedule import DrawSchedule

Action = Any
S = TypeVar("S", bound="GameState")
P = TypeVar("P")  # what ``prepare`` builds once per deck


class GameState(ABC):
    """One goldfish game in progress. Engines keep their fast path separate; this API serves
    the conformance tests, transcripts and step-by-step test hands."""

    turn: int

    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def legal_actions(self) -> list[Action]: ...

    @abstractmethod
    def apply(self, action: Action) -> str:
        """Play ``action``; returns one transcript line describing it."""

    @abstractmethod
    def copy(self) -> GameState:
        """An independent copy: playing on it never changes this state."""


class Engine(ABC, Generic[P, S]):
    """A goldfish engine for one game."""

    #: the game slug (also the registry key)
    slug: ClassVar[str]
    #: bumped when the engine's play changes, so stored results say which rules made them
    version: ClassVar[int] = 1
    params: ClassVar[ParamSpec] = ParamSpec()
    schedule: ClassVar[DrawSchedule]
    #: what the engine does not model, listed on the results page (marked with N_)
    not_modelled: ClassVar[tuple[str, ...]] = ()
    #: where the published rules are silent: what the engine assumes (marked with N_), listed
    #: on the run and results pages beside the parameters that let a player change it
    assumptions: ClassVar[tuple[str, ...]] = ()
    #: the digest lines the engine applies, e.g. ("my-game.md:22", ...)
    cites: ClassVar[tuple[str, ...]] = ()
    #: a bound on turns, so every play-out ends
    max_turns: ClassVar[int] = 60
    #: the measures a player may tune a deck for (``simulator.engine.goals``), each engine's
    #: own, declared in its package's ``goals.py``; empty: the engine's decks are not tuned
    goals: ClassVar[tuple[Goal, ...]] = ()

    def warm(self) -> None:
        """Compile this engine's batch kernel, or load it from numba's on-disk cache, so no
        run waits for a compiler (workers call it as they start). Engines with a kernel
        override it; the rest have nothing to warm."""

    def tune_problems(self, deck: SimDeck) -> list[str]:
        """Why this deck's cards are not the player's to choose, so it cannot be tuned
        (e.g. a deck that is exactly an official product); empty: it can. English marked with N_."""
        return []

    def goal_values(
        self,
        prepared: P,
        params: dict[str, Any],
        goal: Goal,
        turn: int | None,
        run_seed: int,
        start: int,
        count: int,
    ) -> Values:
        """Each of games ``start`` .. ``start + count - 1``'s value of ``goal``, in game
        order. Engines with a kernel override it to read the kernel's per-game rows; the
        values must equal ``values_by_play``'s, game by game."""
        return values_by_play(self, prepared, params, goal, turn, run_seed, start, count)

    def deck_problems(self, deck: SimDeck) -> list[str]:
        """Why this deck cannot be simulated (empty: it can)."""
        return [] if deck.size else ["the deck has no cards to draw"]

    def require_playable(self, deck: SimDeck) -> None:
        """For ``prepare``: a ValueError naming every problem of a deck that cannot be played
        (the run services check ``deck_problems`` first and tell the player)."""
        problems = self.deck_problems(deck)
        if problems:
            raise ValueError("; ".join(problems))

    @abstractmethod
    def prepare(self, deck: SimDeck, params: dict[str, Any]) -> P:
        """Precompute what every game of the run shares (tables of integers)."""

    @abstractmethod
    def new_game(self, prepared: P, params: dict[str, Any], rng: random.Random) -> S:
        """A game after its set-up (the shuffle drawn from ``rng``)."""

    @abstractmethod
    def choose(self, state: S) -> Action:
        """The goldfish policy: the action this engine's player takes in ``state``."""

    @abstractmethod
    def record(self, state: S, metrics: Metrics) -> None:
        """Add a finished game's measures to ``metrics``."""

    def play(
        self,
        prepared: P,
        params: dict[str, Any],
        rng: random.Random,
        metrics: Metrics,
        transcript: list[str] | None = None,
    ) -> None:
        """One whole game by the policy. Engines may override with a faster loop that plays
        the same game (the determinism and golden tests compare the two)."""
        state = self.new_game(prepared, params, rng)
        while not state.is_over():
            line = state.apply(self.choose(state))
            if transcript is not None:
                transcript.append(line)
        self.record(state, metrics)

    def play_games(
        self, prepared: P, params: dict[str, Any], run_seed: int, start: int, count: int
    ) -> Metrics:
        """Games ``start`` .. ``start + count - 1`` of a run, their measures added up (games
        counted). Engines may override it with a batch path -- deals for all the games at
        once, measures recorded once per batch -- that plays the same games as ``play`` on
        ``game_rng(run_seed, index)`` (the conformance tests compare the two)."""
        metrics = Metrics()
        for index in range(start, start + count):
            self.play(prepared, params, game_rng(run_seed, index), metrics)
        metrics.games += count
        return metrics


#: games in the first call of ``play_games``; progress is reported between calls
BATCH = 1000
#: later calls double while one takes less than half of this, up to ``MAX_BATCH`` games: a
#: compiled kernel plays a thousand games in about a millisecond, and every call has a fixed
#: cost (arrays, a ``Metrics`` merge: 6-10 % of the fastest kernel's time at a thousand
#: games), while a cancel is still heard within a tenth of a second
BATCH_SECONDS = 0.05
MAX_BATCH = 64_000


def run_games(
    engine: Engine[Any, Any],
    deck: SimDeck,
    params: dict[str, Any],
    *,
    run_seed: int,
    start: int,
    count: int,
    on_progress: Callable[[int], None] | None = None,
) -> Metrics:
    """Play games ``start`` .. ``start + count - 1`` of a run; the result depends only on the
    run seed and the indexes, never on how the run was split."""
    return play_prepared(
        engine,
        engine.prepare(deck, params),
        params,
        run_seed=run_seed,
        start=start,
        count=count,
        on_progress=on_progress,
    )


def play_prepared(
    engine: Engine[Any, Any],
    prepared: Any,
    params: dict[str, Any],
    *,
    run_seed: int,
    start: int,
    count: int,
    on_progress: Callable[[int], None] | None = None,
) -> Metrics:
    """``run_games`` on tables ``engine.prepare`` built earlier: a worker keeps them for the
    chunks of a run it plays (``prepare`` is pure, so reusing its result changes nothing)."""
    metrics = Metrics()
    played, batch = 0, BATCH
    while played < count:
        size = min(batch, count - played)
        began = time.perf_counter()
        metrics.merge(engine.play_games(prepared, params, run_seed, start + played, size))
        played += size
        if on_progress is not None:
            on_progress(played)
        if batch < MAX_BATCH and time.perf_counter() - began < BATCH_SECONDS / 2:
            batch *= 2
    return metrics


def transcript_of(
    engine: Engine[Any, Any], deck: SimDeck, params: dict[str, Any], *, run_seed: int, index: int
) -> list[str]:
    """The move-by-move transcript of one game (golden files, debugging, the results page)."""
    lines: list[str] = []
    engine.play(engine.prepare(deck, params), params, game_rng(run_seed, index), Metrics(), lines)
    return lines
