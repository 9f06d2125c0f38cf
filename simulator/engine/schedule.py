"""How many cards a player has seen by each turn: each game's opening hand and draws."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DrawSchedule:
    """``opening`` cards before the first turn, then ``per_turn`` cards at each turn.

    ``draws_on_first_turn``: whether turn 1 already draws (in some games the first player
    does); otherwise the first turn plays the opening hand as it is.

    ``refill_to``: an end phase that draws the hand back up to this many cards (a hand
    limit refilled each turn); a turn that draws ``per_turn`` and uses ``used_per_turn`` cards
    then draws ``max(0, used_per_turn - per_turn)`` more at its end. Those cards are counted with
    the next turn's draws (they are seen before it is played).
    """

    opening: int
    per_turn: int
    draws_on_first_turn: bool = True
    refill_to: int = 0
    used_per_turn: int = 0

    @property
    def end_phase_draws(self) -> int:
        """Cards an end phase draws back (0 without a refill)."""
        return max(0, self.used_per_turn - self.per_turn) if self.refill_to else 0

    def seen_by_turn(self, turn: int) -> int:
        """Cards drawn in all after ``turn`` turns' draws (turn 0 = the opening hand)."""
        if turn <= 0:
            return self.opening
        draws = turn if self.draws_on_first_turn else turn - 1
        return self.opening + self.per_turn * draws + self.end_phase_draws * (turn - 1)

    def drawn_at_turn(self, turn: int) -> int:
        """Cards drawn at the start of ``turn`` (0: the opening hand)."""
        return self.seen_by_turn(turn) - self.seen_by_turn(turn - 1) if turn else self.opening
