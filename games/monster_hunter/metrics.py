"""The Monster Hunter engine's measures: their names (integers in Metrics; the results page
reads these names, keep them stable) and how a finished game adds to them (pure Python).

  * ``hr_reached`` / ``hr_reached_turn``: games reaching 20 HR points and the turn they did;
    ``retired`` / ``retired_turn``; ``turn_limit``; ``hr_win_beat_retirement`` (the HR win in
    the turn of the 3rd retreat, line 42);
  * ``hr_by_turn:NN`` and ``monsters_by_turn:NN`` (sums): HR points and monsters placed by
    the end of turn NN, kept at their last value after the game ends;
  * ``matching_weapons_in_hand``, ``usable_items_in_hand``, ``dead_items_in_hand``
    (histograms, one entry a turn after the refill);
  * ``retreats``, ``cards_milled``, ``monsters_slain``, ``hr_from_hunts`` (sums per game);
    ``first_retreat_turn``, ``first_slay_turn``, ``weapon_equipped_turn``,
    ``armor_equipped_turn`` (histograms, games where it happened).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from games.monster_hunter.constants import LIMIT, RETIRED, WIN

if TYPE_CHECKING:
    from games.monster_hunter.state import MonsterHunterState
    from simulator.engine.metrics import Metrics

# Metric names (the Django side reads them; keep them stable).
M_HR_PREFIX = "hr_by_turn:"
M_PLACED_PREFIX = "monsters_by_turn:"
M_REACHED = "hr_reached"
M_REACHED_TURN = "hr_reached_turn"
M_RETIRED = "retired"
M_RETIRED_TURN = "retired_turn"
M_LIMIT = "turn_limit"
M_WON_RETIRING = "hr_win_beat_retirement"
M_RETREATS = "retreats"
M_FIRST_RETREAT = "first_retreat_turn"
M_MILLED = "cards_milled"
M_WEAPONS = "matching_weapons_in_hand"
M_USABLE = "usable_items_in_hand"
M_DEAD_ITEMS = "dead_items_in_hand"
M_SLAIN = "monsters_slain"
M_HUNT_HR = "hr_from_hunts"
M_FIRST_SLAY = "first_slay_turn"
M_WEAPON_TURN = "weapon_equipped_turn"
M_ARMOR_TURN = "armor_equipped_turn"


def hr_key(turn: int) -> str:
    """``hr_by_turn:07``: zero-padded so the sorted names run in turn order."""
    return f"{M_HR_PREFIX}{turn:02d}"


def placed_key(turn: int) -> str:
    return f"{M_PLACED_PREFIX}{turn:02d}"


def record_game(state: MonsterHunterState, metrics: Metrics) -> None:
    """One finished game's measures; counts and sums are added even when 0, so every name is
    present in every run's metrics."""
    p = state.prepared
    counts, sums, squares = metrics.counts, metrics.sums, metrics.squares
    outcome = state.outcome
    counts[M_REACHED] += outcome == WIN
    counts[M_RETIRED] += outcome == RETIRED
    counts[M_LIMIT] += outcome == LIMIT
    counts[M_WON_RETIRING] += state.won_retiring
    if outcome == WIN:
        metrics.observe(M_REACHED_TURN, state.end_turn)
    elif outcome == RETIRED:
        metrics.observe(M_RETIRED_TURN, state.end_turn)
    for name, value in (
        (M_RETREATS, state.retreats),
        (M_MILLED, state.milled),
        (M_SLAIN, state.slain),
        (M_HUNT_HR, state.hunt_hr),
    ):
        sums[name] += value
        squares[name] += value * value
    if state.first_retreat:
        metrics.observe(M_FIRST_RETREAT, state.first_retreat)
    if state.first_slay:
        metrics.observe(M_FIRST_SLAY, state.first_slay)
    if state.weapon_turn:
        metrics.observe(M_WEAPON_TURN, state.weapon_turn)
    if state.armor_turn:
        metrics.observe(M_ARMOR_TURN, state.armor_turn)
    histograms = metrics.histograms
    for name, values in (
        (M_WEAPONS, state.obs_weapons),
        (M_USABLE, state.obs_usable),
        (M_DEAD_ITEMS, state.obs_dead),
    ):
        histogram = histograms.get(name)
        if histogram is None:
            histogram = histograms[name] = Counter()
        for value in values:
            histogram[value] += 1
    # by turn: after the game ends each series keeps its last value, so every game counts in
    # every turn's mean
    for keys, series in ((p.hr_keys, state.hr_hist), (p.placed_keys, state.placed_hist)):
        for key, value in zip(keys, series, strict=False):
            sums[key] += value
            squares[key] += value * value
        last = series[-1] if series else 0
        last_squared = last * last
        for key in keys[len(series) :]:
            sums[key] += last
            squares[key] += last_squared
