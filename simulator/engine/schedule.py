"""How many cards a player has seen by each turn: each game's opening hand and draws."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DrawSchedule:
    """``opening`` cards before the first turn, then ``per_turn`` cards at each turn.

    ``draws_on_first_turn``: whether turn 1 already draws (央華封神's first player does,
    ouka-fushin.md:45-46); otherwise the first turn plays the opening hand as it is.
    """

    opening: int
    per_turn: int
    draws_on_first_turn: bool = True

    def seen_by_turn(self, turn: int) -> int:
        """Cards drawn in all after ``turn`` turns' draws (turn 0 = the opening hand)."""
        if turn <= 0:
            return self.opening
        draws = turn if self.draws_on_first_turn else turn - 1
        return self.opening + self.per_turn * draws

    def drawn_at_turn(self, turn: int) -> int:
        """Cards drawn at the start of ``turn`` (0: the opening hand)."""
        return self.seen_by_turn(turn) - self.seen_by_turn(turn - 1) if turn else self.opening
