"""What the engine benchmarks share (pure Python, no Django): one pinned core, the fast loop's
games per second round by round, and the state API's."""

from __future__ import annotations

import os
import time
from typing import Any

from simulator.engine.cards import SimDeck
from simulator.engine.engine import Engine, run_games
from simulator.engine.metrics import Metrics
from simulator.engine.rng import game_rng


def pin_to_one_cpu() -> str:
    """Run on one core (the last one), so a figure is one core's whatever else runs."""
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned"
    cpu = sorted(os.sched_getaffinity(0))[-1]
    os.sched_setaffinity(0, {cpu})
    return f"pinned to CPU {cpu}"


def round_rates(
    engine: Engine[Any, Any], deck: SimDeck, params: dict[str, Any], games: int, rounds: int
) -> tuple[list[float], list[float]]:
    """Games per second of CPU time and of wall-clock time, one figure per round (each round
    plays ``games`` games of its own run seed)."""
    cpu: list[float] = []
    wall: list[float] = []
    for round_ in range(rounds):
        started, started_cpu = time.perf_counter(), time.process_time()
        run_games(engine, deck, params, run_seed=round_ + 1, start=0, count=games)
        cpu.append(games / (time.process_time() - started_cpu))
        wall.append(games / (time.perf_counter() - started))
    return cpu, wall


def state_api_rate(
    engine: Engine[Any, Any], deck: SimDeck, params: dict[str, Any], games: int
) -> float:
    """Games per second of the state API (``Engine.play``, the engine's own fast loop
    bypassed), the reference the fast loop is tested against."""
    prepared = engine.prepare(deck, params)
    metrics = Metrics()
    started = time.process_time()
    for index in range(games):
        Engine.play(engine, prepared, params, game_rng(1, index), metrics)
    return games / (time.process_time() - started)
