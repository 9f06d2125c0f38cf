"""What a worker keeps between the chunks of a run: the run's frozen play data and the
engine's prepared tables.

Everything a chunk plays from is frozen when its run is created (engine version, parameters,
seed, deck, split), so a worker reads it once per run instead of once per chunk, and builds
the engine's tables (``Engine.prepare``, pure: the same deck and parameters give the same
tables) once instead of with cold caches at the start of every chunk. What changes while a run
goes (its status, its chunks) is never kept here: the claim and the store read it in the
database.

The cache is per thread, because an engine's prepared object may hold scratch space its
batch path writes to: a prefork child (one thread) keeps one cache; a thread pool or the test
that plays chunks from several threads never shares tables between two chunks at once. It
holds the ``KEPT_RUNS`` runs used last (a worker shares its time between players' runs in
turn, a few at once).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from simulator.engine.engine import Engine
from simulator.serialise import sim_deck_from_json

#: runs whose tables a worker thread keeps (an engine's tables take a few MB at most)
KEPT_RUNS = 4


def chunk_bounds(games: int, chunk_size: int, index: int) -> tuple[int, int]:
    """The first game and the number of games of chunk ``index`` of a run: how ``run_create``
    splits a run, so a worker knows a chunk's games from its run without reading its row."""
    start = index * chunk_size
    return start, min(chunk_size, games - start)


@dataclass(eq=False)
class RunPlay:
    """One run as its chunks are played: its frozen data, and its tables once built."""

    run_id: int
    public_id: str
    owner_id: int
    #: the engine, or for a round of a deck tuning its paired stand-in (simulator/tuning/)
    engine: Engine[Any, Any] | Any
    params: dict[str, Any]
    seed: int
    games: int
    chunk_size: int
    deck_data: dict[str, Any] | None
    #: this worker has seen the run running (it marks a queued run running once)
    started: bool = False
    #: kept from an earlier chunk rather than read for this one
    kept: bool = False
    _prepared: Any = field(default=None, repr=False)
    _ready: bool = field(default=False, repr=False)

    def bounds(self, index: int) -> tuple[int, int]:
        return chunk_bounds(self.games, self.chunk_size, index)

    def prepared(self) -> Any:
        """The engine's tables for this run's deck and parameters, built on first use."""
        if not self._ready:
            assert self.deck_data is not None
            self._prepared = self.engine.prepare(sim_deck_from_json(self.deck_data), self.params)
            self._ready = True
            self.deck_data = None  # the tables are all the chunks need from now on
        return self._prepared


class _Kept(threading.local):
    def __init__(self) -> None:
        self.runs: OrderedDict[int, RunPlay] = OrderedDict()


_kept = _Kept()


def run_play_kept(run_id: int) -> RunPlay | None:
    """The run as this thread last kept it (and now the most recently used)."""
    play = _kept.runs.get(run_id)
    if play is not None:
        _kept.runs.move_to_end(run_id)
        play.kept = True
    return play


def run_play_keep(play: RunPlay) -> None:
    runs = _kept.runs
    runs[play.run_id] = play
    runs.move_to_end(play.run_id)
    while len(runs) > KEPT_RUNS:
        runs.popitem(last=False)


def run_play_forget(run_id: int | None = None) -> None:
    """Drop one run (it ended) or, with no id, every run this thread keeps."""
    if run_id is None:
        _kept.runs.clear()
    else:
        _kept.runs.pop(run_id, None)
