"""What a run will cost in worker time, before it starts: games x turns x the engine's speed.

The speed is measured, not declared: the worker seconds per game-turn of the engine's last
succeeded runs (of the same version) on this installation's own workers. A chunk's worker
seconds are its CPU time (``services.run_chunk_execute``), which other processes on a busy
machine do not stretch: measured in wall time, runs taken under load made the engines look
slower, the chunks were cut smaller, each started cold and measured slower still. An engine with no
run yet is assumed to play ``DEFAULT_GAME_TURNS_PER_SECOND``. The turns are the run's bound on
a game's turns (its ``max_turns`` parameter where the engine has one, else the engine's), so a
run allowed twice the turns is counted twice as dear: a pessimistic but honest bound, as most
games end before it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from simulator.engine.engine import Engine
from simulator.models import MAX_CHUNK_SIZE, MIN_CHUNK_SIZE, RunStatus, SimulationRun

#: ten minutes of one worker: a bigger run would hold a worker from everyone else too long
MAX_RUN_WORKER_SECONDS = 600.0
#: an engine never run here: 5,000 games of 60 turns a second (on one core the slowest engine,
#: the slowest engine plays about 5,000 games a second, the fastest about 110,000 of up to 30 turns)
DEFAULT_GAME_TURNS_PER_SECOND = 300_000.0
#: how many recent runs the speed is measured over
SAMPLE_RUNS = 20
#: runs shorter than this say more about a chunk's fixed cost than the engine's speed
MIN_SAMPLE_GAMES = 1_000
#: the most worker time a chunk sized by cost takes: another player's run waits at most about
#: this long for a worker, progress moves, and a lost worker costs little
CHUNK_SECONDS = 0.5
#: the least: a chunk's fixed cost (a task and its round trip, two transactions of 15
#: statements in all, bench/chunk_overhead.py) stays well under half of its time
MIN_CHUNK_SECONDS = 0.1
#: more chunks than this only adds task and database overhead
MAX_CHUNKS = 1_000


def turn_bound(engine: Engine[Any, Any], params: Mapping[str, Any]) -> int:
    value = params.get("max_turns")
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    return int(engine.max_turns)


def game_turns_per_second(engine: Engine[Any, Any]) -> float:
    """The engine's measured speed on this installation's workers."""
    recent = list(
        SimulationRun.objects.filter(
            engine=engine.slug,
            engine_version=engine.version,
            status=RunStatus.SUCCEEDED,
            games__gte=MIN_SAMPLE_GAMES,
            worker_seconds__gt=0,
            # a tuning's round plays every move beside each game: its time is not a run's
            tuning__isnull=True,
        )
        .order_by("-finished_at")
        .values_list("games", "params", "worker_seconds")[:SAMPLE_RUNS]
    )
    seconds = sum(row[2] for row in recent)
    if not recent or seconds <= 0:
        return DEFAULT_GAME_TURNS_PER_SECOND
    game_turns = sum(games * turn_bound(engine, params or {}) for games, params, _s in recent)
    return game_turns / seconds


@dataclass(frozen=True)
class Estimate:
    seconds: float
    games_per_second: float
    #: the most games a run of these parameters may play within the bound
    max_games: int

    @property
    def too_dear(self) -> bool:
        return self.seconds > MAX_RUN_WORKER_SECONDS


def run_estimate(engine: Engine[Any, Any], params: Mapping[str, Any], games: int) -> Estimate:
    speed = game_turns_per_second(engine) / turn_bound(engine, params)
    return Estimate(
        seconds=games / speed,
        games_per_second=speed,
        max_games=int(MAX_RUN_WORKER_SECONDS * speed),
    )


def chunk_size_for(estimate: Estimate, games: int, spread: int) -> int:
    """Games per chunk. A run is cut into ``spread`` chunks (the workers one player may keep
    busy) or a multiple of it, so that any number of workers dividing it gets equal shares,
    each chunk taking at most ``CHUNK_SECONDS`` of worker time by the estimate (so the workers
    stay shared); a run too short for ``spread`` chunks of ``MIN_CHUNK_SECONDS`` (whose fixed
    cost would then dominate) gets fewer, a power of two. Never more than ``MAX_CHUNKS``
    chunks, nor chunks outside ``MIN_CHUNK_SIZE`` to ``MAX_CHUNK_SIZE`` games."""
    spread = max(1, spread)
    seconds = games / max(estimate.games_per_second, 1e-9)
    if seconds / spread >= MIN_CHUNK_SECONDS:
        count = spread * math.ceil(seconds / (spread * CHUNK_SECONDS))
    else:
        # a power of two, so that 2 or 4 workers still get equal shares (5 chunks on 2
        # workers gave one of them 3: a speed-up of 1.33 on a million games of the fastest engine)
        count = 2 ** int(math.log2(max(1, math.floor(seconds / MIN_CHUNK_SECONDS))))
    size = math.ceil(games / min(count, MAX_CHUNKS))
    return max(MIN_CHUNK_SIZE, min(size, MAX_CHUNK_SIZE), math.ceil(games / MAX_CHUNKS))
