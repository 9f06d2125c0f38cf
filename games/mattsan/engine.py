"""マッツァンカードゲーム (Mattsan): the goldfish engine (rules digest: shared/rules/mattsan.md;
the Japanese seed shared/seeds/004_d6075dcb598397a4.txt wins where they differ, cited "seed:N").

What a game is here. We shuffle our deck and draw the opening hand (its size is not published,
mattsan.md:22: a parameter, default ``SCHEDULE.opening``). We take the first turn. Each of our
turns (mattsan.md:19-21):

  1. draw 1 card (the first turn too); a draw from an empty deck loses (mattsan.md:17-18,
     seed:340 "「山札」からドローをする際、「山札」の残りが【0】枚だった時");
  2. soul charge: ``soul_charge`` cards go to the soul charge area (mattsan.md:15-16, 19; amount
     and source unpublished, mattsan.md:22: parameters). Spent soul stands up again at our next
     turn start unless ``soul_untaps`` is off;
  3. start-of-turn effects: none are modelled (they would come here, seed:53);
  4. placing: a unit from hand onto the empty battlefield (one fighting unit, mattsan.md:13),
     then units onto the bench (3 slots, mattsan.md:14), face up from hand (a "placement",
     mattsan.md:27); trump cards are cast by turning soul charge cards sideways (their cost,
     mattsan.md:15-16);
  5. one turn-ending action (mattsan.md:20-21): the attack, ``attack_damage`` to the dummy's
     battlefield unit (the catalog carries no attack values: a parameter).

The dummy (mattsan.md:53-54) is a line-up of up to four face-up units (battlefield + 3 bench
slots) with configurable HP and soul, and a deck of ``dummy_deck`` cards. It never answers; its
turn is a draw (a draw from its empty deck loses it the game) and, only when ``dummy_damage`` is
set, an attack on our battlefield unit.

Every damage is one *damage processing* (mattsan.md:30-32): damage → defeat (0 HP or less,
mattsan.md:37) → soul draws (the owner of each defeated unit draws its soul value × ``soul_draw``
cards, mattsan.md:31; seed:503 makes both players draw, so the owner draws) → re-placing a unit on
each emptied battlefield. With several targets (a field-wide trump, ``trump_target``) the damage
lands at once, the defeats go one by one enemy battlefield → own battlefield → enemy bench → own
bench, benches alternating (mattsan.md:33-34), the soul draws go together, the originator first,
then the re-placing, the originator first (mattsan.md:35-36). A player who cannot put a unit on its
battlefield loses, as does one who must draw from an empty deck (mattsan.md:17-18); when both meet
a loss condition in one processing, the player whose effect caused it loses (mattsan.md:35-36).

The policy (``MattsanEngine.choose``), in each main phase: put the best unit (``unit_order``) on an
empty battlefield; fill the bench with units (``fill_bench``); cast the most expensive trump it can
pay for while it can; then attack. Re-placing takes from the bench or the hand first
(``replace_from``). Soul charge from hand (``soul_charge_from``) spends the least useful card:
traps and terrain (never played here) first, then the most expensive trump; never a unit.

Measures (stable names, read by the Django side):
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

Speed: ``prepare`` builds per-card integer tables; the fast ``play`` drives the same state
mechanics as the state API with the policy inlined and no legality checks or text unless a
transcript is wanted (the tests compare both, transcripts and metrics, seed by seed).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.mattsan import GAME
from games.mattsan.schedule import SCHEDULE
from simulator.engine.cards import SimDeck
from simulator.engine.engine import Engine, GameState
from simulator.engine.i18n import N_
from simulator.engine.metrics import Metrics
from simulator.engine.params import Param, ParamSpec

GAME_SLUG = GAME.slug
DIGEST = "mattsan.md"

BENCH_SLOTS = 3  # mattsan.md:14: normally 3 bench slots
DUMMY_SLOTS = 4  # the dummy's battlefield unit and its 3 bench slots (mattsan.md:13-14)

# Card kinds (mattsan.md:12). Traps and terrain are K_OTHER: never played by this goldfish.
K_UNIT, K_TRUMP, K_OTHER = 0, 1, 2

# Actions of the state API: (kind, card index); -1 when no card is named.
START = "start"  # the turn's draw and soul charge (mattsan.md:19), automatic
PLACE = "place"  # a unit from hand to the battlefield, or the bench if it is taken
TRUMP = "trump"  # cast a trump card, paying its cost in soul charge
ATTACK = "attack"  # the turn-ending action (mattsan.md:21)
END = "end"  # end the turn with no unit on the battlefield (only before the first unit stands)
Action = tuple[str, int]

# Phases
P_START, P_MAIN, P_OVER = 0, 1, 2

# Sides of a damage processing
US, DUMMY = 0, 1

# What a damage hits on one side
T_NONE, T_BATTLEFIELD, T_ALL = 0, 1, 2
TRUMP_TARGETS = {"battlefield": (T_BATTLEFIELD, T_NONE), "enemy_field": (T_ALL, T_NONE)}
TRUMP_TARGETS["whole_field"] = (T_ALL, T_ALL)

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

#: what the engine assumes where the published rules are silent (listed on the results page)
ASSUMPTIONS: tuple[str, ...] = (
    N_(
        "The opening hand is 5 cards and there is no mulligan: the published rules give "
        "neither (mattsan.md:22)."
    ),
    N_(
        "Soul charge moves 1 card a turn from the top of the deck; soul charge from an empty "
        "deck does nothing, as it is not a draw (amount and source unpublished, mattsan.md:22)."
    ),
    N_("Soul charge cards turned sideways to pay for a trump stand up at your next turn start."),
    N_("A soul draw draws as many cards as the defeated unit's soul value (mattsan.md:23)."),
    N_("The defeated unit's owner makes the soul draw (both players draw, seed line 503)."),
    N_("Every attack deals 3 damage: the catalog carries no attack values."),
    N_("Trump effects are not modelled unless a trump damage is set; trumps are still cast."),
    N_(
        "An opening that cannot put a unit on the battlefield at turn 1 loses the game "
        "(mattsan.md:17)."
    ),
    N_("We take the first turn; the dummy's turn is a draw and, if set, one attack."),
    N_(
        "Loss conditions met in one damage processing count as simultaneous: the player whose "
        "effect caused them loses (mattsan.md:35-36)."
    ),
)

_ORDERS = (
    ("highest_hp", N_("Highest HP first")),
    ("lowest_hp", N_("Lowest HP first")),
)


def turn_key(prefix: str, turn: int) -> str:
    """``soul_by_turn:07``: zero-padded so sorted names run in turn order."""
    return f"{prefix}{turn:02d}"


# --- what every game of a run shares ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MattsanPrepared:
    """Per-card integer tables (indexed by card index) and the cleaned parameters."""

    deck: SimDeck
    pile: tuple[int, ...]
    names: tuple[str, ...]
    kind: tuple[int, ...]
    hp: tuple[int, ...]
    soul: tuple[int, ...]
    cost: tuple[int, ...]
    #: units: higher = placed sooner (distinct); 0 for other cards
    unit_rank: tuple[int, ...]
    #: trumps: higher = cast sooner (higher cost first; distinct); 0 for other cards
    trump_rank: tuple[int, ...]
    #: soul charge from hand: lower = charged sooner (distinct); 0 = never charged (units)
    charge_rank: tuple[int, ...]
    opening: int
    soul_charge: int
    charge_from_hand: bool
    soul_untaps: bool
    soul_draw: int
    attack_damage: int
    trump_damage: int
    trump_on_dummy: int
    trump_on_us: int
    dummy_line_up: tuple[int, ...]
    dummy_soul: int
    dummy_deck: int
    dummy_damage: int
    wait_for_unit: bool
    highest_first: bool
    fill_bench: bool
    replace_from_bench: bool
    max_turns: int
    no_unit_keys: tuple[str, ...]
    soul_keys: tuple[str, ...]
    trump_keys: tuple[str, ...]
    trumps_keys: tuple[str, ...]


def _int(raw: Any) -> int:
    """An attribute as a whole number (absent or malformed: 0)."""
    try:
        return int(raw or 0)
    except (TypeError, ValueError):
        return 0


def _ranked(cards: Sequence[int], key: Any) -> dict[int, int]:
    """Card index -> its position (from 1) in ``key`` order: distinct ranks, so a max over a
    hand never depends on the hand's order."""
    return {card: position for position, card in enumerate(sorted(cards, key=key), start=1)}


# --- the state (the mechanics both paths share) -----------------------------------------------


class MattsanState(GameState):
    """One goldfish game. The state API (legal_actions/apply) and the fast loop both run the
    mechanics below, so they play the same game; only the fast loop skips checks and text."""

    def __init__(self, prepared: MattsanPrepared, deck: list[int]) -> None:
        p = prepared
        self.prepared = p
        self.deck = deck  # never changed after the shuffle: copies may share it
        self.pos = min(p.opening, len(deck))  # the next card to draw
        self.hand = deck[: self.pos]
        self.turn = 0
        self.phase = P_START
        self.field = -1  # our battlefield unit (card index), -1: empty
        self.field_hp = 0
        self.bench: list[int] = []  # our bench units (card indexes)
        self.bench_hp: list[int] = []
        self.soul = 0  # soul charge cards in the area
        self.spent = 0  # of which turned sideways
        self.stood = False  # a unit of ours has stood on the battlefield
        # the dummy's line-up: index 0 is its battlefield unit, then its bench in order
        self.d_ids = [i + 1 for i, hp in enumerate(p.dummy_line_up) if hp > 0]
        self.d_hp = [hp for hp in p.dummy_line_up if hp > 0]
        self.d_deck = p.dummy_deck
        self.outcome = ""
        self.simultaneous = False
        self.drawn = self.pos
        self.soul_drawn = 0
        self.trumps_cast = 0
        self.first_trump = 0
        self.dummy_defeated = 0
        self.souls: list[int] = []  # soul charge at the end of each turn
        self.casts: list[int] = []  # trumps cast by the end of each turn
        self.no_unit_turns: list[int] = []  # turns whose main phase had no unit in hand

    def copy(self) -> MattsanState:
        clone = object.__new__(MattsanState)
        clone.__dict__.update(self.__dict__)
        for name in ("hand", "bench", "bench_hp", "d_ids", "d_hp", "souls", "casts"):
            setattr(clone, name, list(getattr(self, name)))
        clone.no_unit_turns = list(self.no_unit_turns)
        return clone

    # --- the state API ---------------------------------------------------------------------

    def is_over(self) -> bool:
        return self.phase == P_OVER

    def legal_actions(self) -> list[Action]:
        if self.phase == P_OVER:
            return []
        if self.phase == P_START:
            return [(START, -1)]
        p = self.prepared
        kind = p.kind
        units = sorted({c for c in self.hand if kind[c] == K_UNIT})
        if self.field < 0 and units:
            # the battlefield must hold a unit while one can be put there (mattsan.md:17)
            return [(PLACE, c) for c in units]
        actions: list[Action] = []
        if len(self.bench) < BENCH_SLOTS:  # mattsan.md:14
            actions.extend((PLACE, c) for c in units)
        free = self.soul - self.spent
        cost = p.cost
        actions.extend(
            (TRUMP, c)
            for c in sorted({c for c in self.hand if kind[c] == K_TRUMP})
            if cost[c] <= free
        )
        actions.append((ATTACK, -1) if self.field >= 0 else (END, -1))
        return actions

    def apply(self, action: Action) -> str:
        if action not in self.legal_actions():
            raise ValueError(f"not a legal action now: {action!r}")
        what, card = action
        if what == START:
            return self.start_turn(True)
        if what == PLACE:
            return self.place(card, True)
        if what == TRUMP:
            return self.cast(card, True)
        return self.end_turn(True)

    # --- policy helpers (the engine's choose and the fast loop) ----------------------------

    def best_unit(self) -> int:
        """The unit in hand the policy places next (-1: none)."""
        rank = self.prepared.unit_rank
        best, top = -1, 0
        for c in self.hand:
            r = rank[c]
            if r > top:
                best, top = c, r
        return best

    def best_trump(self) -> int:
        """The trump in hand the policy casts next: the most expensive it can pay for."""
        p = self.prepared
        rank, cost = p.trump_rank, p.cost
        free = self.soul - self.spent
        best, top = -1, 0
        for c in self.hand:
            r = rank[c]
            if r > top and cost[c] <= free:
                best, top = c, r
        return best

    # --- the mechanics ---------------------------------------------------------------------

    def start_turn(self, log: bool) -> str:
        """Draw, soul charge and the check that a unit can stand (mattsan.md:17-19)."""
        p = self.prepared
        self.turn = turn = self.turn + 1
        names = p.names
        if p.soul_untaps:
            self.spent = 0  # assumption: spent soul stands up at our turn start
        deck = self.deck
        if self.pos >= len(deck):
            # mattsan.md:17-18, seed:340: drawing from an empty deck loses
            self._finish(M_LOSS_DECK_OUT)
            return f"T{turn} draw: the deck is empty → LOSS (deck-out)" if log else ""
        card = deck[self.pos]
        self.pos += 1
        self.drawn += 1
        self.hand.append(card)
        charged = self._soul_charge()  # mattsan.md:19: soul charge follows the draw
        line = ""
        if log:
            line = f"T{turn} draw {names[card]}"
            if charged:
                line += "; soul charge " + ", ".join(names[c] for c in charged)
            line += f" (soul {self.soul - self.spent}/{self.soul})"
        kind = p.kind
        if not any(kind[c] == K_UNIT for c in self.hand):
            self.no_unit_turns.append(turn)
            if self.field < 0 and (self.stood or not p.wait_for_unit):
                # mattsan.md:17: no unit can be put on our battlefield
                self._finish(M_LOSS_NO_UNIT)
                return line + " → no unit to put on the battlefield: LOSS" if log else ""
        self.phase = P_MAIN
        if log:
            line += " | hand: " + (", ".join(names[c] for c in self.hand) or "-")
        return line

    def _soul_charge(self) -> list[int]:
        """Move the turn's soul charge cards to the soul charge area; returns them."""
        p = self.prepared
        n = p.soul_charge
        if not n:
            return []
        if not p.charge_from_hand:
            # from the top of the deck; an empty deck charges nothing (not a draw)
            got = self.deck[self.pos : self.pos + n]
            self.pos += len(got)
            self.soul += len(got)
            return got
        hand, rank = self.hand, p.charge_rank
        got = []
        for _ in range(n):
            best, low = -1, 1 << 30
            for c in hand:
                r = rank[c]
                if 0 < r < low:
                    best, low = c, r
            if best < 0:
                break  # only units left: the policy never charges a unit
            hand.remove(best)
            got.append(best)
        self.soul += len(got)
        return got

    def place(self, card: int, log: bool) -> str:
        """A unit from hand, face up: to the battlefield if empty, else the bench."""
        p = self.prepared
        self.hand.remove(card)
        if self.field < 0:
            self.field, self.field_hp, self.stood = card, p.hp[card], True
            return (
                f"T{self.turn} place {p.names[card]} on the battlefield (HP {p.hp[card]})"
                if log
                else ""
            )
        self.bench.append(card)
        self.bench_hp.append(p.hp[card])
        if not log:
            return ""
        return (
            f"T{self.turn} place {p.names[card]} on the bench "
            f"(HP {p.hp[card]}, {len(self.bench)}/{BENCH_SLOTS})"
        )

    def cast(self, card: int, log: bool) -> str:
        """A trump, paid by turning soul charge cards sideways (mattsan.md:15-16)."""
        p = self.prepared
        self.hand.remove(card)
        self.spent += p.cost[card]
        self.trumps_cast += 1
        if not self.first_trump:
            self.first_trump = self.turn
        parts: list[str] | None = None
        if log:
            parts = [
                f"T{self.turn} cast {p.names[card]} (cost {p.cost[card]}, "
                f"soul {self.soul - self.spent}/{self.soul})"
            ]
        if p.trump_damage:
            self._process(US, p.trump_on_dummy, p.trump_on_us, p.trump_damage, parts)
        return "".join(parts) if parts is not None else ""

    def end_turn(self, log: bool) -> str:
        """The turn-ending action (mattsan.md:21), then the dummy's turn."""
        p = self.prepared
        parts: list[str] | None = [] if log else None
        if self.field >= 0:
            if parts is not None:
                parts.append(f"T{self.turn} attack with {p.names[self.field]}")
            self._process(US, T_BATTLEFIELD, T_NONE, p.attack_damage, parts)
        elif parts is not None:
            parts.append(f"T{self.turn} end the turn: no unit on the battlefield")
        if self.phase != P_OVER:
            self._close_turn()
            if self.turn >= p.max_turns:
                self._finish(M_TURN_LIMIT)
                if parts is not None:
                    parts.append(f" → turn limit ({p.max_turns})")
            else:
                self._dummy_turn(parts)
                if self.phase != P_OVER:
                    self.phase = P_START
        return "".join(parts) if parts is not None else ""

    def _dummy_turn(self, parts: list[str] | None) -> None:
        """The goldfish's turn: a draw (mattsan.md:19) and, if set, one attack."""
        p = self.prepared
        if self.d_deck <= 0:
            self._finish(M_WIN_DECK_OUT)  # mattsan.md:17-18
            if parts is not None:
                parts.append(" | dummy draw: its deck is empty → WIN (dummy deck-out)")
            return
        self.d_deck -= 1
        if parts is not None:
            parts.append(f" | dummy draws (deck {self.d_deck})")
        if p.dummy_damage and self.field >= 0:
            if parts is not None:
                parts.append(f" and attacks {p.names[self.field]}")
            self._process(DUMMY, T_NONE, T_BATTLEFIELD, p.dummy_damage, parts)

    def _process(
        self, origin: int, on_dummy: int, on_us: int, amount: int, parts: list[str] | None
    ) -> None:
        """One damage processing (mattsan.md:30-36): damage to every target at once, defeats
        one by one, soul draws together, re-placing; then the loss conditions are judged."""
        p = self.prepared
        names = p.names
        d_hp, d_ids = self.d_hp, self.d_ids
        # 1. all the damage at once (mattsan.md:34, seed:499)
        n_dummy = len(d_hp) if on_dummy == T_ALL else min(on_dummy, len(d_hp))
        for i in range(n_dummy):
            d_hp[i] -= amount
        ours_hit = on_us != T_NONE and self.field >= 0
        if ours_hit:
            self.field_hp -= amount
        n_bench = len(self.bench_hp) if on_us == T_ALL else 0
        for i in range(n_bench):
            self.bench_hp[i] -= amount
        if parts is not None:
            hit = [f"D{d_ids[i]} {d_hp[i] + amount}→{max(d_hp[i], 0)}" for i in range(n_dummy)]
            if ours_hit:
                hit.append(f"{names[self.field]} {self.field_hp + amount}→{max(self.field_hp, 0)}")
            hit.extend(
                f"{names[self.bench[i]]} {self.bench_hp[i] + amount}→{max(self.bench_hp[i], 0)}"
                for i in range(n_bench)
            )
            parts.append(f": {amount} damage to " + ", ".join(hit))
        # 2. defeats at 0 HP or less (mattsan.md:37), in the order of mattsan.md:34
        d_gone = [i for i in range(n_dummy) if d_hp[i] <= 0]
        field_gone = ours_hit and self.field_hp <= 0
        b_gone = [i for i in range(n_bench) if self.bench_hp[i] <= 0]
        if not d_gone and not field_gone and not b_gone:
            return
        if parts is not None:
            parts.append(
                "; defeated: " + ", ".join(self._defeat_order(origin, d_gone, field_gone, b_gone))
            )
        soul = p.soul
        our_draw = 0
        if field_gone:
            our_draw += soul[self.field]
            self.field = -1
        for i in reversed(b_gone):
            our_draw += soul[self.bench[i]]
            del self.bench[i], self.bench_hp[i]
        for i in reversed(d_gone):
            del d_hp[i], d_ids[i]
        self.dummy_defeated += len(d_gone)
        # the soul value decides the draw (mattsan.md:31); how exactly is a parameter (23)
        our_draw *= p.soul_draw
        dummy_draw = len(d_gone) * p.dummy_soul * p.soul_draw
        # 3. soul draws together, the originator first (mattsan.md:35, seed:503)
        we_out = dummy_out = False
        for side in (origin, 1 - origin):
            if side == US and our_draw:
                we_out = self._soul_draw_us(our_draw, parts)
            elif side == DUMMY and dummy_draw:
                dummy_out = dummy_draw > self.d_deck  # seed:340: a draw from 0 cards loses
                self.d_deck = max(self.d_deck - dummy_draw, 0)
                if parts is not None:
                    parts.append(
                        f"; dummy soul draw {dummy_draw}"
                        + (": deck-out" if dummy_out else f" (deck {self.d_deck})")
                    )
        # 4. re-placing on each emptied battlefield, the originator first (mattsan.md:36)
        we_stuck = dummy_stuck = False
        for side in (origin, 1 - origin):
            if side == US and field_gone:
                we_stuck = not self._replace(parts)
            elif side == DUMMY and d_gone and d_gone[0] == 0:
                if d_hp:
                    if parts is not None:
                        parts.append(f"; D{d_ids[0]} onto the battlefield (HP {d_hp[0]})")
                else:
                    dummy_stuck = True
        # 5. the loss conditions (mattsan.md:17-18); both at once: the originator loses (35-36)
        we_lose = we_out or we_stuck
        dummy_loses = dummy_out or dummy_stuck
        if we_lose and dummy_loses:
            self.simultaneous = origin == US
            if parts is not None:
                parts.append(" → both players meet a loss condition: the originator loses")
            if origin == US:
                dummy_loses = False
            else:
                we_lose = False
        if we_lose:
            self._finish(M_LOSS_DECK_OUT if we_out else M_LOSS_NO_UNIT)
            if parts is not None:
                why = "deck-out" if we_out else "no unit to put on the battlefield"
                parts.append(f" → LOSS ({why})")
        elif dummy_loses:
            self._finish(M_WIN_LINE_UP if dummy_stuck else M_WIN_DECK_OUT)
            if parts is not None:
                why = "the dummy line-up is defeated" if dummy_stuck else "dummy deck-out"
                parts.append(f" → WIN ({why}, turn {self.turn})")

    def _defeat_order(
        self, origin: int, d_gone: list[int], field_gone: bool, b_gone: list[int]
    ) -> list[str]:
        """The defeated units' names in the order of mattsan.md:34 (for the transcript):
        enemy battlefield → own battlefield → enemy bench → own bench, benches alternating."""
        names = self.prepared.names
        dummy_field = [f"D{self.d_ids[0]}"] if d_gone and d_gone[0] == 0 else []
        dummy_bench = [f"D{self.d_ids[i]}" for i in d_gone if i > 0]
        our_field = [names[self.field]] if field_gone else []
        our_bench = [names[self.bench[i]] for i in b_gone]
        if origin == US:
            first, second = (dummy_field, dummy_bench), (our_field, our_bench)
        else:
            first, second = (our_field, our_bench), (dummy_field, dummy_bench)
        order = [*first[0], *second[0]]
        for i in range(max(len(first[1]), len(second[1]))):
            order.extend(bench[i] for bench in (first[1], second[1]) if i < len(bench))
        return order

    def _soul_draw_us(self, n: int, parts: list[str] | None) -> bool:
        """Our soul draw of ``n`` cards; True when a draw found the deck empty (seed:340)."""
        deck = self.deck
        got = deck[self.pos : self.pos + n]
        self.pos += len(got)
        self.hand.extend(got)
        self.drawn += len(got)
        self.soul_drawn += len(got)
        out = len(got) < n
        if parts is not None:
            shown = ", ".join(self.prepared.names[c] for c in got) or "-"
            parts.append(f"; our soul draw {n}: {shown}" + (": deck-out" if out else ""))
        return out

    def _replace(self, parts: list[str] | None) -> bool:
        """Re-place a unit on our emptied battlefield (bench or hand first, ``replace_from``);
        False when there is none (mattsan.md:17)."""
        p = self.prepared
        rank = p.unit_rank
        sources = ("bench", "hand") if p.replace_from_bench else ("hand", "bench")
        for source in sources:
            if source == "bench" and self.bench:
                i = max(range(len(self.bench)), key=lambda j: rank[self.bench[j]])
                self.field, self.field_hp = self.bench.pop(i), self.bench_hp.pop(i)
            elif source == "hand":
                card = self.best_unit()
                if card < 0:
                    continue
                self.hand.remove(card)
                self.field, self.field_hp = card, p.hp[card]
            else:
                continue
            if parts is not None:
                parts.append(
                    f"; {p.names[self.field]} from the {source} onto the battlefield "
                    f"(HP {self.field_hp})"
                )
            return True
        return False

    def _close_turn(self) -> None:
        """The per-turn values at the end of a turn (once per turn)."""
        if len(self.souls) < self.turn:
            self.souls.append(self.soul)
            self.casts.append(self.trumps_cast)

    def _finish(self, outcome: str) -> None:
        self._close_turn()
        self.outcome = outcome
        self.phase = P_OVER


# --- the engine --------------------------------------------------------------------------------


class MattsanEngine(Engine[MattsanPrepared, MattsanState]):
    slug = GAME_SLUG
    version = 1
    assumptions = ASSUMPTIONS
    schedule = SCHEDULE
    max_turns = 60
    params = ParamSpec(
        (
            Param(
                "opening",
                N_("Opening hand (assumption)"),
                "int",
                SCHEDULE.opening,
                minimum=1,
                maximum=10,
                help=N_(
                    "Cards drawn before the first turn. Assumption: the published rules do not "
                    "give the starting hand size."
                ),
            ),
            Param(
                "soul_charge",
                N_("Soul charge per turn (assumption)"),
                "int",
                1,
                minimum=0,
                maximum=3,
                help=N_(
                    "Cards moved to the soul charge area at each turn, after the draw. "
                    "Assumption: the amount is not published."
                ),
            ),
            Param(
                "soul_charge_from",
                N_("Soul charge from (assumption)"),
                "choice",
                "deck",
                choices=(
                    ("deck", N_("The top of the deck")),
                    ("hand", N_("The hand (a card this goldfish never plays)")),
                ),
                help=N_(
                    "Where soul charge cards come from. Assumption: not published. From the "
                    "hand the policy charges traps and terrain first, then the most expensive "
                    "trump, never a unit."
                ),
            ),
            Param(
                "soul_untaps",
                N_("Spent soul stands up each turn (assumption)"),
                "bool",
                True,
                help=N_(
                    "Soul charge cards turned sideways to pay for a trump stand up again at "
                    "your next turn start. Assumption: not published; off, they stay spent."
                ),
            ),
            Param(
                "soul_draw",
                N_("Soul draw per soul point (assumption)"),
                "int",
                1,
                minimum=0,
                maximum=3,
                help=N_(
                    "When a unit is defeated its owner draws its soul value times this many "
                    "cards. Assumption: the exact amount rule is not published."
                ),
            ),
            Param(
                "attack_damage",
                N_("Attack damage (assumption)"),
                "int",
                3,
                minimum=1,
                maximum=30,
                help=N_(
                    "Damage of the attack that ends each turn. Assumption: the catalog "
                    "carries no attack values."
                ),
            ),
            Param(
                "trump_damage",
                N_("Trump damage (assumption)"),
                "int",
                0,
                minimum=0,
                maximum=30,
                help=N_(
                    "Damage each trump card deals when cast; 0: trump effects are not "
                    "modelled (trumps are still cast, for the measures). Assumption."
                ),
            ),
            Param(
                "trump_target",
                N_("Trump damage hits (assumption)"),
                "choice",
                "battlefield",
                choices=(
                    ("battlefield", N_("The dummy's battlefield unit")),
                    ("enemy_field", N_("Every dummy unit")),
                    ("whole_field", N_("Every unit on both fields")),
                ),
                help=N_(
                    "What a trump's damage hits. Several targets are one simultaneous damage "
                    "processing. Assumption: card effects are not in the catalog."
                ),
            ),
            *(
                Param(
                    f"dummy_hp_{slot}",
                    label,
                    "int",
                    default,
                    minimum=1 if slot == 1 else 0,
                    maximum=99,
                    help=hint,
                )
                for slot, label, default, hint in (
                    (
                        1,
                        N_("Dummy battlefield unit HP"),
                        6,
                        N_("HP of the dummy's unit on its battlefield."),
                    ),
                    (
                        2,
                        N_("Dummy bench unit 1 HP"),
                        6,
                        N_("HP of the dummy's first bench unit; 0: no unit there."),
                    ),
                    (
                        3,
                        N_("Dummy bench unit 2 HP"),
                        6,
                        N_("HP of the dummy's second bench unit; 0: no unit there."),
                    ),
                    (
                        4,
                        N_("Dummy bench unit 3 HP"),
                        0,
                        N_("HP of the dummy's third bench unit; 0: no unit there."),
                    ),
                )
            ),
            Param(
                "dummy_soul",
                N_("Dummy units' soul"),
                "int",
                2,
                minimum=0,
                maximum=9,
                help=N_("Soul of each dummy unit: its soul draw when defeated."),
            ),
            Param(
                "dummy_deck",
                N_("Dummy deck"),
                "int",
                20,
                minimum=0,
                maximum=60,
                help=N_(
                    "Cards in the dummy's deck at the start. It draws 1 at each of its turns "
                    "and makes soul draws; a draw from its empty deck loses it the game."
                ),
            ),
            Param(
                "dummy_damage",
                N_("Dummy attack damage"),
                "int",
                0,
                minimum=0,
                maximum=30,
                help=N_(
                    "Damage the dummy deals to our battlefield unit at each of its turns; "
                    "0: it never attacks, a pure goldfish."
                ),
            ),
            Param(
                "opening_without_unit",
                N_("No unit for the first battlefield (assumption)"),
                "choice",
                "lose",
                choices=(
                    ("lose", N_("The game is lost")),
                    ("wait", N_("Wait for a unit, without attacking")),
                ),
                help=N_(
                    "When our first main phase has no unit to put on the battlefield. "
                    "Assumption: no mulligan is published; losing follows mattsan.md:17."
                ),
            ),
            Param(
                "unit_order",
                N_("Which unit to place first"),
                "choice",
                "highest_hp",
                choices=_ORDERS,
                help=N_(
                    "The policy's order for the battlefield, the bench and re-placing "
                    "(ties: higher soul first)."
                ),
            ),
            Param(
                "fill_bench",
                N_("Fill the bench with units"),
                "bool",
                True,
                help=N_("Put units from hand on free bench slots, as reserves to re-place."),
            ),
            Param(
                "replace_from",
                N_("Re-place from"),
                "choice",
                "bench",
                choices=(
                    ("bench", N_("The bench first, then the hand")),
                    ("hand", N_("The hand first, then the bench")),
                ),
                help=N_("Where the unit that replaces a defeated battlefield unit comes from."),
            ),
            Param(
                "max_turns",
                N_("Turns at most"),
                "int",
                30,
                minimum=1,
                maximum=60,
                help=N_("A game still going after this many of our turns counts as unfinished."),
            ),
        )
    )
    not_modelled = (
        N_("Card text: special abilities, special and super special moves, start-of-turn effects."),
        N_("Trump effects other than an optional flat damage; traps and terrain are never played."),
        N_("Face-down placement, flipping, stacking units and swapping as a turn-ending action."),
        N_("Counter-play: the dummy never answers, so traps and responses never happen."),
        N_("The dummy's hand, soul charge and cards: only its line-up, deck size and attack."),
        N_("Dice, discard effects (distinct from defeat) and ghost-type abilities."),
        N_("Bench slots taken by traps or terrain, and extra bench slots from effects."),
    )
    cites = tuple(f"{DIGEST}:{n}" for n in (12, 13, 14, 15, 17, 18, 19, 20, 21, 22, 23, 27))
    cites += tuple(f"{DIGEST}:{n}" for n in (30, 31, 32, 33, 34, 35, 36, 37, 54, 55))
    #: how the results page names each measure (marked for translation)
    metric_labels = {
        M_WIN_LINE_UP: N_("Won: the dummy line-up was defeated"),
        M_WIN_DECK_OUT: N_("Won: the dummy had to draw from an empty deck"),
        M_LOSS_DECK_OUT: N_("Lost: we had to draw from an empty deck"),
        M_LOSS_NO_UNIT: N_("Lost: no unit to put on the battlefield"),
        M_TURN_LIMIT: N_("Unfinished at the turn limit"),
        M_SIMULTANEOUS: N_("Lost as the originator of a simultaneous loss"),
        M_DEFEAT_TURN: N_("Turn the dummy line-up is defeated"),
        M_DECK_OUT_TURN: N_("Deck-out turn"),
        M_NO_UNIT_TURN: N_("Turn with no unit to put on the battlefield"),
        M_FIRST_TRUMP: N_("First turn a trump is cast"),
        M_DUMMY_DEFEATED: N_("Dummy units defeated"),
        M_DRAWN: N_("Cards drawn"),
        M_SOUL_DRAWN: N_("Cards drawn by soul draws"),
        M_NO_UNIT_PREFIX: N_("No unit in hand to place, by turn"),
        M_SOUL_PREFIX: N_("Soul charge by turn"),
        M_TRUMP_PREFIX: N_("A trump cast by turn"),
        M_TRUMPS_PREFIX: N_("Trumps cast by turn"),
    }

    def deck_problems(self, deck: SimDeck) -> list[str]:
        if deck.size < 1:
            return [N_("The deck has no cards to draw.")]
        if not any(deck.cards[i].card_type == "unit" for i in deck.pile()):
            return [N_("The deck has no unit, so no unit can ever stand on the battlefield.")]
        return []

    def prepare(self, deck: SimDeck, params: dict[str, Any]) -> MattsanPrepared:
        problems = self.deck_problems(deck)
        if problems:
            raise ValueError("; ".join(problems))
        v = self.params.clean(params)
        cards = deck.cards
        kinds = tuple(
            K_UNIT if c.card_type == "unit" else K_TRUMP if c.card_type == "trump" else K_OTHER
            for c in cards
        )
        # a unit has at least 1 HP (catalog minimum); malformed data counts as 1
        hp = tuple(
            max(_int(c.attributes.get("hp")), 1) if k == K_UNIT else 0
            for c, k in zip(cards, kinds, strict=True)
        )
        soul = tuple(
            max(_int(c.attributes.get("soul")), 0) if k == K_UNIT else 0
            for c, k in zip(cards, kinds, strict=True)
        )
        cost = tuple(
            max(_int(c.attributes.get("cost")), 0) if k == K_TRUMP else 0
            for c, k in zip(cards, kinds, strict=True)
        )
        indexes = range(len(cards))
        units = [i for i in indexes if kinds[i] == K_UNIT]
        trumps = [i for i in indexes if kinds[i] == K_TRUMP]
        others = [i for i in indexes if kinds[i] == K_OTHER]
        sign = 1 if v["unit_order"] == "highest_hp" else -1
        # placed sooner: HP by the chosen order, then higher soul; the index makes ranks distinct
        unit_rank = _ranked(units, lambda i: (sign * hp[i], soul[i], -i))
        trump_rank = _ranked(trumps, lambda i: (cost[i], -i))
        # charged from hand sooner: traps/terrain, then trumps from the most expensive
        charge_order = [*others, *sorted(trumps, key=lambda i: (-cost[i], i))]
        charge_rank = {card: n for n, card in enumerate(charge_order, start=1)}
        on_dummy, on_us = TRUMP_TARGETS[v["trump_target"]]
        max_turns = int(v["max_turns"])
        turns = range(1, max_turns + 1)
        return MattsanPrepared(
            deck=deck,
            pile=tuple(deck.pile()),
            names=tuple(c.name for c in cards),
            kind=kinds,
            hp=hp,
            soul=soul,
            cost=cost,
            unit_rank=tuple(unit_rank.get(i, 0) for i in indexes),
            trump_rank=tuple(trump_rank.get(i, 0) for i in indexes),
            charge_rank=tuple(charge_rank.get(i, 0) for i in indexes),
            opening=int(v["opening"]),
            soul_charge=int(v["soul_charge"]),
            charge_from_hand=v["soul_charge_from"] == "hand",
            soul_untaps=bool(v["soul_untaps"]),
            soul_draw=int(v["soul_draw"]),
            attack_damage=int(v["attack_damage"]),
            trump_damage=int(v["trump_damage"]),
            trump_on_dummy=on_dummy,
            trump_on_us=on_us,
            dummy_line_up=tuple(int(v[f"dummy_hp_{slot}"]) for slot in range(1, DUMMY_SLOTS + 1)),
            dummy_soul=int(v["dummy_soul"]),
            dummy_deck=int(v["dummy_deck"]),
            dummy_damage=int(v["dummy_damage"]),
            wait_for_unit=v["opening_without_unit"] == "wait",
            highest_first=sign > 0,
            fill_bench=bool(v["fill_bench"]),
            replace_from_bench=v["replace_from"] == "bench",
            max_turns=max_turns,
            no_unit_keys=tuple(turn_key(M_NO_UNIT_PREFIX, t) for t in turns),
            soul_keys=tuple(turn_key(M_SOUL_PREFIX, t) for t in turns),
            trump_keys=tuple(turn_key(M_TRUMP_PREFIX, t) for t in turns),
            trumps_keys=tuple(turn_key(M_TRUMPS_PREFIX, t) for t in turns),
        )

    def new_game(
        self, prepared: MattsanPrepared, params: dict[str, Any], rng: random.Random
    ) -> MattsanState:
        deck = list(prepared.pile)
        rng.shuffle(deck)  # the game's one chance step
        return MattsanState(prepared, deck)

    def choose(self, state: MattsanState) -> Action:
        if state.phase == P_START:
            return (START, -1)
        unit = state.best_unit()
        if state.field < 0 and unit >= 0:
            return (PLACE, unit)
        if (
            unit >= 0
            and state.field >= 0
            and state.prepared.fill_bench
            and len(state.bench) < BENCH_SLOTS
        ):
            return (PLACE, unit)
        trump = state.best_trump()
        if trump >= 0:
            return (TRUMP, trump)
        return (ATTACK, -1) if state.field >= 0 else (END, -1)

    def record(self, state: MattsanState, metrics: Metrics) -> None:
        """One finished game's measures. Counts and sums are added even when 0, so every name
        is present in every run's metrics."""
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

    def play(
        self,
        prepared: MattsanPrepared,
        params: dict[str, Any],
        rng: random.Random,
        metrics: Metrics,
        transcript: list[str] | None = None,
    ) -> None:
        """The policy's game with the choices inlined and no legality checks: the same game
        as ``new_game`` + ``choose`` + ``apply`` (the tests compare them seed by seed)."""
        deck = list(prepared.pile)
        rng.shuffle(deck)  # the game's one chance step
        state = MattsanState(prepared, deck)
        log = transcript is not None
        out = transcript.append if transcript is not None else None
        fill = prepared.fill_bench
        while True:
            line = state.start_turn(log)
            if out is not None:
                out(line)
            if state.phase == P_OVER:
                break
            while True:
                unit = state.best_unit()
                if unit >= 0 and (state.field < 0 or (fill and len(state.bench) < BENCH_SLOTS)):
                    line = state.place(unit, log)
                else:
                    trump = state.best_trump()
                    if trump < 0:
                        break
                    line = state.cast(trump, log)
                if out is not None:
                    out(line)
                if state.phase == P_OVER:
                    break
            if state.phase == P_OVER:
                break
            line = state.end_turn(log)
            if out is not None:
                out(line)
            if state.phase == P_OVER:
                break
        self.record(state, metrics)


ENGINE = MattsanEngine()


# --- the test-hand page ------------------------------------------------------------------------


@dataclass(frozen=True)
class PlanStep:
    """One step of what the policy would do with an opening hand."""

    text: str  # N_()-marked template with %(name)s placeholders
    values: Mapping[str, object]
    cards: tuple[int, ...]  # card indexes into deck.cards


def hand_plan(deck: SimDeck, hand: Sequence[int], params: dict[str, Any]) -> list[PlanStep]:
    """What the engine's policy would do first with this opening hand (before turn 1's draw):
    which unit it puts on the battlefield and the bench, when each trump becomes castable,
    which cards it never plays, and how many attacks the dummy line-up needs."""
    problems = ENGINE.deck_problems(deck)
    if problems:
        return [PlanStep(problem, {}, ()) for problem in problems]
    p = ENGINE.prepare(deck, params)
    names = p.names
    steps: list[PlanStep] = []
    units = sorted((c for c in hand if p.kind[c] == K_UNIT), key=lambda c: -p.unit_rank[c])
    if units:
        lead = units[0]
        why = (
            N_("Put %(unit)s on the battlefield (HP %(hp)s): the unit with the most HP in hand.")
            if p.highest_first
            else N_(
                "Put %(unit)s on the battlefield (HP %(hp)s): the unit with the least HP in hand."
            )
        )
        steps.append(PlanStep(why, {"unit": names[lead], "hp": p.hp[lead]}, (lead,)))
        bench = units[1 : 1 + BENCH_SLOTS] if p.fill_bench else []
        if bench:
            steps.append(
                PlanStep(
                    N_(
                        "Put %(units)s on the bench (%(count)s of 3 slots), reserves to re-place "
                        "the battlefield unit."
                    ),
                    {"units": ", ".join(names[c] for c in bench), "count": len(bench)},
                    tuple(bench),
                )
            )
    elif p.wait_for_unit:
        steps.append(
            PlanStep(
                N_(
                    "No unit in hand: until one is drawn nothing stands on the battlefield and "
                    "no attack is made."
                ),
                {},
                (),
            )
        )
    else:
        steps.append(
            PlanStep(
                N_(
                    "No unit in hand: unless turn 1's draw brings one, no unit can be put on the "
                    "battlefield and the game is lost."
                ),
                {},
                (),
            )
        )
    trumps = sorted((c for c in hand if p.kind[c] == K_TRUMP), key=lambda c: (p.cost[c], c))
    for card in trumps:
        cost = p.cost[card]
        if cost == 0:
            turn = 1
        elif p.soul_charge:
            turn = -(-cost // p.soul_charge)
        else:
            turn = 0
        if turn:
            steps.append(
                PlanStep(
                    N_(
                        "Cast %(trump)s (cost %(cost)s) on turn %(turn)s at the earliest, once "
                        "enough soul charge stands ready."
                    ),
                    {"trump": names[card], "cost": cost, "turn": turn},
                    (card,),
                )
            )
        else:
            steps.append(
                PlanStep(
                    N_("%(trump)s (cost %(cost)s) is never castable: soul charge is set to 0."),
                    {"trump": names[card], "cost": cost},
                    (card,),
                )
            )
    idle = [c for c in hand if p.kind[c] == K_OTHER]
    if idle:
        steps.append(
            PlanStep(
                N_("%(cards)s stay in hand: this goldfish never plays traps or terrain."),
                {"cards": ", ".join(names[c] for c in idle)},
                tuple(idle),
            )
        )
    line_up = [hp for hp in p.dummy_line_up if hp > 0]
    attacks = sum(-(-hp // p.attack_damage) for hp in line_up)
    steps.append(
        PlanStep(
            N_(
                "Attack every turn for %(damage)s damage: the dummy's %(units)s units "
                "(%(hp)s HP in all) need %(attacks)s attacks."
            ),
            {
                "damage": p.attack_damage,
                "units": len(line_up),
                "hp": sum(line_up),
                "attacks": attacks,
            },
            (),
        )
    )
    return steps
