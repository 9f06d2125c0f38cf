"""The Mattsan engine's measures: their names (stable, read by the Django side) and how a
finished game adds to them (pure Python).

  * outcomes, one per game: ``win_line_up_defeated``, ``win_dummy_deck_out``, ``loss_deck_out``,
    ``loss_no_unit``, ``turn_limit``; plus ``simultaneous_loss`` (both met a loss condition in our
    own processing, so we lost);
  * ``defeat_turn`` (histogram): the turn the whole dummy line-up fell ("turns to defeat");
  * ``deck_out_turn`` / ``no_unit_turn`` (histograms): the turn we lost by each condition;
  * ``no_unit_in_hand:NN`` (counts): games whose hand held no unit to place at turn NN's main
    phase (only games still going then) — the chance of having no unit to place;
  * ``soul_by_turn:NN`` (sums): soul charge cards in the area at the end of turn NN;
  * ``trump_cast_by_turn:NN`` (counts) / ``trumps_cast_by_turn:NN`` (sums): a trump cast, and how
    many, by the end of turn NN — the trump cards castable by turn; ``first_trump_turn``;
    per-turn values are kept at their last value after the game ends (means over all games);
  * ``dummy_units_defeated``, ``cards_drawn`` (ours, the opening hand included), ``soul_drawn``.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from simulator.engine.metrics import Metrics

if TYPE_CHECKING:
    from games.mattsan.prepared import MattsanPrepared
    from games.mattsan.state import MattsanState

# Outcomes = metric names (one per game)
M_WIN_LINE_UP = "win_line_up_defeated"
M_WIN_DECK_OUT = "win_dummy_deck_out"
M_LOSS_DECK_OUT = "loss_deck_out"
M_LOSS_NO_UNIT = "loss_no_unit"
M_TURN_LIMIT = "turn_limit"
OUTCOMES = (M_WIN_LINE_UP, M_WIN_DECK_OUT, M_LOSS_DECK_OUT, M_LOSS_NO_UNIT, M_TURN_LIMIT)
M_SIMULTANEOUS = "simultaneous_loss"
M_DEFEAT_TURN = "defeat_turn"
M_DECK_OUT_TURN = "deck_out_turn"
M_NO_UNIT_TURN = "no_unit_turn"
M_FIRST_TRUMP = "first_trump_turn"
M_DUMMY_DEFEATED = "dummy_units_defeated"
M_DRAWN = "cards_drawn"
M_SOUL_DRAWN = "soul_drawn"
M_NO_UNIT_PREFIX = "no_unit_in_hand:"
M_SOUL_PREFIX = "soul_by_turn:"
M_TRUMP_PREFIX = "trump_cast_by_turn:"
M_TRUMPS_PREFIX = "trumps_cast_by_turn:"


def turn_key(prefix: str, turn: int) -> str:
    """``soul_by_turn:07``: zero-padded so sorted names run in turn order."""
    return f"{prefix}{turn:02d}"


def record_game(state: MattsanState, metrics: Metrics) -> None:
    """One finished game's measures (``MattsanEngine.record``). Counts and sums are added even
    when 0, so every name is present in every run's metrics."""
    # the measures mattsan.md:55 names: turns to defeat the line-up, soul charge and trumps
    # castable by turn, the chance of having no unit to place, the deck-out turn
    p = state.prepared
    counts, sums, squares = metrics.counts, metrics.sums, metrics.squares
    outcome = state.outcome
    for name in OUTCOMES:
        counts[name] += outcome == name
    counts[M_SIMULTANEOUS] += state.simultaneous
    end = state.turn
    if outcome == M_WIN_LINE_UP:
        metrics.observe(M_DEFEAT_TURN, end)
    elif outcome == M_LOSS_DECK_OUT:
        metrics.observe(M_DECK_OUT_TURN, end)
    elif outcome == M_LOSS_NO_UNIT:
        metrics.observe(M_NO_UNIT_TURN, end)
    if state.first_trump:
        metrics.observe(M_FIRST_TRUMP, state.first_trump)
    for name, value in (
        (M_DUMMY_DEFEATED, state.dummy_defeated),
        (M_DRAWN, state.drawn),
        (M_SOUL_DRAWN, state.soul_drawn),
    ):
        sums[name] += value
        squares[name] += value * value
    no_unit = p.no_unit_keys
    for turn in state.no_unit_turns:
        counts[no_unit[turn - 1]] += 1
    # per-turn values, kept at their last value after the game ends
    souls, casts = state.souls, state.casts
    last_soul, last_cast = souls[-1], casts[-1]
    played = len(souls)
    for key, soul in zip(p.soul_keys, souls, strict=False):
        sums[key] += soul
        squares[key] += soul * soul
    for key, cast in zip(p.trumps_keys, casts, strict=False):
        sums[key] += cast
        squares[key] += cast * cast
    for key, cast in zip(p.trump_keys, casts, strict=False):
        counts[key] += cast > 0
    square = last_soul * last_soul
    for key in p.soul_keys[played:]:
        sums[key] += last_soul
        squares[key] += square
    square = last_cast * last_cast
    for key in p.trumps_keys[played:]:
        sums[key] += last_cast
        squares[key] += square
    for key in p.trump_keys[played:]:
        counts[key] += last_cast > 0


class BatchTally:
    """A batch's measures for the Python batch path, kept in plain ints, lists and Counters
    while the games run and turned into ``Metrics`` once: the same numbers ``record_game``
    adds game by game (the tests compare them), without some 120 Counter updates a game.
    Per-turn values are tallied by pattern: most games share their soul charge curve."""

    def __init__(self, prepared: MattsanPrepared) -> None:
        self.p = prepared
        self.ends: Counter[tuple[str, int]] = Counter()  # (outcome, last turn)
        self.simultaneous = 0
        self.first_trumps: list[int] = []
        self.defeated: list[int] = []
        self.drawn: list[int] = []
        self.soul_drawn: list[int] = []
        self.no_unit_turns: list[int] = []
        self.souls: Counter[tuple[int, ...]] = Counter()
        self.casts: Counter[tuple[int, ...]] = Counter()

    def add(self, state: MattsanState) -> None:
        self.ends[state.outcome, state.turn] += 1
        self.simultaneous += state.simultaneous
        if state.first_trump:
            self.first_trumps.append(state.first_trump)
        self.defeated.append(state.dummy_defeated)
        self.drawn.append(state.drawn)
        self.soul_drawn.append(state.soul_drawn)
        self.no_unit_turns += state.no_unit_turns
        self.souls[tuple(state.souls)] += 1
        self.casts[tuple(state.casts)] += 1

    def metrics(self, games: int) -> Metrics:
        m = Metrics(games=games)
        if not games:
            return m
        p = self.p
        counts, sums, squares = m.counts, m.sums, m.squares
        for name in OUTCOMES:
            counts[name] = 0
        turns = {M_WIN_LINE_UP: M_DEFEAT_TURN, M_LOSS_DECK_OUT: M_DECK_OUT_TURN}
        turns[M_LOSS_NO_UNIT] = M_NO_UNIT_TURN
        for (outcome, turn), n in self.ends.items():
            counts[outcome] += n
            if outcome in turns:
                m.observe(turns[outcome], turn, n)
        counts[M_SIMULTANEOUS] = self.simultaneous
        if self.first_trumps:
            m.histograms[M_FIRST_TRUMP] = Counter(self.first_trumps)
        for name, values in (
            (M_DUMMY_DEFEATED, self.defeated),
            (M_DRAWN, self.drawn),
            (M_SOUL_DRAWN, self.soul_drawn),
        ):
            sums[name] = sum(values)
            squares[name] = sum(v * v for v in values)
        for turn, n in sorted(Counter(self.no_unit_turns).items()):
            counts[p.no_unit_keys[turn - 1]] = n
        width = p.max_turns
        for key in p.soul_keys:
            sums[key] = squares[key] = 0
        for pattern, n in self.souls.items():
            padded = pattern + (pattern[-1],) * (width - len(pattern))
            for key, soul in zip(p.soul_keys, padded, strict=True):
                sums[key] += soul * n
                squares[key] += soul * soul * n
        for key in p.trumps_keys:
            sums[key] = squares[key] = 0
        for key in p.trump_keys:
            counts[key] = 0
        for pattern, n in self.casts.items():
            padded = pattern + (pattern[-1],) * (width - len(pattern))
            for key, any_key, cast in zip(p.trumps_keys, p.trump_keys, padded, strict=True):
                sums[key] += cast * n
                squares[key] += cast * cast * n
                counts[any_key] += n if cast else 0
        return m
