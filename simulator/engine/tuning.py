"""Tuning a deck by simulation: one-card moves, paired on common random numbers, raced.

What a move is: cut one copy of a card, add one copy of another, or both (a swap). Each move
gives a candidate deck (``moved_deck``), and every candidate plays the *same numbered games*
as the deck itself (the baseline). Two things make the pairing tight:

- A swapped-in card takes the very place of the copy it replaces in the unshuffled pile
  (``SimDeck.draw_order``). Engines deal positions of that pile, so the two decks see the
  same shuffles and differ only where the swapped card is drawn. A move that changes nothing
  (cut a card, add the same card) plays exactly the baseline's games: a difference of 0.
- The counter-based deal (``simulator.engine.deal``) gives each pile position its own key: a
  card added at the end of the pile drops into the shuffle without moving the others' relative
  order, and a cut card's place is taken by the pile's last card, so moves that change the
  deck's size stay paired too. Where an engine shuffles with each game's Mersenne Twister
  instead, a swap keeps the shuffle but a copy more or fewer deals other games (still unbiased,
  only noisier: the race gives such moves the games they need).

Each game gives an integer value of the goal for the baseline and for each candidate
(``Engine.goal_values``); a move's effect is the mean of the per-game differences, signed so
that positive is better, with a Student-t 95 % interval (``paired_totals`` adds the
differences and their squares up, exact integers, so the split between workers never shows).

Racing (``RaceState``): rounds of games, the first short, then doubling. After each round a
move whose upper bound falls below the leader's lower bound, both at a confidence shared out
between all the moves (Bonferroni), is dropped; its budget goes to the moves still close. The
race ends when one move is left, when every move left is measured to ``resolution`` (after
``MIN_MEASURED`` games at least), or when the budget is spent. Every decision is taken from the
exact sums, so the same seed gives the same rounds, the same drops and the same figures on any
number of workers.

Pure: no Django. ``race`` plays a whole race in this process (tests, benchmarks); the
simulator's tuning jobs play its rounds on the workers (simulator/tuning/).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from scipy import stats

from simulator.engine.cards import SimCard, SimDeck
from simulator.engine.goals import Goal
from simulator.engine.metrics import Estimate, Metrics, mean_estimate

#: the Metrics key of the baseline's per-game values, and of move ``i``'s differences
BASE_KEY = "base"

#: the confidence of the intervals shown (each move's own)
SHOWN_LEVEL = 0.95
#: the chance, shared by all the moves of a race, of dropping a move that was in fact the best
DROP_RISK = 0.05
#: games in a round: the first round's at least, and the least a last round is worth playing
MIN_ROUND = 200
MAX_FIRST_ROUND = 8_000
#: rounds at most (the first, then doubling: 2^11 times the first round at the end)
MAX_ROUNDS = 12
#: games every move left must have played before the race may call them measured: a move
#: that changed nothing in a few hundred games (its interval zero wide) may still matter in
#: a rarer draw
MIN_MEASURED = 2_000


def move_key(index: int) -> str:
    return f"m{index:04d}"


@dataclass(frozen=True)
class Move:
    """Cut one copy of ``cut`` and add one copy of ``add`` (card codes); either may be None
    (a copy more, or a copy fewer)."""

    cut: str | None
    add: str | None

    @property
    def is_noop(self) -> bool:
        return self.cut is not None and self.cut == self.add

    def as_list(self) -> list[str | None]:
        return [self.cut, self.add]


def _draw_index(deck: SimDeck, code: str) -> int | None:
    """The index of the deck's card ``code`` in its draw zone (the first, should a card be
    there under two variants)."""
    for index, _quantity in deck.zones.get(deck.draw_zone, ()):
        if deck.cards[index].code == code:
            return index
    return None


def moved_deck(deck: SimDeck, move: Move, new_cards: Mapping[str, SimCard]) -> SimDeck:
    """The deck after ``move``, its pile laid out so that it shares the deck's shuffles.

    ``new_cards`` gives the cards an ``add`` may name that the deck does not hold (their
    ``index`` is ignored: a new card is appended after the deck's own, whose indexes stay).
    Raises ValueError when the cut card is not in the draw zone or the added one is unknown."""
    pile = deck.pile()
    cards = list(deck.cards)
    lines = [list(line) for line in deck.zones.get(deck.draw_zone, ())]
    cut_at: int | None = None
    if move.cut is not None:
        cut = _draw_index(deck, move.cut)
        if cut is None:
            raise ValueError(f"{move.cut} is not in the deck's {deck.draw_zone}")
        cut_at = max(p for p, card in enumerate(pile) if card == cut)
        line = next(line for line in lines if line[0] == cut)
        line[1] -= 1
    if move.add is not None:
        add = _draw_index(deck, move.add)
        if add is None:
            add = next((card.index for card in cards if card.code == move.add), None)
        if add is None:
            if move.add not in new_cards:
                raise ValueError(f"{move.add} is not a card the move may add")
            add = len(cards)
            cards.append(replace(new_cards[move.add], index=add))
        held = next((line for line in lines if line[0] == add), None)
        if held is None:
            lines.append([add, 1])
        else:
            held[1] += 1
        if cut_at is None:
            pile.append(add)  # its own key: the other cards' order is kept
        else:
            pile[cut_at] = add  # the very place of the copy it replaces
    elif cut_at is not None:
        pile[cut_at] = pile[-1]  # the last card moves into the gap; the rest keep theirs
        pile.pop()
    zones = dict(deck.zones)
    zones[deck.draw_zone] = tuple((index, n) for index, n in lines if n > 0)
    return SimDeck(
        game=deck.game,
        cards=tuple(cards),
        zones=zones,
        draw_zone=deck.draw_zone,
        extras=deck.extras,
        draw_order=tuple(pile),
    )


def all_moves(
    deck: SimDeck,
    candidates: Sequence[str],
    *,
    pins: Sequence[str] = (),
    sizes: bool = False,
) -> list[Move]:
    """Every swap of one copy of a card of the draw zone (not pinned) for one copy of a
    candidate (itself excepted), and with ``sizes`` a copy fewer of each and a copy more of
    each candidate. Legality is the caller's: the Django side keeps the legal ones."""
    pinned = set(pins)
    cuts = sorted({deck.cards[i].code for i, _n in deck.zones.get(deck.draw_zone, ())} - pinned)
    adds = sorted(set(candidates))
    moves = [Move(cut, add) for cut in cuts for add in adds if cut != add]
    if sizes:
        moves += [Move(cut, None) for cut in cuts] + [Move(None, add) for add in adds]
    return moves


# --- paired play ------------------------------------------------------------------------------


def paired_totals(
    engine: Any,
    baseline: Any,
    candidates: Sequence[tuple[int, Any]],
    params: dict[str, Any],
    goal: Goal,
    turn: int | None,
    run_seed: int,
    start: int,
    count: int,
) -> Metrics:
    """Games ``start`` .. ``start + count - 1`` of the baseline (prepared tables ``baseline``)
    and of each candidate ``(move index, prepared tables)``: the baseline's values added up
    under ``BASE_KEY``, each move's signed differences under ``move_key`` (exact integers)."""
    base = engine.goal_values(baseline, params, goal, turn, run_seed, start, count)
    metrics = Metrics(games=count)
    metrics.sums[BASE_KEY] = int(base.sum())
    metrics.squares[BASE_KEY] = int((base * base).sum())
    for index, prepared in candidates:
        values = engine.goal_values(prepared, params, goal, turn, run_seed, start, count)
        difference = (values - base) * goal.direction
        key = move_key(index)
        metrics.sums[key] = int(difference.sum())
        metrics.squares[key] = int((difference * difference).sum())
    return metrics


# --- racing -----------------------------------------------------------------------------------


def _half_width(total: int, squares: int, n: int, level: float) -> float:
    if n < 2:
        return math.inf
    mean = total / n
    variance = max(0.0, (squares - n * mean * mean) / (n - 1))
    return float(stats.t.ppf(0.5 + level / 2, n - 1)) * math.sqrt(variance / n)


@dataclass
class RaceState:
    """A race between ``moves`` moves, kept between rounds as JSON (``to_json``).

    Every move still in the race has played games ``0 .. games - 1``; a dropped move keeps
    the games it had played."""

    moves: int
    #: game plays in all, the baseline's included
    budget: int
    #: the interval half-width at which a move counts as measured (in the goal's units)
    resolution: float
    first: int = 0
    games: int = 0
    spent: int = 0
    rounds: int = 0
    base_total: int = 0
    base_squares: int = 0
    totals: list[int] = field(default_factory=list)
    squares: list[int] = field(default_factory=list)
    played: list[int] = field(default_factory=list)
    #: the round a move was dropped after (None: still in)
    dropped: list[int | None] = field(default_factory=list)
    done: bool = False

    @classmethod
    def start(cls, moves: int, budget: int, resolution: float) -> RaceState:
        # a first round of about a sixteenth of what an even share would give every move,
        # so that most of the budget goes to the moves still close after it
        first = (budget // max(1, moves + 1)) // 16 // 100 * 100
        return cls(
            moves=moves,
            budget=budget,
            resolution=resolution,
            first=max(MIN_ROUND, min(MAX_FIRST_ROUND, first)),
            totals=[0] * moves,
            squares=[0] * moves,
            played=[0] * moves,
            dropped=[None] * moves,
        )

    def survivors(self) -> list[int]:
        return [i for i in range(self.moves) if self.dropped[i] is None]

    def mean(self, index: int) -> float:
        n = self.played[index]
        return self.totals[index] / n if n else 0.0

    def effect(self, index: int) -> Estimate:
        return mean_estimate(self.totals[index], self.squares[index], self.played[index])

    def baseline(self) -> Estimate:
        return mean_estimate(self.base_total, self.base_squares, self.games)

    def next_round(self) -> tuple[int, int] | None:
        """The next round's games as (first game, count), or None: the race is over."""
        if self.done:
            return None
        alive = len(self.survivors())
        wanted = self.first << self.rounds
        left = (self.budget - self.spent) // (alive + 1)
        count = min(wanted, left)
        if alive == 0 or self.rounds >= MAX_ROUNDS or count < MIN_ROUND:
            self.done = True
            return None
        if left - count < MIN_ROUND:
            count = left  # too little would be left for a round of its own
        return self.games, count

    def record(self, metrics: Metrics, start: int, count: int) -> None:
        """Add a played round (its paired totals), then drop the moves clearly behind."""
        if start != self.games or metrics.games != count:
            raise ValueError(f"round of games {start}+{count} does not follow {self.games}")
        alive = self.survivors()
        self.base_total += metrics.sums[BASE_KEY]
        self.base_squares += metrics.squares[BASE_KEY]
        for index in alive:
            key = move_key(index)
            self.totals[index] += metrics.sums[key]
            self.squares[index] += metrics.squares[key]
            self.played[index] += count
        self.games += count
        self.spent += count * (len(alive) + 1)
        self.rounds += 1
        self._drop(alive)
        if len(self.survivors()) <= 1 or self._measured():
            self.done = True

    def _bounds(self, index: int, level: float) -> tuple[float, float]:
        half = _half_width(self.totals[index], self.squares[index], self.played[index], level)
        mean = self.mean(index)
        return mean - half, mean + half

    def _drop(self, alive: list[int]) -> None:
        level = 1 - DROP_RISK / max(1, self.moves)
        leader = self.leader()
        if leader is None:
            return
        leader_low, _high = self._bounds(leader, level)
        for index in alive:
            if index != leader and self._bounds(index, level)[1] < leader_low:
                self.dropped[index] = self.rounds

    def _measured(self) -> bool:
        if self.games < MIN_MEASURED:
            return False
        return all(
            _half_width(self.totals[i], self.squares[i], self.played[i], SHOWN_LEVEL)
            <= self.resolution
            for i in self.survivors()
        )

    def leader(self) -> int | None:
        """The move still in the race with the best mean (the lowest index among equals)."""
        alive = self.survivors()
        return max(alive, key=lambda i: (self.mean(i), -i)) if alive else None

    def ranking(self) -> list[RankedMove]:
        """Every move, best first: the moves still in the race by their mean, then the
        dropped ones, the later dropped first, each by its mean."""
        leader = self.leader()
        lead = self.effect(leader) if leader is not None else None
        order = sorted(
            range(self.moves),
            key=lambda i: (
                self.dropped[i] is None,
                self.dropped[i] or 0,
                self.mean(i),
                -i,
            ),
            reverse=True,
        )
        ranked = []
        for index in order:
            effect = self.effect(index)
            tied = (
                lead is not None
                and index != leader
                and self.dropped[index] is None
                and effect.high >= lead.low
            )
            ranked.append(
                RankedMove(
                    index=index,
                    effect=effect,
                    games=self.played[index],
                    dropped_in=self.dropped[index],
                    tied=tied,
                )
            )
        return ranked

    def saved(self) -> int:
        """Game plays the racing saved against giving every move as many games as the moves
        still in the race got (the baseline's counted once either way)."""
        return self.moves * self.games - sum(self.played)

    def to_json(self) -> dict[str, Any]:
        return {
            "moves": self.moves,
            "budget": self.budget,
            "resolution": self.resolution,
            "first": self.first,
            "games": self.games,
            "spent": self.spent,
            "rounds": self.rounds,
            "base_total": self.base_total,
            "base_squares": self.base_squares,
            "totals": self.totals,
            "squares": self.squares,
            "played": self.played,
            "dropped": self.dropped,
            "done": self.done,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RaceState:
        return cls(
            moves=int(data["moves"]),
            budget=int(data["budget"]),
            resolution=float(data["resolution"]),
            first=int(data["first"]),
            games=int(data["games"]),
            spent=int(data["spent"]),
            rounds=int(data["rounds"]),
            base_total=int(data["base_total"]),
            base_squares=int(data["base_squares"]),
            totals=[int(v) for v in data["totals"]],
            squares=[int(v) for v in data["squares"]],
            played=[int(v) for v in data["played"]],
            dropped=[None if v is None else int(v) for v in data["dropped"]],
            done=bool(data["done"]),
        )


@dataclass(frozen=True)
class RankedMove:
    index: int
    effect: Estimate
    games: int
    dropped_in: int | None
    #: still in the race and its interval reaches the leader's: not told apart from it
    tied: bool


@dataclass(frozen=True)
class Ranked:
    move: Move
    effect: Estimate
    games: int
    dropped_in: int | None
    tied: bool


@dataclass(frozen=True)
class Race:
    ranking: list[Ranked]
    state: RaceState

    @property
    def best(self) -> Ranked:
        return self.ranking[0]


#: game plays a race gets when none is given: about ten seconds of the slowest compiled engine
DEFAULT_BUDGET = 2_000_000


def default_resolution(goal: Goal) -> float:
    """How finely a move is worth measuring: half a percentage point of a rate, a hundredth
    of a mean's unit (a turn, a point of damage)."""
    return 0.005 if goal.kind == "rate" else 0.01


def race(
    engine: Any,
    deck: SimDeck,
    moves: Sequence[Move],
    *,
    new_cards: Mapping[str, SimCard],
    params: dict[str, Any],
    goal: Goal,
    turn: int | None,
    seed: int,
    budget: int | None = None,
    resolution: float | None = None,
) -> Race:
    """A whole race in this process: the moves ranked best first."""
    baseline = engine.prepare(deck, params)
    prepared = [engine.prepare(moved_deck(deck, move, new_cards), params) for move in moves]
    state = RaceState.start(
        len(moves),
        DEFAULT_BUDGET if budget is None else budget,
        default_resolution(goal) if resolution is None else resolution,
    )
    while (games := state.next_round()) is not None:
        start, count = games
        alive = [(i, prepared[i]) for i in state.survivors()]
        totals = paired_totals(engine, baseline, alive, params, goal, turn, seed, start, count)
        state.record(totals, start, count)
    ranking = [
        Ranked(moves[r.index], r.effect, r.games, r.dropped_in, r.tied) for r in state.ranking()
    ]
    return Race(ranking=ranking, state=state)
