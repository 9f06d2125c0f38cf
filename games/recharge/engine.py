"""Marvel Recharge: the goldfish engine (rules digest: shared/rules/recharge.md; the Japanese
seed shared/seeds/002_47728f997f662546.txt wins where they differ).

What a game is here: shuffle, draw 1 (recharge.md:33); every turn starts by drawing 1
(recharge.md:37; the first player draws on its first turn too, seed:43). The hand holds at most
6 cards and may not go over (recharge.md:33, seed:41 "上限超過不可"): with 6 in hand the goldfish
draws no more and passes, keeping its hand. The opponent never places cards, so nothing is ever
played or discarded; the measure is the formation the hand could open with: each turn the
exact best formation of the hand (simulator/games/recharge_solver.py, which lists every
placement rule it applies and why). As the hand only grows, that power never falls.

The policy (``RechargeEngine.choose``): draw while the hand has room and the deck has cards,
else pass. A turn has exactly one legal action, the one the rules force.

Measures (the Django side reads these names; keep them stable):
  * ``power_by_turn:NN`` -- the best formation's power at turn NN (mean with its interval);
  * ``can_open_by_turn:NN`` -- games whose hand builds a formation of at least
    ``open_threshold`` power by turn NN (a formation needs a hero, recharge.md:12);
  * ``first_open_turn`` -- when that first happens (distribution); ``never_opened`` otherwise;
  * ``hand_full`` / ``hand_full_turn`` / ``power_when_full`` -- the first turn the hand holds 6
    cards, and the best power it holds then (when a real player must open or fold,
    recharge.md:45-46);
  * ``cards_seen`` -- cards drawn in all (the opening card included).

Goals (issue 23, games/recharge/goals.py): power by turn T, can open by turn T and the first
turn able to open, each game's value read from the kernel's per-game rows (``goal_values``).

Speed: the solver's answer depends only on which cards are in hand, so ``prepare`` keeps a
cache from the sorted card indexes to (power, formation text) shared by every game of a run,
for the state API. A worker's batches (``play_games``) need no formation text. Where numba
loads they run the compiled kernel (games/recharge/kernel.py, docs/engines/recharge.md): the
shared deal, the same formation rules over int arrays, the measures added up as int64 totals.
Elsewhere (or with ``DECKLAB_COMPILED=0``) they run the Python batch path
(``play_games_python``): every game dealt at once (simulator/engine/deal.py), each hand's power
alone from ``games/recharge/power.py`` (its caches split a hand into its hero/teamwork row and
its power cards). Both paths hand the same totals to ``_totals_metrics``; the conformance tests
compare each path with the state API game by game and the two paths' totals exactly.
"""

from __future__ import annotations

import random
from bisect import insort
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from games.recharge import GAME, kernel
from games.recharge.goals import (
    GOALS,
    M_FIRST_OPEN,
    M_NEVER_OPENED,
    M_OPEN_PREFIX,
    M_POWER_PREFIX,
    ROW_READS,
    open_key,
    power_key,
)
from games.recharge.power import FormationPower
from games.recharge.schedule import OPENING_HAND, SCHEDULE
from games.recharge.solver import POWER_PLUS, RCard, best_formation, card_from_attributes
from simulator.engine import compiled
from simulator.engine.cards import SimDeck
from simulator.engine.deal import deal_orders
from simulator.engine.engine import Engine, GameState
from simulator.engine.goals import Goal, Values
from simulator.engine.i18n import N_
from simulator.engine.metrics import Metrics
from simulator.engine.params import Param, ParamSpec
from simulator.engine.rng import dealt_order

DIGEST = "recharge.md"

HAND_LIMIT = kernel.HAND_LIMIT  # 6: recharge.md:33, seed:41 (may not be exceeded)

# Actions of the state API.
DRAW = "draw"
PASS = "pass"
Action = str

# Metric names (the first four, and ``power_key``/``open_key``, are defined in goals.py,
# which reads them and which this module needs as it defines its class).
M_HAND_FULL = "hand_full"
M_HAND_FULL_TURN = "hand_full_turn"
M_POWER_WHEN_FULL = "power_when_full"
M_SEEN = "cards_seen"

#: beyond this many distinct hands the run's formation cache starts again (memory bound)
CACHE_LIMIT = 200_000


@dataclass(frozen=True)
class RechargePrepared:
    deck: SimDeck
    pile: tuple[int, ...]
    #: the solver's view of each deck card, by card index
    cards: tuple[RCard, ...]
    names: tuple[str, ...]
    turns: int
    chain: bool
    threshold: int
    power_keys: tuple[str, ...]
    open_keys: tuple[str, ...]
    #: the batch path's answers: power and whether a formation exists, no text
    powers: FormationPower = field(compare=False, repr=False)
    #: the deck as int arrays for the compiled kernel (built once per ``prepare``, so a worker
    #: reuses them for every batch of a run)
    arrays: kernel.RechargeArrays = field(compare=False, repr=False)
    #: sorted card indexes -> (power, a formation exists, formation text); a pure function of
    #: the hand, so sharing it between games changes no result (and no state compares it)
    cache: dict[tuple[int, ...], tuple[int, bool, str]] = field(
        default_factory=dict, compare=False, repr=False
    )

    def solve(self, hand: list[int]) -> tuple[int, bool, str]:
        """The best formation of these card indexes: (power, exists, one-line picture)."""
        key = tuple(sorted(hand))
        got = self.cache.get(key)
        if got is None:
            cards = [self.cards[i] for i in key]
            formation = best_formation(cards, chain_power_cards=self.chain)
            text = formation.describe(cards, [self.names[i] for i in key])
            got = (formation.power, formation.exists, text)
            if len(self.cache) >= CACHE_LIMIT:
                self.cache.clear()
            self.cache[key] = got
        return got


def _line(p: RechargePrepared, state: RechargeState, what: str) -> str:
    power, _exists, text = state.best
    opens = " [can open]" if state.can_open() else ""
    hand = ", ".join(p.names[i] for i in state.hand)
    return f"T{state.turn} {what} → best {power} ({text}){opens} | hand: {hand}"


class RechargeState(GameState):
    """One goldfish game step by step: conformance tests, golden transcripts, test hands."""

    def __init__(self, prepared: RechargePrepared, deck: list[int]) -> None:
        self.prepared = prepared
        self.deck = deck  # never changed after the shuffle: copies may share it
        self.pos = min(OPENING_HAND, len(deck))  # the next card to draw
        self.hand = deck[: self.pos]
        self.turn = 0
        self.best = prepared.solve(self.hand)
        self.powers: list[int] = []  # the best power at the end of each turn
        self.opened: list[bool] = []
        self.first_open = 0
        self.full_turn = 0
        self.full_power = 0

    def copy(self) -> RechargeState:
        clone = object.__new__(RechargeState)
        clone.__dict__.update(self.__dict__)
        clone.hand = list(self.hand)
        clone.powers = list(self.powers)
        clone.opened = list(self.opened)
        return clone

    def is_over(self) -> bool:
        return self.turn >= self.prepared.turns

    def can_draw(self) -> bool:
        return len(self.hand) < HAND_LIMIT and self.pos < len(self.deck)

    def can_open(self) -> bool:
        """A formation exists and reaches the threshold."""
        power, exists, _text = self.best
        return exists and power >= self.prepared.threshold

    def legal_actions(self) -> list[Action]:
        if self.is_over():
            return []
        # the draw is not optional (recharge.md:37); without room or cards, the turn passes
        return [DRAW] if self.can_draw() else [PASS]

    def apply(self, action: Action) -> str:
        if action not in self.legal_actions():
            raise ValueError(f"not a legal action now: {action!r}")
        p = self.prepared
        self.turn += 1
        if action == DRAW:
            card = self.deck[self.pos]
            self.pos += 1
            self.hand.append(card)
            self.best = p.solve(self.hand)
            what = f"draw {p.names[card]}"
        elif len(self.hand) >= HAND_LIMIT:
            what = f"pass (hand full: {HAND_LIMIT} cards)"
        else:
            what = "pass (deck empty)"
        power = self.best[0]
        opened = self.can_open()
        self.powers.append(power)
        self.opened.append(opened)
        if opened and not self.first_open:
            self.first_open = self.turn
        if len(self.hand) >= HAND_LIMIT and not self.full_turn:
            self.full_turn, self.full_power = self.turn, power
        return _line(p, self, what)


class RechargeEngine(Engine[RechargePrepared, RechargeState]):
    slug = GAME.slug
    #: 2: decks dealt from counter-based keys (simulator/engine/deal.py), not random.Random
    version = 2
    schedule = SCHEDULE
    max_turns = 30
    params = ParamSpec(
        (
            Param(
                "turns",
                N_("Turns"),
                "int",
                10,
                minimum=1,
                maximum=30,
                help=N_("How many turns each game lasts (one card drawn per turn)."),
            ),
            Param(
                "chain_power_cards",
                N_("Chain power cards (optional rule)"),
                "bool",
                False,
                help=N_(
                    "The optional rule that lets further power cards attach to a power "
                    "card's outer edge."
                ),
            ),
            Param(
                "open_threshold",
                N_("Power needed to open"),
                "int",
                1,
                minimum=0,
                maximum=500,
                help=N_("A hand can open when its best formation has at least this power."),
            ),
        )
    )
    not_modelled = (
        N_("Betting and counter chips: no chip is bet, so victory points are not measured."),
        N_("The opponent: it never places cards, answers or adds to its formation."),
        N_(
            "Opening, adding, folding and passing as choices: the engine measures the best "
            "formation the hand could open with each turn and never plays it."
        ),
        N_(
            "With 6 cards in hand a real player must open or fold; here the hand is kept "
            "and no more cards are drawn."
        ),
        N_("Special cards' abilities: they play as plain cards of their kind."),
        N_("The end of a hand: discarding down to 3 cards and swapping cards with the deck."),
        N_(
            "Power Plus copies always count +10, as in the tournament rules; the basic "
            "rules' one-of-the-two limit is the deck checker's concern."
        ),
    )
    cites = tuple(f"{DIGEST}:{line}" for line in (12, 14, 17, 19, 23, 26, 33, 37, 46, 57))
    goals = GOALS
    metric_labels = {
        M_POWER_PREFIX: N_("Best formation power by turn"),
        M_OPEN_PREFIX: N_("Can open by turn"),
        M_FIRST_OPEN: N_("First turn able to open"),
        M_NEVER_OPENED: N_("Never able to open"),
        M_HAND_FULL: N_("The hand reached 6 cards"),
        M_HAND_FULL_TURN: N_("Turn the hand reached 6 cards"),
        M_POWER_WHEN_FULL: N_("Best power when the hand is full"),
        M_SEEN: N_("Cards seen"),
    }

    def warm(self) -> None:
        """Compile the batch kernel, or load it from numba's on-disk cache, on a 3-card deck
        with the argument types a run passes (so the run finds the machine code ready)."""
        if not compiled.available():
            return
        compiled.warm_deal()
        kernel.warm()

    def prepare(self, deck: SimDeck, params: dict[str, Any]) -> RechargePrepared:
        self.require_playable(deck)
        values = self.params.clean(params)
        turns = int(values["turns"])
        cards = tuple(
            card_from_attributes(c.card_type, c.attributes, variant=c.variant, name=c.name)
            for c in deck.cards
        )
        names = tuple(
            f"{c.name} (Power Plus)" if c.variant == POWER_PLUS else c.name for c in deck.cards
        )
        chain = bool(values["chain_power_cards"])
        pile = tuple(deck.pile())
        return RechargePrepared(
            deck=deck,
            pile=pile,
            cards=cards,
            names=names,
            turns=turns,
            chain=chain,
            threshold=int(values["open_threshold"]),
            power_keys=tuple(power_key(t) for t in range(1, turns + 1)),
            open_keys=tuple(open_key(t) for t in range(1, turns + 1)),
            powers=FormationPower(cards, chain_power_cards=chain),
            arrays=kernel.arrays(pile, cards),
        )

    def new_game(
        self, prepared: RechargePrepared, params: dict[str, Any], rng: random.Random
    ) -> RechargeState:
        pile = prepared.pile
        # the game's one chance step, as the batch path deals it
        return RechargeState(prepared, [pile[i] for i in dealt_order(rng, len(pile))])

    def choose(self, state: RechargeState) -> Action:
        return DRAW if state.can_draw() else PASS

    def record(self, state: RechargeState, metrics: Metrics) -> None:
        """One finished game's measures. Counts and sums are added even when 0, so every name
        is present in every run's metrics."""
        p = state.prepared
        counts, sums, squares = metrics.counts, metrics.sums, metrics.squares
        for key, power in zip(p.power_keys, state.powers, strict=True):
            sums[key] += power
            squares[key] += power * power
        for key, opened in zip(p.open_keys, state.opened, strict=True):
            counts[key] += opened
        counts[M_NEVER_OPENED] += not state.first_open
        if state.first_open:
            metrics.observe(M_FIRST_OPEN, state.first_open)
        counts[M_HAND_FULL] += bool(state.full_turn)
        if state.full_turn:
            metrics.observe(M_HAND_FULL_TURN, state.full_turn)
            metrics.observe(M_POWER_WHEN_FULL, state.full_power)
        sums[M_SEEN] += state.pos
        squares[M_SEEN] += state.pos * state.pos

    def play_games(
        self,
        prepared: RechargePrepared,
        params: dict[str, Any],
        run_seed: int,
        start: int,
        count: int,
    ) -> Metrics:
        """A batch: the compiled kernel (``games/recharge/kernel.py``) where numba loads,
        else the Python batch path (``play_games_python``); both give the same Metrics."""
        if not compiled.available():
            compiled.fallback_notice(self.slug)
            return self.play_games_python(prepared, params, run_seed, start, count)
        if run_seed < 0 or start < 0:  # as deal_orders refuses them on the Python path
            raise ValueError("run seeds and game indexes are not negative")
        p = prepared
        totals = kernel.play_batch(p.arrays, p.turns, p.chain, p.threshold, run_seed, start, count)
        return _totals_metrics(p, count, totals)

    def goal_values(
        self,
        prepared: RechargePrepared,
        params: dict[str, Any],
        goal: Goal,
        turn: int | None,
        run_seed: int,
        start: int,
        count: int,
    ) -> Values:
        """Each game's value of ``goal``: read from the compiled kernel's per-game rows
        (``kernel.play_each``, the same games as ``play``) where numba loads, else played
        game by game (``values_by_play``); tests/games/recharge/test_goals.py holds the two
        equal game by game."""
        read = ROW_READS.get(goal.code) if goal in GOALS else None  # a goal of ours
        if read is None or not compiled.available():
            return super().goal_values(prepared, params, goal, turn, run_seed, start, count)
        if run_seed < 0 or start < 0:  # as play_games refuses them
            raise ValueError("run seeds and game indexes are not negative")
        p = prepared
        rows = kernel.play_each(p.arrays, p.turns, p.chain, p.threshold, run_seed, start, count)
        return read(rows, turn)

    def play_games_python(
        self,
        prepared: RechargePrepared,
        params: dict[str, Any],
        run_seed: int,
        start: int,
        count: int,
    ) -> Metrics:
        """The Python batch path (the fallback, and the kernel's reference on totals): the
        prefix rows of ``prefix_rows`` added up once for the batch."""
        power_rows, open_rows = prefix_rows(prepared, run_seed, start, count)
        return _totals_metrics(prepared, count, _batch_totals(prepared, power_rows, open_rows))


def prefix_rows(
    p: RechargePrepared, run_seed: int, start: int, count: int
) -> tuple[list[list[int]], list[list[bool]]]:
    """Per game of the batch, per number of cards held (1 .. the most it holds): the best
    power, and whether the hand can open. Each game is reduced to what decides its measures:
    the hand only grows, one card a turn, until it holds 6 cards or the deck is empty
    (recharge.md:33, 37), so turn t's hand is the first min(1 + t, 6, deck size) cards of the
    deal and a game is the powers of its few prefixes. Every game is dealt at once
    (``deal_orders``), each hand's power comes from ``power.py``'s caches."""
    size = len(p.pile)
    most = min(OPENING_HAND + p.turns, HAND_LIMIT, size)
    dealt = np.asarray(p.pile, dtype=np.intp)[deal_orders(run_seed, start, count, size)]
    power_of = p.powers.power
    threshold = p.threshold
    power_rows: list[list[int]] = []
    open_rows: list[list[bool]] = []
    for row in dealt[:, :most].tolist():
        hand: list[int] = []
        game_powers: list[int] = []
        game_opens: list[bool] = []
        for card in row:
            insort(hand, card)
            power, exists = power_of(hand)
            game_powers.append(power)
            game_opens.append(exists and power >= threshold)
        power_rows.append(game_powers)
        open_rows.append(game_opens)
    return power_rows, open_rows


def _batch_totals(
    p: RechargePrepared, power_rows: list[list[int]], open_rows: list[list[bool]]
) -> kernel.Totals:
    """The measures ``record`` adds game by game, for a whole batch's prefix rows at once,
    as the kernel's totals (``kernel.Totals``)."""
    games = len(power_rows)
    columns, full_turn = kernel.columns_of(p.turns, len(p.pile))  # turn t -> its prefix
    most = int(columns[-1]) + 1
    by_prefix = np.array(power_rows, dtype=np.int64).reshape(games, most)
    opens_by_prefix = np.array(open_rows, dtype=bool).reshape(games, most)
    by_turn = by_prefix[:, columns]
    opens = opens_by_prefix[:, columns]
    ever = opens.any(axis=1)
    # the first turn that opens, 0 for the games that never do
    first = np.where(ever, opens.argmax(axis=1) + 1, 0)
    when_full = (
        np.bincount(by_turn[:, full_turn - 1], minlength=p.arrays.top + 1)
        if full_turn
        else np.zeros(p.arrays.top + 1, dtype=np.int64)
    )
    return kernel.Totals(
        by_turn.sum(axis=0),
        (by_turn * by_turn).sum(axis=0),
        opens.sum(axis=0),
        np.bincount(first, minlength=p.turns + 1),
        when_full,
    )


def _totals_metrics(p: RechargePrepared, games: int, totals: kernel.Totals) -> Metrics:
    """The measures ``record`` adds game by game, from a batch's totals (either path's)."""
    metrics = Metrics(games=games)
    counts, sums, squares = metrics.counts, metrics.sums, metrics.squares
    for key, total, square in zip(
        p.power_keys, totals.power_sums.tolist(), totals.power_squares.tolist(), strict=True
    ):
        sums[key], squares[key] = total, square
    for key, opened in zip(p.open_keys, totals.opens.tolist(), strict=True):
        counts[key] = opened
    first_open = totals.first_open.tolist()
    counts[M_NEVER_OPENED] = first_open[0]
    if first_open[0] < games:
        metrics.histograms[M_FIRST_OPEN] = Counter(
            {turn: n for turn, n in enumerate(first_open) if turn and n}
        )
    # the hand is full from the first turn it holds 6 cards (only a deck of 6 or more fills
    # it), the same turn in every game
    _columns, full_turn = kernel.columns_of(p.turns, len(p.pile))
    counts[M_HAND_FULL] = games if full_turn else 0
    if full_turn and games:
        metrics.histograms[M_HAND_FULL_TURN] = Counter({full_turn: games})
        metrics.histograms[M_POWER_WHEN_FULL] = Counter(
            {power: n for power, n in enumerate(totals.power_when_full.tolist()) if n}
        )
    # every game has drawn the same number of cards by its end
    seen = min(kernel.OPENING_HAND + p.turns, HAND_LIMIT, len(p.pile))
    sums[M_SEEN], squares[M_SEEN] = games * seen, games * seen * seen
    return metrics


ENGINE = RechargeEngine()
