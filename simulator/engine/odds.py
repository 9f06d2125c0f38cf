"""Exact draw odds: the chance to have seen at least *k* cards of a group by a given point.

Drawing without replacement from a shuffled deck is hypergeometric: with N cards of which K
are in the group, the chance that n draws hold at least k of them is the survival function
P(X >= k) = sf(k - 1; N, K, n).
"""

from __future__ import annotations

from dataclasses import dataclass

from scipy.stats import hypergeom

from simulator.engine.schedule import DrawSchedule


class OddsError(ValueError):
    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(message)


def at_least(k: int, *, group: int, deck: int, seen: int) -> float:
    """P(at least ``k`` of the ``group`` cards among the first ``seen`` of ``deck`` cards)."""
    if deck < 0 or not 0 <= group <= deck:
        raise OddsError("group", "the group must be between 0 and the deck size")
    if k < 0:
        raise OddsError("k", "k cannot be negative")
    seen = max(0, min(seen, deck))
    if k == 0:
        return 1.0
    if k > group or k > seen:
        return 0.0
    return float(hypergeom.sf(k - 1, deck, group, seen))


@dataclass(frozen=True)
class TurnOdds:
    turn: int
    seen: int
    probability: float


def by_turn(k: int, *, group: int, deck: int, schedule: DrawSchedule, turns: int) -> list[TurnOdds]:
    """The chance to have seen ``k`` group cards by each turn 0..``turns`` (0 = opening)."""
    if not 0 <= turns <= 100:
        raise OddsError("turns", "turns must be between 0 and 100")
    rows = []
    for turn in range(turns + 1):
        seen = min(schedule.seen_by_turn(turn), deck)
        rows.append(TurnOdds(turn, seen, at_least(k, group=group, deck=deck, seen=seen)))
    return rows
