"""Unmatched: the goldfish engine (rules digest: shared/rules/unmatched.md).

What a game is here: shuffle the 30 action cards and draw 5 (unmatched.md:23); each turn takes
exactly two actions, no pass (line 26). The goldfish opponent stands adjacent and never defends
(line 41), so an attack deals its card's value (line 34: attack − defence, defence 0). A maneuver
draws one card, mandatory (line 27); from an empty deck it deals 2 damage to our hero instead,
with no reshuffle (line 37), and our hero at 0 HP loses the game (line 38). At the end of a
turn the hand is discarded down to 7 (line 36).

The policy (``UnmatchedEngine.choose``), for each action:
  * attack with the highest-value card in hand that a fighter of ours may play (lines 30-32) —
    an attack or versatile card with a value above 0, printed for the hero, a sidekick or any
    fighter; ties go to the card with the lower boost, as boosts matter in a real game even
    though they are not modelled here;
  * otherwise maneuver (draw 1).
  It never spends an action on a scheme: scheme effects are not modelled, so a scheme would be
  a wasted action; schemes therefore count as dead cards. At the hand limit it discards the
  least useful card: cards it can never attack with (schemes, defense, other fighters' cards)
  first, then the lowest attack value; lower boost first within each.

Measures (integers in Metrics; ``summarise`` gives the means, rates and intervals):
  * ``opponent_falls_turn`` (histogram): the turn the opponent fell; ``opponent_fell`` and
    ``never_fell`` count the games (never fell: the turn limit, or our hero fell first);
  * ``damage_by_turn:01`` … (sums): damage dealt by the end of each turn up to ``max_turns``,
    capped at the opponent's HP and kept at its last value after the game ends, so each is a
    per-game mean with its interval; the zero-padded turn keeps the names in turn order;
  * ``cards_drawn`` (sum per game, the opening hand included);
  * ``dead_cards_in_hand`` (histogram, one entry per turn at its start): cards the policy can
    never play — schemes, defense cards, another fighter's cards, attacks of value 0;
  * ``exhaustion_damage`` (sum per game), ``exhaustion_damage_taken`` (games with any),
    ``exhaustion_turn`` (histogram: the first turn it hit; 0 = the opening hand) and
    ``lost_to_exhaustion`` (games our hero lost).

Which fighter may play a card is decided by ``games/unmatched/rules.py``, the one function the
deck checker uses too, so the two can never disagree.

Speed: ``prepare`` turns the deck into tuples of integers indexed by card; the fast loop
(``_play``) runs on lists of ints and plays exactly the game the state API
(``UnmatchedState``) plays — the tests compare both, metrics and transcripts, seed by seed. A
worker's batch (``play_games``) deals all its games at once from counter-based keys
(simulator/engine/deal.py; version 2) and adds the measures up once per batch
(``_BatchTally``): per game, recording 60 per-turn sums had cost a third of the time, and
seeding a generator and shuffling in Python another 40 %. Where numba loads, ``play_games``
runs the compiled kernel of ``games/unmatched/kernel.py`` instead (the same games and the same
Metrics, over the int arrays ``prepare`` keeps in ``UnmatchedPrepared.arrays``; about 13 times
the Python batch path): docs/engines/unmatched.md.

Tuning (issue 23): the goals a deck is tuned for are ``goals.GOALS``; ``goal_values`` reads
them off the kernel game by game (``kernel.play_values``), the very values
``simulator.engine.goals.values_by_play`` reads from each game's Metrics. Only a custom deck is
tuned (``tune_problems``): an official hero deck is exactly its printed cards (line 17).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from games.unmatched import GAME, kernel
from games.unmatched.goals import GOALS, KERNEL_READS
from games.unmatched.rules import fighter_names, is_ours
from games.unmatched.schedule import EXHAUSTION_DAMAGE, OPENING_HAND, SCHEDULE
from simulator.engine import compiled
from simulator.engine.cards import SimCard, SimDeck
from simulator.engine.deal import deal_orders
from simulator.engine.engine import Engine, GameState
from simulator.engine.goals import Goal, Values
from simulator.engine.i18n import N_
from simulator.engine.metrics import Metrics
from simulator.engine.params import Param, ParamSpec
from simulator.engine.rng import dealt_order

DIGEST = "unmatched.md"
#: the code of a player's own set (``games/unmatched/deck_json.py``, ``custom_set``): the
#: cards of a fan-made deck are printed there and nowhere else
CUSTOM_SET_PREFIX = "custom-"
#: why an official hero deck is not tuned (``tune_problems``)
OFFICIAL_DECK = N_(
    "This deck holds only cards printed for its hero, like an official hero deck, which is "
    "exactly the cards of its box: only a custom deck (with cards of your own or from other "
    "hero decks) can be tuned."
)

# two actions a turn (unmatched.md:26), hand limit 7 (unmatched.md:36): one definition, in
# the kernel module, which cannot import this one
ACTIONS_PER_TURN = kernel.ACTIONS_PER_TURN
HAND_LIMIT = kernel.HAND_LIMIT
HERO_ZONE = "hero"
ATTACK_TYPES = frozenset({"attack", "versatile"})  # unmatched.md:10: versatile = attack or defense

# Action kinds of the state API: (kind, card index); a maneuver names no card (-1).
ATTACK = "attack"
MANEUVER = "maneuver"
SCHEME = "scheme"
DISCARD = "discard"
Action = tuple[str, int]


# Metric names (the Django side reads them; keep them stable).
M_FELL = "opponent_fell"
M_NEVER_FELL = "never_fell"
M_FALLS_TURN = "opponent_falls_turn"
M_LOST = "lost_to_exhaustion"
M_EXHAUSTED = "exhaustion_damage_taken"
M_EXHAUSTION = "exhaustion_damage"
M_EXHAUSTION_TURN = "exhaustion_turn"
M_DRAWN = "cards_drawn"
M_DEAD = "dead_cards_in_hand"
M_DAMAGE_PREFIX = "damage_by_turn:"


def damage_key(turn: int) -> str:
    """``damage_by_turn:07``: zero-padded so the sorted metric names run in turn order."""
    return f"{M_DAMAGE_PREFIX}{turn:02d}"


# --- what every game of a run shares -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class UnmatchedPrepared:
    """Per-card integer tables, indexed by card index (one extra entry at ``none`` stands for
    "no card", so ``max(hand, default=none)`` needs no test for an empty hand)."""

    deck: SimDeck
    pile: tuple[int, ...]
    names: tuple[str, ...]
    hero_name: str
    hero_hp: int
    opponent_hp: int
    max_turns: int
    value: tuple[int, ...]
    boost: tuple[int, ...]
    #: a fighter of ours may attack with it (attack/versatile, any value)
    can_attack: tuple[bool, ...]
    #: a fighter of ours may play this scheme (line 30)
    can_scheme: tuple[bool, ...]
    #: the policy's preference among attacks: 0 = never attacks with it, higher = sooner
    attack_score: tuple[int, ...]
    #: the policy's discard order at the hand limit: lower = discarded sooner
    discard_rank: tuple[int, ...]
    #: 1 when the policy can never play it (schemes, defense, other fighters', value 0)
    dead: tuple[int, ...]
    none: int
    damage_keys: tuple[str, ...]
    #: the same tables as int arrays for the compiled kernel (built once per ``prepare``, so
    #: a worker reuses them for every batch of a run)
    arrays: kernel.UnmatchedArrays = field(compare=False, repr=False)


def best_attack(hand: Iterable[int], prepared: UnmatchedPrepared) -> tuple[int, int] | None:
    """The policy's attack from these card indexes: (card index, value), or None when no
    fighter of ours can attack with any of them (also for the Django side's test hands)."""
    score = prepared.attack_score
    card = max(hand, key=score.__getitem__, default=prepared.none)
    return (card, prepared.value[card]) if score[card] else None


def _ranked(cards: Iterable[int], key: Callable[[int], Any]) -> dict[int, int]:
    """Card index -> its position (from 1) in ``key`` order: distinct cards get distinct
    ranks, so max/min over a hand never depends on the hand's order."""
    return {card: position for position, card in enumerate(sorted(cards, key=key), start=1)}


def _deal(prepared: UnmatchedPrepared, rng: random.Random) -> list[int]:
    """The shuffled deck (line 23), in the order the chunk path deals game ``rng``'s game."""
    pile = prepared.pile
    return [pile[i] for i in dealt_order(rng, len(pile))]  # the game's one chance step


def _opening(deck: list[int]) -> tuple[list[int], int]:
    """The opening hand, and the exhaustion damage of an opening drawn from a deck of fewer
    than 5 cards (line 37 holds for any draw)."""
    hand = deck[:OPENING_HAND]
    return hand, EXHAUSTION_DAMAGE * (OPENING_HAND - len(hand))


# --- transcript lines (shared by both paths, so they cannot drift apart) ----------------------


def _attack_line(p: UnmatchedPrepared, turn: int, action: int, card: int, opponent: int) -> str:
    fell = " (defeated)" if opponent <= 0 else ""
    return (
        f"T{turn} A{action}: attack with {p.names[card]} ({p.value[card]})"
        f" → opponent {max(opponent, 0)}{fell}"
    )


def _draw_line(p: UnmatchedPrepared, turn: int, action: int, card: int) -> str:
    return f"T{turn} A{action}: maneuver, draw {p.names[card]}"


def _exhaustion_line(p: UnmatchedPrepared, turn: int, action: int, hp: int) -> str:
    fell = " (defeated)" if hp <= 0 else ""
    return (
        f"T{turn} A{action}: maneuver, deck empty: {EXHAUSTION_DAMAGE} damage"
        f" → {p.hero_name} {max(hp, 0)}{fell}"
    )


def _scheme_line(p: UnmatchedPrepared, turn: int, action: int, card: int) -> str:
    return f"T{turn} A{action}: scheme {p.names[card]} (effect not modelled)"


def _discard_line(p: UnmatchedPrepared, turn: int, card: int) -> str:
    return f"T{turn} end: discard {p.names[card]} (hand limit {HAND_LIMIT})"


def _record(metrics: Metrics, p: UnmatchedPrepared, game: _Game | UnmatchedState) -> None:
    """One finished game's measures. Counts and sums are added even when 0, so every name is
    present in every run's metrics."""
    fell_turn, exhaustion, damage = game.fell_turn, game.exhaustion, game.damage
    drawn = game.drawn
    counts, sums, squares = metrics.counts, metrics.sums, metrics.squares
    counts[M_FELL] += fell_turn > 0
    counts[M_NEVER_FELL] += fell_turn == 0
    counts[M_LOST] += game.lost
    counts[M_EXHAUSTED] += exhaustion > 0
    sums[M_DRAWN] += drawn
    squares[M_DRAWN] += drawn * drawn
    sums[M_EXHAUSTION] += exhaustion
    squares[M_EXHAUSTION] += exhaustion * exhaustion
    if fell_turn:
        metrics.observe(M_FALLS_TURN, fell_turn)
    if exhaustion:
        metrics.observe(M_EXHAUSTION_TURN, game.exhaustion_turn)
    histograms = metrics.histograms
    dead = histograms.get(M_DEAD)
    if dead is None:
        dead = histograms[M_DEAD] = Counter()
    for count in game.dead_counts:
        dead[count] += 1
    # Damage dealt by the end of each turn; after the game ends it stays where it was, so
    # every game contributes to every turn and the means per turn are over all games.
    # Kept bare (Counter items are slower than a dict's): the state API and single games
    # record this way; a worker's batch adds its games up once (``_BatchTally``).
    keys = p.damage_keys
    for key, dealt in zip(keys, damage, strict=False):  # damage: the turns played
        sums[key] += dealt
        squares[key] += dealt * dealt
    final = damage[-1] if damage else 0
    final_squared = final * final
    for key in keys[len(damage) :]:
        sums[key] += final
        squares[key] += final_squared


# --- the state API ---------------------------------------------------------------------------


class UnmatchedState(GameState):
    """One goldfish game step by step: conformance tests, golden transcripts, test hands."""

    def __init__(
        self, prepared: UnmatchedPrepared, deck: list[int], hand: list[int], exhaustion: int
    ) -> None:
        self.prepared = prepared
        self.deck = deck  # never changed after the set-up: copies may share it
        self.pos = len(hand)  # the next card to draw
        self.hand = hand
        self.turn = 1
        self.action = 1  # the next action of the turn, 1 or 2
        self.discarding = False  # the turn's actions are done; the hand is over the limit
        self.over = False
        self.opponent_hp = prepared.opponent_hp
        self.hero_hp = prepared.hero_hp - exhaustion
        self.drawn = len(hand)
        self.exhaustion = exhaustion
        self.exhaustion_turn = 0
        self.fell_turn = 0
        self.lost = False
        self.dead_counts: list[int] = []
        self.damage: list[int] = []  # damage dealt by the end of each turn
        if self.hero_hp <= 0:  # only a deck of under 5 cards with a 1-8 HP hero
            self.turn, self.over, self.lost = 0, True, True
        else:
            self._start_turn()

    def copy(self) -> UnmatchedState:
        clone = object.__new__(UnmatchedState)
        clone.__dict__.update(self.__dict__)
        clone.hand = list(self.hand)
        clone.dead_counts = list(self.dead_counts)
        clone.damage = list(self.damage)
        return clone

    def is_over(self) -> bool:
        return self.over

    def legal_actions(self) -> list[Action]:
        if self.over:
            return []
        distinct = sorted(set(self.hand))
        if self.discarding:
            return [(DISCARD, card) for card in distinct]
        p = self.prepared
        return [
            (MANEUVER, -1),  # always possible: from an empty deck it costs HP (line 37)
            *((ATTACK, card) for card in distinct if p.can_attack[card]),
            *((SCHEME, card) for card in distinct if p.can_scheme[card]),
        ]

    def dealt(self) -> int:
        """Damage dealt so far (overkill not counted: the opponent has only its HP)."""
        return self.prepared.opponent_hp - max(self.opponent_hp, 0)

    def apply(self, action: Action) -> str:
        if action not in self.legal_actions():
            raise ValueError(f"not a legal action now: {action!r}")
        kind, card = action
        p = self.prepared
        if kind == DISCARD:
            self.hand.remove(card)
            line = _discard_line(p, self.turn, card)
            if len(self.hand) <= HAND_LIMIT:
                self._end_turn()
            return line
        turn, number = self.turn, self.action
        if kind == ATTACK:
            self.hand.remove(card)
            self.opponent_hp -= p.value[card]  # line 34 with no defence (line 41)
            line = _attack_line(p, turn, number, card, self.opponent_hp)
            if self.opponent_hp <= 0:
                self.fell_turn = turn
                self._finish()
                return line
        elif kind == SCHEME:
            self.hand.remove(card)  # line 30: resolve (not modelled), discard
            line = _scheme_line(p, turn, number, card)
        elif self.pos < len(self.deck):
            card = self.deck[self.pos]
            self.pos += 1
            self.drawn += 1
            self.hand.append(card)
            line = _draw_line(p, turn, number, card)
        else:
            self.hero_hp -= EXHAUSTION_DAMAGE
            self.exhaustion += EXHAUSTION_DAMAGE
            self.exhaustion_turn = self.exhaustion_turn or turn
            line = _exhaustion_line(p, turn, number, self.hero_hp)
            if self.hero_hp <= 0:  # line 38
                self.lost = True
                self._finish()
                return line
        if number < ACTIONS_PER_TURN:
            self.action = number + 1
        elif len(self.hand) > HAND_LIMIT:
            self.discarding = True
        else:
            self._end_turn()
        return line

    def _start_turn(self) -> None:
        dead = self.prepared.dead
        self.dead_counts.append(sum(dead[card] for card in self.hand))

    def _end_turn(self) -> None:
        self.damage.append(self.dealt())
        self.discarding = False
        if self.turn >= self.prepared.max_turns:
            self.over = True
            return
        self.turn += 1
        self.action = 1
        self._start_turn()

    def _finish(self) -> None:
        self.damage.append(self.dealt())
        self.over = True


# --- the engine ------------------------------------------------------------------------------


class UnmatchedEngine(Engine[UnmatchedPrepared, UnmatchedState]):
    slug = GAME.slug
    #: 2: decks dealt from counter-based keys (simulator/engine/deal.py), not random.Random
    version = 2
    schedule = SCHEDULE
    max_turns = 60
    goals = GOALS
    params = ParamSpec(
        (
            Param(
                "opponent_hp",
                N_("Opponent hero HP"),
                "int",
                16,
                minimum=1,
                maximum=40,
                help=N_("The goldfish opponent falls when this much damage is dealt."),
            ),
            Param(
                "max_turns",
                N_("Turns at most"),
                "int",
                30,
                minimum=1,
                maximum=60,
                help=N_("A game still going after this many turns counts as never fell."),
            ),
        )
    )
    not_modelled = (
        N_("Movement, the board and ranges: the opponent always stands adjacent to us."),
        N_("Sidekick positions; the goldfish never damages our hero or sidekicks."),
        N_("Card effects (immediately, during and after combat)."),
        N_("Boosts (discarding a card to move further or for an ability)."),
        N_("Schemes: the policy never plays them, so they count as dead cards."),
        N_("The opponent's defence: it never plays a defense card."),
        N_("The opponent's turns: it never attacks or moves."),
        N_("Heroes' special abilities."),
    )
    cites = tuple(f"{DIGEST}:{line}" for line in (23, 26, 27, 30, 31, 32, 34, 36, 37, 38, 41))
    #: how the results page names each measure (marked for translation)
    metric_labels = {
        M_FELL: N_("The opponent fell"),
        M_NEVER_FELL: N_("The opponent never fell"),
        M_FALLS_TURN: N_("Turn the opponent falls"),
        M_LOST: N_("Lost to exhaustion"),
        M_EXHAUSTED: N_("Took exhaustion damage"),
        M_EXHAUSTION: N_("Exhaustion damage taken"),
        M_EXHAUSTION_TURN: N_("Turn of the first exhaustion damage"),
        M_DRAWN: N_("Cards drawn"),
        M_DEAD: N_("Dead cards in hand"),
        M_DAMAGE_PREFIX: N_("Damage dealt by turn"),
    }

    def warm(self) -> None:
        """Compile the batch kernel, or load it from numba's on-disk cache, on a 3-card deck
        with the argument types a run passes (so the run finds the machine code ready)."""
        if not compiled.available():
            return
        compiled.warm_deal()
        tables = kernel.arrays((0, 1, 2), (2, 1, 0, 0), (2, 1, 0, 0), (2, 3, 1, 4), (0, 0, 1, 0))
        kernel.play_batch(tables, 16, 16, 2, 1, 0, 1)
        kernel.play_values(tables, 16, 16, 2, 1, 0, 1, kernel.V_DAMAGE_BY, 1)

    def tune_problems(self, deck: SimDeck) -> list[str]:
        """An official hero deck is exactly its printed action cards (unmatched.md:17): a deck
        whose hero is a catalog card and whose every action card was printed in that hero's
        own deck is taken for one. A deck holding a player's own cards or a card printed for
        another hero deck is custom, and tuned. What the deck alone cannot tell: a deck of the
        hero's own cards in other numbers than the box's is taken for the official one."""
        heroes = deck.in_zone(HERO_ZONE)
        if len(heroes) != 1 or not _catalog_card(heroes[0]):
            return []  # no hero: deck_problems says so; a hero of the player's own: custom
        own_deck = printed_in(heroes[0])
        cards = deck.in_zone(deck.draw_zone)
        if cards and all(_catalog_card(c) and own_deck & printed_in(c) for c in cards):
            return [OFFICIAL_DECK]
        return []

    def goal_values(
        self,
        prepared: UnmatchedPrepared,
        params: dict[str, Any],
        goal: Goal,
        turn: int | None,
        run_seed: int,
        start: int,
        count: int,
    ) -> Values:
        """The goal's value of each game from the compiled kernel (``kernel.play_values``),
        the games ``values_by_play`` plays; numba off, or a goal the kernel does not read:
        the reference itself."""
        reading = KERNEL_READS.get(goal.code)
        if reading is None or not compiled.available():
            return super().goal_values(prepared, params, goal, turn, run_seed, start, count)
        if run_seed < 0 or start < 0:  # as the reference's deal (deal_orders) refuses them
            raise ValueError("run seeds and game indexes are not negative")
        p = prepared
        at = (goal.turn if turn is None else turn) if goal.at_turn else 0
        if at is None or (goal.at_turn and not 1 <= at <= p.max_turns):
            # the reference finds no measure of that turn either
            raise ValueError(f"turn {at} is not a turn of a game of at most {p.max_turns} turns")
        return kernel.play_values(
            p.arrays, p.hero_hp, p.opponent_hp, p.max_turns, run_seed, start, count, reading, at
        )

    def deck_problems(self, deck: SimDeck) -> list[str]:
        problems = []
        heroes = deck.in_zone(HERO_ZONE)
        if not heroes:
            problems.append(N_("The deck has no character card, so it has no hero to play."))
        elif deck.copies(HERO_ZONE) > 1:
            problems.append(N_("The deck has more than one character card."))
        elif not _int(heroes[0].attributes.get("hp")):
            problems.append(N_("The character card has no hero HP."))
        if deck.size < 1:
            problems.append(N_("The deck has no action cards to draw."))
        return problems

    def prepare(self, deck: SimDeck, params: dict[str, Any]) -> UnmatchedPrepared:
        self.require_playable(deck)
        values = self.params.clean(params)
        (character,) = deck.in_zone(HERO_ZONE)
        names = fighter_names(
            character.name, str(character.attributes.get("sidekick") or ""), character.code
        )
        cards = deck.cards
        value = [_int(c.attributes.get("value")) for c in cards]
        boost = [_int(c.attributes.get("boost")) for c in cards]
        own_decks = printed_in(character)
        ours = [_ours(c, names, own_decks) for c in cards]
        can_attack = [ours[c.index] and c.card_type in ATTACK_TYPES for c in cards]
        can_scheme = [ours[c.index] and c.card_type == SCHEME for c in cards]
        playable = [i for i, ok in enumerate(can_attack) if ok and value[i] > 0]
        # sooner: higher value, then lower boost; the index only makes every rank distinct
        attack_rank = _ranked(playable, lambda i: (value[i], -boost[i], -i))
        # discarded sooner: never playable, then lower value; lower boost within each
        discard_order = _ranked(
            range(len(cards)), lambda i: (value[i] if i in attack_rank else -1, boost[i], i)
        )
        none = len(cards)
        max_turns = int(values["max_turns"])
        pile = tuple(deck.pile())
        attack_score = (*(attack_rank.get(i, 0) for i in range(none)), 0)
        discard_rank = (*(discard_order[i] for i in range(none)), none + 1)
        dead = (*(int(i not in attack_rank) for i in range(none)), 0)
        return UnmatchedPrepared(
            deck=deck,
            pile=pile,
            names=tuple(c.name for c in cards),
            hero_name=character.name,
            hero_hp=_int(character.attributes.get("hp")),
            opponent_hp=int(values["opponent_hp"]),
            max_turns=max_turns,
            value=(*value, 0),
            boost=(*boost, 0),
            can_attack=(*can_attack, False),
            can_scheme=(*can_scheme, False),
            attack_score=attack_score,
            discard_rank=discard_rank,
            dead=dead,
            none=none,
            damage_keys=tuple(damage_key(t) for t in range(1, max_turns + 1)),
            arrays=kernel.arrays(pile, (*value, 0), attack_score, discard_rank, dead),
        )

    def new_game(
        self, prepared: UnmatchedPrepared, params: dict[str, Any], rng: random.Random
    ) -> UnmatchedState:
        deck = _deal(prepared, rng)
        hand, exhaustion = _opening(deck)
        return UnmatchedState(prepared, deck, hand, exhaustion)

    def choose(self, state: UnmatchedState) -> Action:
        p = state.prepared
        if state.discarding:
            return (DISCARD, min(state.hand, key=p.discard_rank.__getitem__))
        attack = best_attack(state.hand, p)
        return (ATTACK, attack[0]) if attack else (MANEUVER, -1)

    def record(self, state: UnmatchedState, metrics: Metrics) -> None:
        _record(metrics, state.prepared, state)

    def play(
        self,
        prepared: UnmatchedPrepared,
        params: dict[str, Any],
        rng: random.Random,
        metrics: Metrics,
        transcript: list[str] | None = None,
    ) -> None:
        """One game by the fast loop (``_play``): transcripts and single games; runs go
        through ``play_games``."""
        out = transcript.append if transcript is not None else None
        _record(metrics, prepared, _play(prepared, _deal(prepared, rng), out))

    def play_games(
        self,
        prepared: UnmatchedPrepared,
        params: dict[str, Any],
        run_seed: int,
        start: int,
        count: int,
    ) -> Metrics:
        """A batch: the compiled kernel (``games/unmatched/kernel.py``) where numba loads,
        else the Python batch path (``play_games_python``); both give the same Metrics."""
        if not compiled.available():
            compiled.fallback_notice(self.slug)
            return self.play_games_python(prepared, params, run_seed, start, count)
        if run_seed < 0 or start < 0:  # as deal_orders refuses them on the Python path
            raise ValueError("run seeds and game indexes are not negative")
        p = prepared
        totals = kernel.play_batch(
            p.arrays, p.hero_hp, p.opponent_hp, p.max_turns, run_seed, start, count
        )
        return _kernel_metrics(p, totals, count)

    def play_games_python(
        self,
        prepared: UnmatchedPrepared,
        params: dict[str, Any],
        run_seed: int,
        start: int,
        count: int,
    ) -> Metrics:
        """The Python batch path (the fallback, and the kernel's reference on totals): every
        game's deck dealt at once (``deal_orders``), each game played by the fast loop, the
        measures added up once for the batch (``_BatchTally``)."""
        p = prepared
        piles = np.asarray(p.pile, dtype=np.intp)[deal_orders(run_seed, start, count, len(p.pile))]
        tally = _BatchTally(p)
        add = tally.add
        for deck in piles.tolist():
            add(_play(p, deck, None))
        return tally.metrics(count)


@dataclass(slots=True)
class _Game:
    """What the fast loop tells of one finished game (the names of ``UnmatchedState``'s, so
    ``_record`` reads either)."""

    fell_turn: int
    lost: bool
    drawn: int
    exhaustion: int
    exhaustion_turn: int
    dead_counts: list[int]
    damage: list[int]


def _play(p: UnmatchedPrepared, deck: list[int], out: Callable[[str], None] | None) -> _Game:
    """The policy's game as one loop over ints: the same game as ``new_game`` + ``choose`` +
    ``apply`` (the tests compare them), without the state object or the legality checks."""
    hand, exhaustion = _opening(deck)
    size = len(deck)
    pos = len(hand)  # the next card to draw: also the cards drawn so far
    hp = p.hero_hp - exhaustion
    opponent = start_hp = p.opponent_hp
    score = p.attack_score.__getitem__
    rank = p.discard_rank.__getitem__
    value = p.value
    dead = p.dead
    # The hand in two lists: the cards the policy may attack with, and the dead ones it
    # never plays. The dead count is then a length, the best attack a max over a few cards,
    # and the discard the same card as the state's (every dead card ranks below every
    # playable one in discard_rank).
    attacks = [card for card in hand if not dead[card]]
    stuck = [card for card in hand if dead[card]]
    dead_counts: list[int] = []
    damage: list[int] = []
    fell_turn = exhaustion_turn = 0
    lost = hp <= 0
    ended = lost
    turn = 1
    while not ended:
        dead_counts.append(len(stuck))
        for number in (1, 2):  # ACTIONS_PER_TURN
            if attacks:
                card = max(attacks, key=score)
                attacks.remove(card)
                opponent -= value[card]
                if out is not None:
                    out(_attack_line(p, turn, number, card, opponent))
                if opponent <= 0:
                    fell_turn = turn
                    ended = True
                    break
            elif pos < size:
                card = deck[pos]
                pos += 1
                if dead[card]:
                    stuck.append(card)
                else:
                    attacks.append(card)
                if out is not None:
                    out(_draw_line(p, turn, number, card))
            else:
                hp -= EXHAUSTION_DAMAGE
                exhaustion += EXHAUSTION_DAMAGE
                exhaustion_turn = exhaustion_turn or turn
                if out is not None:
                    out(_exhaustion_line(p, turn, number, hp))
                if hp <= 0:
                    lost = ended = True
                    break
        if not ended:
            while len(attacks) + len(stuck) > HAND_LIMIT:
                pile = stuck or attacks
                card = min(pile, key=rank)
                pile.remove(card)
                if out is not None:
                    out(_discard_line(p, turn, card))
        damage.append(start_hp - (opponent if opponent > 0 else 0))
        if turn >= p.max_turns:
            break
        turn += 1
    return _Game(fell_turn, lost, pos, exhaustion, exhaustion_turn, dead_counts, damage)


class _BatchTally:
    """A batch's measures, kept in plain ints and lists while the games run and turned into
    ``Metrics`` once: the same numbers ``_record`` adds game by game (the conformance tests
    compare them), at a fraction of the cost of 60 Counter updates a game."""

    def __init__(self, p: UnmatchedPrepared) -> None:
        self.p = p
        self.fell: list[int] = []
        self.lost = self.exhausted = 0
        self.drawn = self.drawn_squares = 0
        self.exhaustion = self.exhaustion_squares = 0
        self.exhaustion_turns: list[int] = []
        self.dead_counts: list[int] = []
        #: each game's damage by the end of every turn, padded with its final value
        self.damage: list[list[int]] = []

    def add(self, game: _Game) -> None:
        if game.fell_turn:
            self.fell.append(game.fell_turn)
        self.lost += game.lost
        self.drawn += game.drawn
        self.drawn_squares += game.drawn * game.drawn
        if game.exhaustion:
            self.exhausted += 1
            self.exhaustion += game.exhaustion
            self.exhaustion_squares += game.exhaustion * game.exhaustion
            self.exhaustion_turns.append(game.exhaustion_turn)
        self.dead_counts += game.dead_counts
        damage = game.damage
        missing = self.p.max_turns - len(damage)
        if missing:
            damage += [damage[-1] if damage else 0] * missing
        self.damage.append(damage)

    def metrics(self, games: int) -> Metrics:
        m = Metrics(games=games)
        counts, sums, squares = m.counts, m.sums, m.squares
        counts[M_FELL] = len(self.fell)
        counts[M_NEVER_FELL] = games - len(self.fell)
        counts[M_LOST] = self.lost
        counts[M_EXHAUSTED] = self.exhausted
        sums[M_DRAWN], squares[M_DRAWN] = self.drawn, self.drawn_squares
        sums[M_EXHAUSTION], squares[M_EXHAUSTION] = self.exhaustion, self.exhaustion_squares
        if self.fell:
            m.histograms[M_FALLS_TURN] = Counter(self.fell)
        if self.exhaustion_turns:
            m.histograms[M_EXHAUSTION_TURN] = Counter(self.exhaustion_turns)
        m.histograms[M_DEAD] = Counter(self.dead_counts)
        keys = self.p.damage_keys
        if self.damage:
            table = np.array(self.damage, dtype=np.int64)
            for key, total, square in zip(
                keys, table.sum(axis=0).tolist(), (table * table).sum(axis=0).tolist(), strict=True
            ):
                sums[key], squares[key] = total, square
        else:
            for key in keys:
                sums[key] = squares[key] = 0
        return m


def _kernel_metrics(p: UnmatchedPrepared, totals: kernel.Totals, games: int) -> Metrics:
    """The kernel's totals as the Metrics ``_BatchTally.metrics`` gives for the same games:
    the same names, Python ints, and no histogram entry that no game observed."""
    m = Metrics(games=games)
    counts, sums, squares = m.counts, m.sums, m.squares
    scalars = totals.scalars.tolist()
    fell = scalars[kernel.S_FELL]
    counts[M_FELL] = fell
    counts[M_NEVER_FELL] = games - fell
    counts[M_LOST] = scalars[kernel.S_LOST]
    counts[M_EXHAUSTED] = scalars[kernel.S_EXHAUSTED]
    sums[M_DRAWN], squares[M_DRAWN] = scalars[kernel.S_DRAWN], scalars[kernel.S_DRAWN2]
    sums[M_EXHAUSTION] = scalars[kernel.S_EXHAUSTION]
    squares[M_EXHAUSTION] = scalars[kernel.S_EXHAUSTION2]
    if fell:
        m.histograms[M_FALLS_TURN] = _observed(totals.fell_turns)
    if scalars[kernel.S_EXHAUSTED]:
        m.histograms[M_EXHAUSTION_TURN] = _observed(totals.exhaustion_turns)
    m.histograms[M_DEAD] = _observed(totals.dead)
    for key, total, square in zip(
        p.damage_keys, totals.damage.tolist(), totals.damage2.tolist(), strict=True
    ):
        sums[key], squares[key] = total, square
    return m


def _observed(histogram: npt.NDArray[np.int64]) -> Counter[int]:
    """A histogram array as a Counter of the values observed at least once."""
    return Counter({value: n for value, n in enumerate(histogram.tolist()) if n})


def _int(raw: Any) -> int:
    """An attribute as a whole number (absent or malformed: 0)."""
    try:
        return int(raw or 0)
    except (TypeError, ValueError):
        return 0


def printed_in(card: SimCard) -> frozenset[str]:
    """The hero decks the card was printed in: an Unmatched printing's collector number is
    its hero deck's id, so a card printed in the hero's own deck is that hero's, whatever its
    fighter is called there. A deck made by hand (and a run frozen before printings were) may
    say so in the card's own ``printed_in`` attribute instead."""
    numbers = {p.number for p in card.printings if p.number}
    return frozenset(numbers | set(card.attributes.get("printed_in") or ()))


def _catalog_card(card: SimCard) -> bool:
    """Printed in a catalog set, not only in a player's own (a fan-made deck's) set; a card
    made by hand, with no printing, is not a catalog card."""
    return any(not p.set_code.startswith(CUSTOM_SET_PREFIX) for p in card.printings)


def _ours(card: SimCard, names: Sequence[str], own_decks: frozenset[str]) -> bool:
    fighter = str(card.attributes.get("fighter") or "")
    in_own_deck = bool(own_decks & printed_in(card))
    return is_ours((fighter,), names, in_own_deck=in_own_deck)


ENGINE = UnmatchedEngine()
