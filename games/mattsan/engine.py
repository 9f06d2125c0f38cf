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

The engine's modules (pure Python and numpy, no Django):
  * ``engine.py``: ``MattsanEngine`` (its parameters, assumptions, what it does not model, the
    digest lines it cites, the policy's ``choose``, the fast ``play``) and ``ENGINE``;
  * ``constants.py``: zone sizes, card kinds, actions, phases, damage targets;
  * ``prepared.py``: ``MattsanPrepared``, the per-card integer tables ``prepare`` builds;
  * ``state.py``: ``MattsanState``, the state API and the mechanics both paths share;
  * ``metrics.py``: the measures' names (stable, read by the Django side), ``record_game`` and
    ``BatchTally`` (a batch's measures added up once);
  * ``kernel.py``: the compiled batch kernel (numba) and its arrays;
  * ``goals.py``: what a deck is tuned for (``GOALS``), read from a game's measures or from
    the kernel's per-game rows (``MattsanEngine.goal_values``);
  * ``plan.py``: ``hand_plan``, what the policy does first with an opening hand.

Speed: ``prepare`` builds per-card integer tables (and the same as numpy arrays for the
kernel); the fast ``play`` drives the same state mechanics as the state API with the policy
inlined and no legality checks or text unless a transcript is wanted (the tests compare both,
transcripts and metrics, seed by seed). A game's deck is dealt from counter-based keys
(``simulator/engine/deal.py``; version 2: the same seed deals other games than the version 1
shuffle did). A worker's batch (``play_games``) runs the compiled kernel (``kernel.py``,
numba); where it cannot, the Python batch path plays the fast loop and adds the measures up
once per batch (``metrics.BatchTally``) instead of once per game. See docs/engines/mattsan.md.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from games.mattsan import GAME, kernel
from games.mattsan.constants import (
    ATTACK,
    BENCH_SLOTS,
    END,
    P_OVER,
    P_START,
    PLACE,
    START,
    TRUMP,
    Action,
)
from games.mattsan.goals import GOALS, ROW_READS
from games.mattsan.metrics import (
    M_DECK_OUT_TURN,
    M_DEFEAT_TURN,
    M_DRAWN,
    M_DUMMY_DEFEATED,
    M_FIRST_TRUMP,
    M_LOSS_DECK_OUT,
    M_LOSS_NO_UNIT,
    M_NO_UNIT_PREFIX,
    M_NO_UNIT_TURN,
    M_SIMULTANEOUS,
    M_SOUL_DRAWN,
    M_SOUL_PREFIX,
    M_TRUMP_PREFIX,
    M_TRUMPS_PREFIX,
    M_TURN_LIMIT,
    M_WIN_DECK_OUT,
    M_WIN_LINE_UP,
    BatchTally,
    record_game,
)
from games.mattsan.plan import PlanStep, hand_plan
from games.mattsan.prepared import MattsanPrepared, build_prepared
from games.mattsan.schedule import SCHEDULE
from games.mattsan.state import MattsanState
from simulator.engine import compiled
from simulator.engine.cards import SimDeck
from simulator.engine.deal import deal_orders
from simulator.engine.engine import Engine
from simulator.engine.goals import Goal, Values
from simulator.engine.i18n import N_
from simulator.engine.metrics import Metrics
from simulator.engine.params import Param, ParamSpec
from simulator.engine.rng import dealt_order

__all__ = ["ENGINE", "GAME_SLUG", "MattsanEngine", "PlanStep", "hand_plan"]

GAME_SLUG = GAME.slug
DIGEST = "mattsan.md"
#: games whose kernel rows ``goal_values`` holds at once
GOAL_ROWS = 8_192

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


# --- the engine --------------------------------------------------------------------------------


class MattsanEngine(Engine[MattsanPrepared, MattsanState]):
    slug = GAME_SLUG
    #: 2: counter-based deals (simulator/engine/deal.py) instead of shuffling the generator
    version = 2
    assumptions = ASSUMPTIONS
    schedule = SCHEDULE
    max_turns = 60
    goals = GOALS
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
        self.require_playable(deck)
        v = self.params.clean(params)
        return build_prepared(deck, v)

    def new_game(
        self, prepared: MattsanPrepared, params: dict[str, Any], rng: random.Random
    ) -> MattsanState:
        return MattsanState(prepared, _deal(prepared, rng))

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
        """One finished game's measures (``metrics.record_game``)."""
        record_game(state, metrics)

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
        state = MattsanState(prepared, _deal(prepared, rng))
        _play(state, transcript.append if transcript is not None else None)
        self.record(state, metrics)

    def play_games(
        self,
        prepared: MattsanPrepared,
        params: dict[str, Any],
        run_seed: int,
        start: int,
        count: int,
    ) -> Metrics:
        """A worker's batch: the compiled kernel (``kernel.py``) where numba runs, else the
        Python batch path; both play the games ``play`` plays (the tests compare them)."""
        p = prepared
        if compiled.available():
            totals = kernel.batch_totals(p.tables, run_seed, start, count)
            return kernel.metrics_of(
                totals, p.soul_keys, p.trump_keys, p.trumps_keys, p.no_unit_keys
            )
        compiled.fallback_notice(self.slug)
        return python_batch(p, run_seed, start, count)

    def goal_values(
        self,
        prepared: MattsanPrepared,
        params: dict[str, Any],
        goal: Goal,
        turn: int | None,
        run_seed: int,
        start: int,
        count: int,
    ) -> Values:
        """Each game's value of ``goal``: read from the compiled kernel's per-game rows
        (``kernel.per_game``, the games ``play`` plays) where numba loads, else played game
        by game (``values_by_play``); tests/games/mattsan/test_goals.py holds the two equal
        game by game."""
        read = ROW_READS.get(goal.code) if goal in GOALS else None  # a goal of ours
        if read is None or not compiled.available():
            return super().goal_values(prepared, params, goal, turn, run_seed, start, count)
        p = prepared
        out = np.empty(max(count, 0), dtype=np.int64)
        # a row is 7 + 3 x max_turns integers: rows for a few thousand games at a time keep
        # a long race's memory small
        for at in range(0, count, GOAL_ROWS):
            size = min(GOAL_ROWS, count - at)
            rows = kernel.per_game(p.tables, run_seed, start + at, size)
            out[at : at + size] = read(rows, p.max_turns, turn)
        return out

    def warm(self) -> None:
        """Compile the kernel, or load it from numba's on-disk cache, on the golden deck."""
        if not compiled.available():
            return
        from games.mattsan.golden import GOLDEN_DECK

        kernel.warm(self.prepare(GOLDEN_DECK, {}).tables)


def _deal(p: MattsanPrepared, rng: random.Random) -> list[int]:
    """The game's deck, top first: its one chance step, the counter-based deal of the game
    ``rng`` belongs to (``simulator.engine.rng.dealt_order``)."""
    pile = p.pile
    return [pile[i] for i in dealt_order(rng, len(pile))]


def python_batch(p: MattsanPrepared, run_seed: int, start: int, count: int) -> Metrics:
    """The Python batch path (the kernel's fallback): every deck of the batch dealt at once
    (``deal_orders``), each game played by the fast loop, the measures added up once for the
    batch (``BatchTally``)."""
    if count <= 0:
        return Metrics()
    orders = deal_orders(run_seed, start, count, len(p.pile))
    decks = np.asarray(p.pile, dtype=np.intp)[orders].tolist()
    tally = BatchTally(p)
    add = tally.add
    for deck in decks:
        state = MattsanState(p, deck)
        _play(state, None)
        add(state)
    return tally.metrics(count)


def _play(state: MattsanState, out: Any) -> None:
    """The policy's game to its end with the choices inlined and no legality checks: the
    same game as ``new_game`` + ``choose`` + ``apply``; ``out`` takes the transcript lines
    (None: no text is made)."""
    log = out is not None
    fill = state.prepared.fill_bench
    while True:
        line = state.start_turn(log)
        if out is not None:
            out(line)
        if state.phase == P_OVER:
            return
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
                return
        line = state.end_turn(log)
        if out is not None:
            out(line)
        if state.phase == P_OVER:
            return


ENGINE = MattsanEngine()
