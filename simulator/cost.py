"""What a run will cost in worker time, before it starts: games x turns x the engine's speed.

The speed is measured, not declared: the worker seconds per game-turn of the engine's last
succeeded runs (of the same version) on this installation's own workers. An engine with no
run yet is assumed to play ``DEFAULT_GAME_TURNS_PER_SECOND``. The turns are the run's bound on
a game's turns (its ``max_turns`` parameter where the engine has one, else the engine's), so a
run allowed twice the turns is counted twice as dear: a pessimistic but honest bound, as most
games end before it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from simulator.engine.engine import Engine
from simulator.models import RunStatus, SimulationRun

#: ten minutes of one worker: a bigger run would hold a worker from everyone else too long
MAX_RUN_WORKER_SECONDS = 600.0
#: an engine never run here: 5,000 games of 60 turns a second (the slowest engine plays about
#: 1,200 ten-turn games a second, the fastest 25,000 games of up to 60 turns)
DEFAULT_GAME_TURNS_PER_SECOND = 300_000.0
#: how many recent runs the speed is measured over
SAMPLE_RUNS = 20
#: runs shorter than this say more about a chunk's fixed cost than the engine's speed
MIN_SAMPLE_GAMES = 1_000


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
