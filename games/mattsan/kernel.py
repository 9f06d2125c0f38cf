"""Mattsan's compiled batch kernel: the policy's games of a batch over typed numpy arrays,
compiled by numba (``simulator.engine.compiled.kernel``), the measures added up in arrays that
``metrics_of`` turns into the ``Metrics`` the Python batch path gives.

It plays the same game as the state API (``games/mattsan/state.py``, the reference) and the
engine's fast loop: the deal is ``compiled.deal_order`` (the one counter-based deal every path
shares), then mattsan.md:17-21's turn, the policy of ``MattsanEngine.choose`` and the damage
processing of mattsan.md:30-37, step for step in the state's order. The tests
(``tests/games/mattsan/test_kernel.py``) compare it game by game with the state API.

What the arrays hold (``KernelTables``, built once per ``prepare`` and kept on the prepared
object, so a worker reuses them across the batches of a run):
  * ``pile``: the unshuffled draw pile (card indexes);
  * per card index: ``kind``, ``hp``, ``soul``, ``cost``;
  * the policy's orders as card lists: ``unit_order`` (best unit first, ``unit_rank``),
    ``trump_order`` (most expensive first, ``trump_rank``), ``charge_order`` (charged from hand
    first, ``charge_rank``): the first card of a list that the hand holds is the state's pick;
  * ``line_up``: the dummy's unit HP, empty slots dropped; ``setting``: the cleaned parameters
    as integers (the ``S_*`` indexes below).

Inside a game the hand is a count per card index (the policy only ever asks which card index
to take, never where it sits), the bench two ordered arrays (its order decides the re-placing
unit among equal ranks, as ``MattsanState._replace`` does).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from games.mattsan.constants import BENCH_SLOTS, DUMMY, K_UNIT, T_ALL, T_BATTLEFIELD, T_NONE, US
from games.mattsan.metrics import (
    M_DECK_OUT_TURN,
    M_DEFEAT_TURN,
    M_DRAWN,
    M_DUMMY_DEFEATED,
    M_FIRST_TRUMP,
    M_NO_UNIT_TURN,
    M_SIMULTANEOUS,
    M_SOUL_DRAWN,
    OUTCOMES,
)
from simulator.engine.compiled import deal_order, kernel, warm_deal
from simulator.engine.metrics import Metrics

Ints = npt.NDArray[np.int64]

# --- the parameters in ``setting`` ----------------------------------------------------------
S_OPENING = 0
S_SOUL_CHARGE = 1
S_CHARGE_FROM_HAND = 2
S_SOUL_UNTAPS = 3
S_SOUL_DRAW = 4
S_ATTACK_DAMAGE = 5
S_TRUMP_DAMAGE = 6
S_TRUMP_ON_DUMMY = 7
S_TRUMP_ON_US = 8
S_DUMMY_SOUL = 9
S_DUMMY_DECK = 10
S_DUMMY_DAMAGE = 11
S_WAIT_FOR_UNIT = 12
S_FILL_BENCH = 13
S_REPLACE_FROM_BENCH = 14
S_MAX_TURNS = 15
SETTINGS = 16

# --- outcomes: their position in ``metrics.OUTCOMES`` ---------------------------------------
O_WIN_LINE_UP, O_WIN_DECK_OUT, O_LOSS_DECK_OUT, O_LOSS_NO_UNIT, O_TURN_LIMIT = range(5)

# --- one game's row of measures (``per_game``); T = max_turns --------------------------------
R_OUTCOME = 0
R_SIMULTANEOUS = 1
R_TURN = 2  # the turn the game ended
R_FIRST_TRUMP = 3  # 0: no trump cast
R_DEFEATED = 4
R_DRAWN = 5
R_SOUL_DRAWN = 6
R_TURNS = 7  # then no-unit flags [R_TURNS, +T), souls [+T, +2T), casts [+2T, +3T)

# --- the batch totals -------------------------------------------------------------------------
#: ``scalars``: outcome counts (0-4), simultaneous losses, then the sums and the squares of
#: dummy units defeated, cards drawn and soul-drawn cards
Z_SIMULTANEOUS = 5
Z_SUMS = 6
Z_SQUARES = 9
SCALARS = 12
#: ``histograms`` rows (columns: the turn)
H_DEFEAT, H_DECK_OUT, H_NO_UNIT, H_FIRST_TRUMP = range(4)
HISTOGRAMS = 4
#: ``per_turn`` rows (columns: turn - 1)
P_NO_UNIT, P_SOUL, P_SOUL_SQUARES, P_CASTS, P_CASTS_SQUARES, P_CAST_ANY = range(6)
PER_TURN = 6


def row_width(max_turns: int) -> int:
    return R_TURNS + 3 * max_turns


@dataclass(frozen=True)
class KernelTables:
    """The prepared deck and parameters as the kernel's arrays (see the module docstring)."""

    pile: Ints
    kind: Ints
    hp: Ints
    soul: Ints
    cost: Ints
    unit_rank: Ints
    unit_order: Ints
    trump_order: Ints
    charge_order: Ints
    line_up: Ints
    setting: Ints


def _array(values: Sequence[int]) -> Ints:
    return np.asarray(values, dtype=np.int64).reshape(len(values))


def _by_rank(rank: Sequence[int], descending: bool) -> Ints:
    """The cards with a rank (> 0), in the order the policy takes them."""
    ranked = sorted((r, card) for card, r in enumerate(rank) if r > 0)
    if descending:
        ranked.reverse()
    return _array([card for _r, card in ranked])


def build_tables(
    *,
    pile: Sequence[int],
    kind: Sequence[int],
    hp: Sequence[int],
    soul: Sequence[int],
    cost: Sequence[int],
    unit_rank: Sequence[int],
    trump_rank: Sequence[int],
    charge_rank: Sequence[int],
    line_up: Sequence[int],
    setting: Sequence[int],
) -> KernelTables:
    """The arrays of one prepared deck (``prepared.build_prepared`` calls it once)."""
    assert len(setting) == SETTINGS
    return KernelTables(
        pile=_array(pile),
        kind=_array(kind),
        hp=_array(hp),
        soul=_array(soul),
        cost=_array(cost),
        unit_rank=_array(unit_rank),
        unit_order=_by_rank(unit_rank, descending=True),
        trump_order=_by_rank(trump_rank, descending=True),
        charge_order=_by_rank(charge_rank, descending=False),
        line_up=_array([h for h in line_up if h > 0]),
        setting=_array(setting),
    )


# --- the compiled game --------------------------------------------------------------------------


@kernel
def _best_unit(hand: Ints, unit_order: Ints) -> int:
    """``MattsanState.best_unit``: the first unit of the policy's order in hand (-1: none)."""
    for card in unit_order:
        if hand[card] > 0:
            return card
    return -1


@kernel
def _best_trump(hand: Ints, trump_order: Ints, cost: Ints, free: int) -> int:
    """``MattsanState.best_trump``: the most expensive trump in hand it can pay for."""
    for card in trump_order:
        if hand[card] > 0 and cost[card] <= free:
            return card
    return -1


@kernel
def _draw(deck: Ints, pos: int, n: int, hand: Ints, kind: Ints) -> tuple[int, int]:
    """Up to ``n`` cards from the top into the hand: (new position, units drawn)."""
    size = deck.shape[0]
    units = 0
    end = min(pos + n, size)
    for k in range(pos, end):
        card = deck[k]
        hand[card] += 1
        if kind[card] == K_UNIT:
            units += 1
    return end, units


@kernel
def play_game(
    deck: Ints,
    kind: Ints,
    hp: Ints,
    soul: Ints,
    cost: Ints,
    unit_rank: Ints,
    unit_order: Ints,
    trump_order: Ints,
    charge_order: Ints,
    line_up: Ints,
    setting: Ints,
    hand: Ints,
    bench: Ints,
    bench_hp: Ints,
    d_hp: Ints,
    row: Ints,
) -> None:
    """One game of the policy on the dealt ``deck``; its measures into ``row`` (the ``R_*``
    layout). ``hand``, ``bench``, ``bench_hp`` and ``d_hp`` are scratch."""
    size = deck.shape[0]
    max_turns = setting[S_MAX_TURNS]
    soul_charge = setting[S_SOUL_CHARGE]
    from_hand = setting[S_CHARGE_FROM_HAND] != 0
    untaps = setting[S_SOUL_UNTAPS] != 0
    soul_draw = setting[S_SOUL_DRAW]
    attack_damage = setting[S_ATTACK_DAMAGE]
    trump_damage = setting[S_TRUMP_DAMAGE]
    dummy_soul = setting[S_DUMMY_SOUL]
    dummy_damage = setting[S_DUMMY_DAMAGE]
    wait = setting[S_WAIT_FOR_UNIT] != 0
    fill = setting[S_FILL_BENCH] != 0
    from_bench = setting[S_REPLACE_FROM_BENCH] != 0
    souls_at = R_TURNS + max_turns
    casts_at = R_TURNS + 2 * max_turns
    for k in range(row.shape[0]):
        row[k] = 0
    hand[:] = 0
    # the opening hand (mattsan.md:22: its size a parameter); no mulligan
    pos, units = _draw(deck, 0, setting[S_OPENING], hand, kind)
    drawn = pos
    nd = line_up.shape[0]
    for i in range(nd):
        d_hp[i] = line_up[i]
    d_deck = setting[S_DUMMY_DECK]
    field = -1
    field_hp = 0
    nb = 0
    soul_area = 0
    spent = 0
    stood = False
    turn = 0
    closed = 0
    trumps = 0
    first_trump = 0
    defeated = 0
    soul_drawn = 0
    simultaneous = 0
    outcome = -1
    while outcome < 0:
        # --- start of our turn: draw, soul charge, a unit must be able to stand (17-19)
        turn += 1
        if untaps:
            spent = 0  # assumption: spent soul stands up at our turn start
        if pos >= size:
            outcome = O_LOSS_DECK_OUT  # mattsan.md:17-18: a draw from an empty deck loses
            break
        card = deck[pos]
        pos += 1
        drawn += 1
        hand[card] += 1
        if kind[card] == K_UNIT:
            units += 1
        if soul_charge > 0:  # mattsan.md:19: soul charge follows the draw
            if not from_hand:
                got = min(soul_charge, size - pos)  # an empty deck charges nothing
                pos += got
                soul_area += got
            else:
                for _ in range(soul_charge):
                    pick = -1
                    for c in charge_order:  # traps and terrain, then dear trumps; no unit
                        if hand[c] > 0:
                            pick = c
                            break
                    if pick < 0:
                        break
                    hand[pick] -= 1
                    soul_area += 1
        if units == 0:
            row[R_TURNS + turn - 1] = 1
            if field < 0 and (stood or not wait):
                outcome = O_LOSS_NO_UNIT  # mattsan.md:17: no unit for our battlefield
                break
        # --- main phase: place units (13-14, 27), cast trumps (15-16), as ``choose`` does
        while outcome < 0:
            unit = _best_unit(hand, unit_order)
            if unit >= 0 and (field < 0 or (fill and nb < BENCH_SLOTS)):
                hand[unit] -= 1
                units -= 1
                if field < 0:
                    field = unit
                    field_hp = hp[unit]
                    stood = True
                else:
                    bench[nb] = unit
                    bench_hp[nb] = hp[unit]
                    nb += 1
                continue
            trump = _best_trump(hand, trump_order, cost, soul_area - spent)
            if trump < 0:
                break
            hand[trump] -= 1
            spent += cost[trump]
            trumps += 1
            if first_trump == 0:
                first_trump = turn
            if trump_damage > 0:  # an optional flat damage (the catalog has no effects)
                (
                    outcome,
                    simultaneous,
                    pos,
                    units,
                    field,
                    field_hp,
                    nb,
                    nd,
                    d_deck,
                    defeated,
                    drawn,
                    soul_drawn,
                ) = _process(
                    US,
                    setting[S_TRUMP_ON_DUMMY],
                    setting[S_TRUMP_ON_US],
                    trump_damage,
                    deck,
                    pos,
                    hand,
                    units,
                    kind,
                    soul,
                    hp,
                    unit_rank,
                    unit_order,
                    from_bench,
                    soul_draw,
                    dummy_soul,
                    field,
                    field_hp,
                    bench,
                    bench_hp,
                    nb,
                    d_hp,
                    nd,
                    d_deck,
                    defeated,
                    drawn,
                    soul_drawn,
                )
        if outcome >= 0:
            break
        # --- the turn-ending action (mattsan.md:21): the attack
        if field >= 0:
            (
                outcome,
                simultaneous,
                pos,
                units,
                field,
                field_hp,
                nb,
                nd,
                d_deck,
                defeated,
                drawn,
                soul_drawn,
            ) = _process(
                US,
                T_BATTLEFIELD,
                T_NONE,
                attack_damage,
                deck,
                pos,
                hand,
                units,
                kind,
                soul,
                hp,
                unit_rank,
                unit_order,
                from_bench,
                soul_draw,
                dummy_soul,
                field,
                field_hp,
                bench,
                bench_hp,
                nb,
                d_hp,
                nd,
                d_deck,
                defeated,
                drawn,
                soul_drawn,
            )
            if outcome >= 0:
                break
        row[souls_at + closed] = soul_area
        row[casts_at + closed] = trumps
        closed += 1
        if turn >= max_turns:
            outcome = O_TURN_LIMIT
            break
        # --- the dummy's turn: a draw (its empty deck loses it the game), maybe an attack
        if d_deck <= 0:
            outcome = O_WIN_DECK_OUT
            break
        d_deck -= 1
        if dummy_damage > 0 and field >= 0:
            (
                outcome,
                simultaneous,
                pos,
                units,
                field,
                field_hp,
                nb,
                nd,
                d_deck,
                defeated,
                drawn,
                soul_drawn,
            ) = _process(
                DUMMY,
                T_NONE,
                T_BATTLEFIELD,
                dummy_damage,
                deck,
                pos,
                hand,
                units,
                kind,
                soul,
                hp,
                unit_rank,
                unit_order,
                from_bench,
                soul_draw,
                dummy_soul,
                field,
                field_hp,
                bench,
                bench_hp,
                nb,
                d_hp,
                nd,
                d_deck,
                defeated,
                drawn,
                soul_drawn,
            )
    # the turn that ended the game is closed once (``MattsanState._close_turn``); later turns
    # keep the last value (the measures are means over all games)
    if closed < turn:
        row[souls_at + closed] = soul_area
        row[casts_at + closed] = trumps
        closed += 1
    for t in range(closed, max_turns):
        row[souls_at + t] = soul_area
        row[casts_at + t] = trumps
    row[R_OUTCOME] = outcome
    row[R_SIMULTANEOUS] = simultaneous
    row[R_TURN] = turn
    row[R_FIRST_TRUMP] = first_trump
    row[R_DEFEATED] = defeated
    row[R_DRAWN] = drawn
    row[R_SOUL_DRAWN] = soul_drawn


@kernel
def _process(
    origin: int,
    on_dummy: int,
    on_us: int,
    amount: int,
    deck: Ints,
    pos: int,
    hand: Ints,
    units: int,
    kind: Ints,
    soul: Ints,
    hp: Ints,
    unit_rank: Ints,
    unit_order: Ints,
    from_bench: bool,
    soul_draw: int,
    dummy_soul: int,
    field: int,
    field_hp: int,
    bench: Ints,
    bench_hp: Ints,
    nb: int,
    d_hp: Ints,
    nd: int,
    d_deck: int,
    defeated: int,
    drawn: int,
    soul_drawn: int,
) -> tuple[int, int, int, int, int, int, int, int, int, int, int, int]:
    """One damage processing (mattsan.md:30-37, ``MattsanState._process``): the damage at once,
    the defeats, the soul draws, the re-placing, then the loss conditions. Returns (outcome or
    -1, simultaneous, pos, units in hand, field, field HP, bench size, dummy units, dummy deck,
    dummy units defeated, cards drawn, soul-drawn cards)."""
    # 1. all the damage at once (mattsan.md:34)
    n_dummy = nd if on_dummy == T_ALL else min(on_dummy, nd)
    for i in range(n_dummy):
        d_hp[i] -= amount
    ours_hit = on_us != T_NONE and field >= 0
    if ours_hit:
        field_hp -= amount
    n_bench = nb if on_us == T_ALL else 0
    for i in range(n_bench):
        bench_hp[i] -= amount
    # 2. defeats at 0 HP or less (mattsan.md:37); their order only matters to the transcript
    field_gone = ours_hit and field_hp <= 0
    our_draw = 0
    if field_gone:
        our_draw += soul[field]
        field = -1
    kept = 0
    for i in range(nb):
        if i < n_bench and bench_hp[i] <= 0:
            our_draw += soul[bench[i]]
        else:
            bench[kept] = bench[i]
            bench_hp[kept] = bench_hp[i]
            kept += 1
    bench_gone = nb - kept
    nb = kept
    dummy_field_gone = n_dummy > 0 and d_hp[0] <= 0
    left = 0
    for i in range(nd):
        if i < n_dummy and d_hp[i] <= 0:
            continue
        d_hp[left] = d_hp[i]
        left += 1
    d_gone = nd - left
    nd = left
    if d_gone == 0 and not field_gone and bench_gone == 0:
        return -1, 0, pos, units, field, field_hp, nb, nd, d_deck, defeated, drawn, soul_drawn
    defeated += d_gone
    # the soul value decides the draw (mattsan.md:31); how exactly is a parameter (23)
    our_draw *= soul_draw
    dummy_draw = d_gone * dummy_soul * soul_draw
    # 3. soul draws (mattsan.md:35; the owner draws, seed:503); the two decks are apart, so
    # the originator-first order changes nothing here
    we_out = False
    if our_draw > 0:
        start = pos
        pos, got_units = _draw(deck, pos, our_draw, hand, kind)
        units += got_units
        drawn += pos - start
        soul_drawn += pos - start
        we_out = pos - start < our_draw  # seed:340: a draw from 0 cards loses
    dummy_out = False
    if dummy_draw > 0:
        dummy_out = dummy_draw > d_deck
        d_deck = max(d_deck - dummy_draw, 0)
    # 4. re-placing on each emptied battlefield (mattsan.md:36)
    we_stuck = False
    if field_gone:
        placed = False
        for step in range(2):
            bench_now = (step == 0) == from_bench
            if bench_now:
                if nb > 0:
                    best = 0  # the first of the highest rank, as max() over the bench
                    for i in range(1, nb):
                        if unit_rank[bench[i]] > unit_rank[bench[best]]:
                            best = i
                    field = bench[best]
                    field_hp = bench_hp[best]
                    for i in range(best, nb - 1):
                        bench[i] = bench[i + 1]
                        bench_hp[i] = bench_hp[i + 1]
                    nb -= 1
                    placed = True
                    break
            else:
                card = _best_unit(hand, unit_order)
                if card >= 0:
                    hand[card] -= 1
                    units -= 1
                    field = card
                    field_hp = hp[card]
                    placed = True
                    break
        we_stuck = not placed
    dummy_stuck = dummy_field_gone and nd == 0
    # 5. the loss conditions (mattsan.md:17-18); both at once: the originator loses (35-36)
    we_lose = we_out or we_stuck
    dummy_loses = dummy_out or dummy_stuck
    simultaneous = 0
    if we_lose and dummy_loses:
        if origin == US:
            simultaneous = 1
            dummy_loses = False
        else:
            we_lose = False
    outcome = -1
    if we_lose:
        outcome = O_LOSS_DECK_OUT if we_out else O_LOSS_NO_UNIT
    elif dummy_loses:
        outcome = O_WIN_LINE_UP if dummy_stuck else O_WIN_DECK_OUT
    return (
        outcome,
        simultaneous,
        pos,
        units,
        field,
        field_hp,
        nb,
        nd,
        d_deck,
        defeated,
        drawn,
        soul_drawn,
    )


@kernel
def play_batch(
    pile: Ints,
    kind: Ints,
    hp: Ints,
    soul: Ints,
    cost: Ints,
    unit_rank: Ints,
    unit_order: Ints,
    trump_order: Ints,
    charge_order: Ints,
    line_up: Ints,
    setting: Ints,
    run_seed: int,
    start: int,
    count: int,
    rows: Ints,
    scalars: Ints,
    histograms: Ints,
    per_turn: Ints,
) -> None:
    """Games ``start`` .. ``start + count - 1``: each dealt by ``deal_order``, played by
    ``play_game``, its row added to the totals (and copied to ``rows`` when ``rows`` has a
    row per game; a 0-row ``rows`` keeps none)."""
    size = pile.shape[0]
    max_turns = setting[S_MAX_TURNS]
    keys = np.empty(size, dtype=np.uint64)
    order = np.empty(size, dtype=np.intp)
    deck = np.empty(size, dtype=np.int64)
    hand = np.zeros(kind.shape[0], dtype=np.int64)
    bench = np.zeros(BENCH_SLOTS, dtype=np.int64)
    bench_hp = np.zeros(BENCH_SLOTS, dtype=np.int64)
    d_hp = np.zeros(max(line_up.shape[0], 1), dtype=np.int64)
    row = np.zeros(R_TURNS + 3 * max_turns, dtype=np.int64)
    keep = rows.shape[0] > 0
    souls_at = R_TURNS + max_turns
    casts_at = R_TURNS + 2 * max_turns
    for g in range(count):
        deal_order(run_seed, start + g, size, keys, order)
        for k in range(size):
            deck[k] = pile[order[k]]
        play_game(
            deck,
            kind,
            hp,
            soul,
            cost,
            unit_rank,
            unit_order,
            trump_order,
            charge_order,
            line_up,
            setting,
            hand,
            bench,
            bench_hp,
            d_hp,
            row,
        )
        if keep:
            rows[g, :] = row
        outcome = row[R_OUTCOME]
        turn = row[R_TURN]
        scalars[outcome] += 1
        scalars[Z_SIMULTANEOUS] += row[R_SIMULTANEOUS]
        for j in range(3):
            value = row[R_DEFEATED + j]
            scalars[Z_SUMS + j] += value
            scalars[Z_SQUARES + j] += value * value
        if outcome == O_WIN_LINE_UP:
            histograms[H_DEFEAT, turn] += 1
        elif outcome == O_LOSS_DECK_OUT:
            histograms[H_DECK_OUT, turn] += 1
        elif outcome == O_LOSS_NO_UNIT:
            histograms[H_NO_UNIT, turn] += 1
        if row[R_FIRST_TRUMP] > 0:
            histograms[H_FIRST_TRUMP, row[R_FIRST_TRUMP]] += 1
        for t in range(max_turns):
            per_turn[P_NO_UNIT, t] += row[R_TURNS + t]
            value = row[souls_at + t]
            per_turn[P_SOUL, t] += value
            per_turn[P_SOUL_SQUARES, t] += value * value
            value = row[casts_at + t]
            per_turn[P_CASTS, t] += value
            per_turn[P_CASTS_SQUARES, t] += value * value
            if value > 0:
                per_turn[P_CAST_ANY, t] += 1


# --- Python around the kernel ----------------------------------------------------------------


@dataclass(frozen=True)
class Totals:
    """A batch's totals as the kernel leaves them."""

    games: int
    scalars: Ints
    histograms: Ints
    per_turn: Ints


def _run(
    t: KernelTables, run_seed: int, start: int, count: int, keep_rows: bool
) -> tuple[Totals, Ints]:
    if run_seed < 0 or start < 0:
        raise ValueError("run seeds and game indexes are not negative")
    max_turns = int(t.setting[S_MAX_TURNS])
    rows = np.zeros((count if keep_rows else 0, row_width(max_turns)), dtype=np.int64)
    scalars = np.zeros(SCALARS, dtype=np.int64)
    histograms = np.zeros((HISTOGRAMS, max_turns + 1), dtype=np.int64)
    per_turn = np.zeros((PER_TURN, max_turns), dtype=np.int64)
    play_batch(
        t.pile,
        t.kind,
        t.hp,
        t.soul,
        t.cost,
        t.unit_rank,
        t.unit_order,
        t.trump_order,
        t.charge_order,
        t.line_up,
        t.setting,
        int(run_seed),
        int(start),
        int(count),
        rows,
        scalars,
        histograms,
        per_turn,
    )
    return Totals(count, scalars, histograms, per_turn), rows


def batch_totals(t: KernelTables, run_seed: int, start: int, count: int) -> Totals:
    """The totals of games ``start`` .. ``start + count - 1`` (compiled)."""
    return _run(t, run_seed, start, count, keep_rows=False)[0]


def per_game(t: KernelTables, run_seed: int, start: int, count: int) -> Ints:
    """One row of measures per game (the ``R_*`` layout), for the game-by-game tests."""
    return _run(t, run_seed, start, count, keep_rows=True)[1]


def metrics_of(
    totals: Totals,
    soul_keys: Sequence[str],
    trump_keys: Sequence[str],
    trumps_keys: Sequence[str],
    no_unit_keys: Sequence[str],
) -> Metrics:
    """The batch's ``Metrics``, exactly as ``metrics.record_game`` adds them up game by game
    (the same names, zeros included where ``record_game`` adds zeros)."""
    m = Metrics(games=totals.games)
    if not totals.games:
        return m
    counts, sums, squares = m.counts, m.sums, m.squares
    scalars = totals.scalars.tolist()
    for position, name in enumerate(OUTCOMES):
        counts[name] = scalars[position]
    counts[M_SIMULTANEOUS] = scalars[Z_SIMULTANEOUS]
    for j, name in enumerate((M_DUMMY_DEFEATED, M_DRAWN, M_SOUL_DRAWN)):
        sums[name] = scalars[Z_SUMS + j]
        squares[name] = scalars[Z_SQUARES + j]
    histograms = totals.histograms.tolist()
    for h, name in (
        (H_DEFEAT, M_DEFEAT_TURN),
        (H_DECK_OUT, M_DECK_OUT_TURN),
        (H_NO_UNIT, M_NO_UNIT_TURN),
        (H_FIRST_TRUMP, M_FIRST_TRUMP),
    ):
        seen = Counter({turn: n for turn, n in enumerate(histograms[h]) if n})
        if seen:
            m.histograms[name] = seen
    per_turn = totals.per_turn.tolist()
    for t, key in enumerate(no_unit_keys):
        if per_turn[P_NO_UNIT][t]:
            counts[key] = per_turn[P_NO_UNIT][t]
    for t, key in enumerate(soul_keys):
        sums[key] = per_turn[P_SOUL][t]
        squares[key] = per_turn[P_SOUL_SQUARES][t]
    for t, key in enumerate(trumps_keys):
        sums[key] = per_turn[P_CASTS][t]
        squares[key] = per_turn[P_CASTS_SQUARES][t]
    for t, key in enumerate(trump_keys):
        counts[key] = per_turn[P_CAST_ANY][t]
    return m


def warm(t: KernelTables) -> None:
    """Compile the kernel (or load it from numba's cache) on ``t`` for one game."""
    warm_deal()
    batch_totals(t, 1, 0, 1)
