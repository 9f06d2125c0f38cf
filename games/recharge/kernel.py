"""Marvel Recharge: the compiled batch kernel (issue 22), the same games as the state API and
the Python batch path of ``games/recharge/engine.py``, over typed arrays.

``prepare`` turns the deck into ``RechargeArrays`` once (kept on the prepared object, so a
worker reuses them for every batch of a run). ``play_batch`` deals each game with the shared
counter-based deal (``simulator.engine.compiled.deal_order``: the deck order the chunk path
and the state API deal), finds the best formation's power of each prefix of the deal the
game holds, and adds the measures into ``Totals``, int64 arrays that ``engine._totals_metrics``
turns into the very ``Metrics`` the Python batch path gives. ``play_each`` runs the same core
and returns one row per game, and ``hand_power`` solves one hand, so the tests compare the
kernel with the state API game by game and with the solver hand by hand.

The game (engine.py's docstring): one card in the opening hand (recharge.md:33), one drawn at
the start of every turn (recharge.md:37) until the hand holds 6 cards (recharge.md:33, seed:41)
or the deck is empty; nothing is ever played, so turn t holds the first min(1 + t, 6, deck
size) cards of the deal, and a game is the best power of its few prefixes.

The solver: the same rules as ``games/recharge/solver.py`` (its docstring cites each one),
the same decomposition as ``games/recharge/power.py``. A formation is a spine -- a row of
heroes and teamwork cards -- plus power cards on the free colour points of the spine's hero
edges (recharge.md:12-20), so

    best power = max over spines s of  power(s) + value(points(s))

where ``points`` packs the free points per colour (3 bits a colour: a hand of 6 holds at most
3 heroes in a row, 6 points of a colour) and ``value`` is the best use of the hand's power
cards on them.

``_spine_table`` lists every spine of the heroes and teamwork cards held (recharge.md:12-16,
26) as distinct (points, most power) pairs, the most power first. ``prepare`` has already
listed, per card and edge colour mask, the ways a teamwork meets a hero edge, a hero meets
a teamwork's far edge and a teamwork hangs from a hero edge with nothing beyond it (either
way round, on one shared colour), so the search only adds up table entries. ``value`` is a
depth-first search over the power cards' options per colour (a single card on its touching
side, recharge.md:17-19; with chaining, every chain of power cards whose first card touches
that colour, recharge.md:19-20), bounded by every card left on its better side, and kept in
a memo per power-card set and points (clipped to the number of power cards held).

A game's prefixes grow one card at a time: a new hero, or a teamwork sharing a colour with a
hero held, lists the spines again; a new power card rebuilds the options and starts a new
memo generation; a teamwork sharing no colour with any hero held (it can be in no row yet),
or a card of another kind, changes nothing. A hand holds at most 6 cards, so every scratch
array below has a fixed size (each size says why it is enough).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from games.recharge.schedule import OPENING_HAND
from games.recharge.solver import _BITS, HERO, POWER, TEAMWORK, RCard
from simulator.engine.compiled import deal_order, kernel

Ints = npt.NDArray[np.int64]

HAND_LIMIT = 6  # recharge.md:33, seed:41 (engine.HAND_LIMIT; engine.py imports this module)

#: card kinds in the arrays; other kinds are ignored, as by the solver (special cards play as
#: their plain kind, so the catalog has no fourth kind)
K_OTHER, K_HERO, K_TEAM, K_POWER = 0, 1, 2, 3
_KINDS = {HERO: K_HERO, TEAMWORK: K_TEAM, POWER: K_POWER}

# Fixed sizes for a hand of at most HAND_LIMIT cards.
#: ways a card meets an edge: 2 ways round x 4 shared colours
WAYS = 8
#: free points are packed 3 bits a colour (the solver packs 4): a spine of a hand holds at
#: most 3 heroes (H T H T H), at most 6 points of a colour on their 6 edges
POINT_BITS = 3
#: the packed points' range: the spine table's room and its index by points
TABLE_ROOM = 1 << (4 * POINT_BITS)
#: a colour mask's points as an increment of the packed counter
_INC3 = tuple(sum(1 << (POINT_BITS * k) for k in range(4) if m >> k & 1) for m in range(16))
#: partial rows waiting in the spine search: at most 2 ways x (1 + 5 x 4) start nodes, and
#: each node pushes at most (teams x WAYS) x (heroes x WAYS) <= 6 x 64 rows, two levels deep
NODE_ROOM = 1024
#: power cards beside a hero in a hand of 6
MOST_POWER = HAND_LIMIT - 1
#: the chain table's rows (card sets) and columns (card, side touching)
CHAIN_SETS = 1 << MOST_POWER
CHAIN_SIDES = 2 * MOST_POWER
#: frames of the power-card search: depth <= 5 cards + 4 colours, <= 1 + 31 pushes a frame
FRAME_ROOM = 512
#: memo of ``value`` by points clipped to the power cards held (a colour never takes more
#: points than there are power cards): packed as the points, so TABLE_ROOM entries
MEMO_ROOM = TABLE_ROOM

# Columns of ``play_each``'s per-game scalars.
E_FIRST_OPEN, E_FULL_TURN, E_FULL_POWER, E_SEEN = range(4)
EACH = 4


class RechargeArrays(NamedTuple):
    """The prepared deck as int arrays, indexed by card index like ``RechargePrepared.cards``;
    the ``*_n``/``*_pts`` tables are indexed by card and edge colour mask (0..15)."""

    pile: npt.NDArray[np.intp]  # the unshuffled draw pile: card index per position
    kind: Ints  # K_HERO, K_TEAM, K_POWER or K_OTHER
    worth: Ints  # a hero's or teamwork's power, Power Plus counted (seed:156)
    left: Ints  # colour masks as printed
    right: Ints
    left_value: Ints  # a power card's value when that side touches, Power Plus counted
    right_value: Ints
    #: a teamwork on a hero edge, either way round, on one shared colour (seed:123, 174):
    #: the edge's points left free and the teamwork's far edge, per distinct way
    attach_n: Ints
    attach_pts: Ints
    attach_far: Ints
    #: a hero beyond a teamwork's far edge (seed:175): its touching edge's points left free
    #: and its outer edge
    join_n: Ints
    join_pts: Ints
    join_out: Ints
    #: a teamwork on a hero edge with nothing beyond it: the edge's points left free
    dangle_n: Ints
    dangle_pts: Ints
    #: no formation of HAND_LIMIT cards of this deck is stronger (the histogram's length - 1)
    top: int


def _ways(cards: tuple[RCard, ...], kind: str, *, on_card: bool) -> tuple[Ints, Ints, Ints]:
    """Per card of ``kind`` and edge mask: the distinct (points left free, other edge) ways it
    meets that edge, either way round, on one shared colour. ``on_card``: the points are on
    the card's own touching edge (a hero joining a teamwork), else on the edge (a teamwork
    on a hero edge)."""
    size = len(cards)
    count = np.zeros((size, 16), dtype=np.int64)
    points = np.zeros((size, 16, WAYS), dtype=np.int64)
    other = np.zeros((size, 16, WAYS), dtype=np.int64)
    for index, card in enumerate(cards):
        if card.kind != kind:
            continue
        turns = {(card.left, card.right), (card.right, card.left)}
        for edge in range(16):
            found = sorted(
                {
                    (_INC3[(touch if on_card else edge) ^ colour], far)
                    for touch, far in turns
                    for colour in _BITS[edge & touch]
                }
            )
            count[index, edge] = len(found)
            for k, (free, far) in enumerate(found):
                points[index, edge, k] = free
                other[index, edge, k] = far
    return count, points, other


def arrays(pile: tuple[int, ...], cards: tuple[RCard, ...]) -> RechargeArrays:
    """The deck of ``prepare`` as contiguous int arrays for the kernel."""
    worth = [c.power + c.bonus if c.kind in (HERO, TEAMWORK) else 0 for c in cards]
    left_value = [c.side_value(0) if c.kind == POWER else 0 for c in cards]
    right_value = [c.side_value(1) if c.kind == POWER else 0 for c in cards]
    attach = _ways(cards, TEAMWORK, on_card=False)
    join = _ways(cards, HERO, on_card=True)
    # a teamwork with nothing beyond: its far edge does not matter
    dangle_n = np.zeros((len(cards), 16), dtype=np.int64)
    dangle_pts = np.zeros((len(cards), 16, WAYS), dtype=np.int64)
    for index in range(len(cards)):
        for edge in range(16):
            free = sorted({int(p) for p in attach[1][index, edge, : attach[0][index, edge]]})
            dangle_n[index, edge] = len(free)
            dangle_pts[index, edge, : len(free)] = free
    # a card adds at most its worth or its better side; a hand holds at best the pile's
    # HAND_LIMIT strongest copies
    best = sorted((max(worth[i], left_value[i], right_value[i], 0) for i in pile), reverse=True)
    return RechargeArrays(
        np.asarray(pile, dtype=np.intp),
        np.asarray([_KINDS.get(c.kind, K_OTHER) for c in cards], dtype=np.int64),
        np.asarray(worth, dtype=np.int64),
        np.asarray([c.left for c in cards], dtype=np.int64),
        np.asarray([c.right for c in cards], dtype=np.int64),
        np.asarray(left_value, dtype=np.int64),
        np.asarray(right_value, dtype=np.int64),
        *attach,
        *join,
        dangle_n,
        dangle_pts,
        sum(best[:HAND_LIMIT]),
    )


class Totals(NamedTuple):
    """A batch's measures as exact integers (``engine._totals_metrics`` names them)."""

    power_sums: Ints  # per turn: the best power, summed over games
    power_squares: Ints  # per turn: its square, summed
    opens: Ints  # per turn: games that can open
    first_open: Ints  # histogram of the first turn able to open (index = turn; 0 = never)
    power_when_full: Ints  # histogram of the best power the turn the hand fills up


# --- the spines -------------------------------------------------------------------------------


@kernel
def _inc(mask: int) -> int:
    """A colour mask's points as an increment of the packed counter (3 bits a colour)."""
    return (mask & 1) | ((mask >> 1) & 1) << 3 | ((mask >> 2) & 1) << 6 | ((mask >> 3) & 1) << 9


@kernel
def _spine_table(
    t: RechargeArrays,
    heroes: Ints,
    nh: int,
    teams: Ints,
    nt: int,
    tab_pts: Ints,
    tab_pow: Ints,
    slots: Ints,
    build: int,
    nodes: Ints,
) -> int:
    """Every spine of the heroes ``heroes[:nh]`` and teamwork cards ``teams[:nt]`` (card
    indexes), as distinct (free points, most power) pairs sorted by power, the most first.
    Returns their number (0: no hero, no formation, recharge.md:12).

    A row is listed from its left end hero ``a``, grown rightwards: on the open hero edge a
    teamwork, on one colour the two edges share (one teamwork per hero edge, seed:174), the
    edge's other colours staying free; beyond its far edge a hero whose touching edge shares
    a colour with it (seed:175), that edge's other colours free; every card either way round
    (seed:123). A row ends at a hero edge left free or holding one teamwork with nothing
    beyond (seed:175 "may"). Rows of one hero are listed upright only and rows of two heroes
    or more only when their right end hero has a later slot than ``a``: the mirror image of a
    row (every card turned, the order reversed) is as strong and is listed instead.
    ``slots[0, points]`` is the build that last wrote the entry ``slots[1, points]``, so
    each points value has one entry without a search."""
    worth = t.worth
    dangle_n = t.dangle_n
    dangle_pts = t.dangle_pts
    attach_n = t.attach_n
    attach_pts = t.attach_pts
    attach_far = t.attach_far
    join_n = t.join_n
    join_pts = t.join_pts
    join_out = t.join_out
    all_teams = (1 << nt) - 1
    count = 0
    for a in range(nh):
        hero = heroes[a]
        hl = t.left[hero]
        hr = t.right[hero]
        later = ((1 << nh) - 1) ^ ((1 << (a + 1)) - 1)  # heroes a row from ``a`` may end on
        # start nodes: hero ``a`` either way round, its left edge free or holding a teamwork
        # with nothing beyond; node: heroes used, teamwork used, open edge, points, power,
        # whether the row may end here
        top = 0
        for way in range(2):
            if way == 1 and (hl == hr or not later or not nt):
                break  # the same edges; or no longer row can end on a later hero
            outer = hl if way == 0 else hr
            inner = hr if way == 0 else hl
            nodes[top, 0] = 1 << a
            nodes[top, 1] = 0
            nodes[top, 2] = inner
            nodes[top, 3] = _inc(outer)
            nodes[top, 4] = worth[hero]
            nodes[top, 5] = 1 - way
            top += 1
            for i in range(nt):
                card = teams[i]
                for k in range(dangle_n[card, outer]):
                    nodes[top, 0] = 1 << a
                    nodes[top, 1] = 1 << i
                    nodes[top, 2] = inner
                    nodes[top, 3] = dangle_pts[card, outer, k]
                    nodes[top, 4] = worth[hero] + worth[card]
                    nodes[top, 5] = 1 - way
                    top += 1
        while top:
            top -= 1
            h_used = nodes[top, 0]
            t_used = nodes[top, 1]
            edge = nodes[top, 2]
            points = nodes[top, 3]
            power = nodes[top, 4]
            if nodes[top, 5]:
                # the row ends here: the edge free ...
                end = points + _inc(edge)
                if slots[0, end] == build:
                    if tab_pow[slots[1, end]] < power:
                        tab_pow[slots[1, end]] = power
                else:
                    slots[0, end] = build
                    slots[1, end] = count
                    tab_pts[count] = end
                    tab_pow[count] = power
                    count += 1
                # ... or holding one more teamwork with nothing beyond
                for i in range(nt):
                    if t_used >> i & 1:
                        continue
                    card = teams[i]
                    with_it = power + worth[card]
                    for k in range(dangle_n[card, edge]):
                        end = points + dangle_pts[card, edge, k]
                        if slots[0, end] == build:
                            if tab_pow[slots[1, end]] < with_it:
                                tab_pow[slots[1, end]] = with_it
                        else:
                            slots[0, end] = build
                            slots[1, end] = count
                            tab_pts[count] = end
                            tab_pow[count] = with_it
                            count += 1
            if t_used == all_teams or not later & ~h_used:
                continue  # no teamwork left to go on with, or no hero left to end on
            for i in range(nt):
                if t_used >> i & 1:
                    continue
                card = teams[i]
                t_power = power + worth[card]
                i_used = t_used | 1 << i
                for k in range(attach_n[card, edge]):
                    t_points = points + attach_pts[card, edge, k]
                    far = attach_far[card, edge, k]
                    for b in range(nh):
                        if h_used >> b & 1:
                            continue
                        mate = heroes[b]
                        b_used = h_used | 1 << b
                        ends = 1 if b > a else 0
                        if not ends and (i_used == all_teams or not later & ~b_used):
                            continue  # a row through it could neither end nor go on
                        for q in range(join_n[mate, far]):
                            nodes[top, 0] = b_used
                            nodes[top, 1] = i_used
                            nodes[top, 2] = join_out[mate, far, q]
                            nodes[top, 3] = t_points + join_pts[mate, far, q]
                            nodes[top, 4] = t_power + worth[mate]
                            nodes[top, 5] = ends
                            top += 1
    # the most power first, so the search over them stops early
    for i in range(1, count):
        points = tab_pts[i]
        power = tab_pow[i]
        j = i
        while j > 0 and tab_pow[j - 1] < power:
            tab_pts[j] = tab_pts[j - 1]
            tab_pow[j] = tab_pow[j - 1]
            j -= 1
        tab_pts[j] = points
        tab_pow[j] = power
    return count


# --- the power cards --------------------------------------------------------------------------


@kernel
def _side(t: RechargeArrays, card: int, way: int) -> int:
    """A power card's edge colours on side ``way`` (0: printed left)."""
    return t.left[card] if way == 0 else t.right[card]


@kernel
def _value_of(t: RechargeArrays, card: int, way: int) -> int:
    """A power card's value when side ``way`` touches (only that side counts, seed:182)."""
    return t.left_value[card] if way == 0 else t.right_value[card]


@kernel
def _power_options(
    t: RechargeArrays,
    powers: Ints,
    m: int,
    chain: int,
    opt_mask: Ints,
    opt_val: Ints,
    opt_n: Ints,
    rest: Ints,
    chain_best: Ints,
) -> None:
    """The options of the power cards ``powers[:m]`` per colour k: (card set, value) pairs,
    the most value first, one of which a free point of colour k takes. Without chaining a
    single card on its better side showing k (seed:182, 184); with it (recharge.md:19-20,
    seed:186-188), every chain of cards, each sharing a colour with the outer edge of the one
    before, counted by its touching sides. ``rest[used]``: the cards outside ``used``, each
    on its better side (no placement gets more of them)."""
    full = (1 << m) - 1
    for used in range(full + 1):
        total = 0
        for j in range(m):
            if not used >> j & 1:
                card = powers[j]
                total += max(t.left_value[card], t.right_value[card])
        rest[used] = total
    for k in range(4):
        opt_n[k] = 0
    if not chain:
        for j in range(m):
            card = powers[j]
            for k in range(4):
                best = -1
                for way in range(2):
                    if _side(t, card, way) & 1 << k and _value_of(t, card, way) > best:
                        best = _value_of(t, card, way)
                if best >= 0:
                    opt_mask[k, opt_n[k]] = 1 << j
                    opt_val[k, opt_n[k]] = best
                    opt_n[k] += 1
    else:
        # chain_best[set, 2j + way]: the best chain of exactly ``set`` whose card nearest the
        # hero is j, touching with side ``way``; a chain grows by a card nearer the hero
        sides = 2 * m
        for used in range(full + 1):
            for a in range(sides):
                chain_best[used, a] = -1
        for j in range(m):
            for way in range(2):
                chain_best[1 << j, 2 * j + way] = _value_of(t, powers[j], way)
        for used in range(1, full + 1):
            for a in range(sides):
                got = chain_best[used, a]
                if got < 0:
                    continue
                need = _side(t, powers[a >> 1], a & 1)
                for j in range(m):
                    if used >> j & 1:
                        continue
                    card = powers[j]
                    for way in range(2):
                        # its outer edge touches the chain's touching edge (seed:187)
                        if not _side(t, card, 1 - way) & need:
                            continue
                        value = got + _value_of(t, card, way)
                        b = 2 * j + way
                        if value > chain_best[used | 1 << j, b]:
                            chain_best[used | 1 << j, b] = value
        for used in range(1, full + 1):
            for k in range(4):
                best = -1
                for a in range(sides):
                    if chain_best[used, a] > best and _side(t, powers[a >> 1], a & 1) & 1 << k:
                        best = chain_best[used, a]
                if best >= 0:
                    opt_mask[k, opt_n[k]] = used
                    opt_val[k, opt_n[k]] = best
                    opt_n[k] += 1
    for k in range(4):  # the most value first: the search finds good totals early
        for i in range(1, opt_n[k]):
            mask = opt_mask[k, i]
            value = opt_val[k, i]
            j = i
            while j > 0 and opt_val[k, j - 1] < value:
                opt_mask[k, j] = opt_mask[k, j - 1]
                opt_val[k, j] = opt_val[k, j - 1]
                j -= 1
            opt_mask[k, j] = mask
            opt_val[k, j] = value


@kernel
def _cap(points: int, k: int, m: int) -> int:
    """Colour k's free points, clipped: a colour never takes more than the m power cards."""
    return min((points >> (POINT_BITS * k)) & 7, m)


@kernel
def _value(
    points: int, m: int, opt_mask: Ints, opt_val: Ints, opt_n: Ints, rest: Ints, frames: Ints
) -> int:
    """The best use of the power cards on ``points`` free points (one option a point, no card
    twice): a depth-first search, colour by colour, each colour's options in list order."""
    best = 0
    bound = rest[0]
    # frame: colour, points of it left, next option, cards used, value so far
    frames[0, 0] = 0
    frames[0, 1] = _cap(points, 0, m)
    frames[0, 2] = 0
    frames[0, 3] = 0
    frames[0, 4] = 0
    top = 1
    while top:
        top -= 1
        k = frames[top, 0]
        left = frames[top, 1]
        start = frames[top, 2]
        used = frames[top, 3]
        got = frames[top, 4]
        if got > best:
            best = got
            if best == bound:
                break  # every card on its better side: nothing beats it
        if got + rest[used] <= best:
            continue
        if k < 3:  # this colour takes nothing more (explored last)
            frames[top, 0] = k + 1
            frames[top, 1] = _cap(points, k + 1, m)
            frames[top, 2] = 0
            frames[top, 3] = used
            frames[top, 4] = got
            top += 1
        if left:
            for i in range(opt_n[k] - 1, start - 1, -1):
                mask = opt_mask[k, i]
                if mask & used:
                    continue
                frames[top, 0] = k
                frames[top, 1] = left - 1
                frames[top, 2] = i + 1
                frames[top, 3] = used | mask
                frames[top, 4] = got + opt_val[k, i]
                top += 1
    return best


@kernel
def _best(
    count: int,
    tab_pts: Ints,
    tab_pow: Ints,
    m: int,
    opt_mask: Ints,
    opt_val: Ints,
    opt_n: Ints,
    rest: Ints,
    frames: Ints,
    memo_val: Ints,
    memo_gen: Ints,
    gen: int,
) -> int:
    """The best formation's power: the best spine plus the power cards on its free points.
    The spines come the most power first; once one plus every power card on its better side
    cannot beat the best so far, no later one can."""
    if m == 0:
        return tab_pow[0]
    most = rest[0]
    best = -1
    for i in range(count):
        spine_power = tab_pow[i]
        if spine_power + most <= best:
            break
        points = tab_pts[i]
        key = _cap(points, 0, m) | _cap(points, 1, m) << 3 | _cap(points, 2, m) << 6
        key |= _cap(points, 3, m) << 9  # the same packing, clipped
        if memo_gen[key] == gen:
            value = memo_val[key]
        else:
            value = _value(points, m, opt_mask, opt_val, opt_n, rest, frames)
            memo_gen[key] = gen
            memo_val[key] = value
        if spine_power + value > best:
            best = spine_power + value
    return best


# --- a game -----------------------------------------------------------------------------------


@kernel
def _work(size: int) -> Any:
    """Scratch arrays of one kernel call, shared by its games: deal keys and order, the
    hand's heroes, teamwork and power cards, the spine table and its search nodes, the power
    options, the chain table, search frames, the value memo and its generation counter (a
    memo entry counts only under the current generation, so nothing is cleared between
    hands)."""
    return (
        np.empty(size, dtype=np.uint64),
        np.empty(size, dtype=np.intp),
        np.empty(HAND_LIMIT, dtype=np.int64),
        np.empty(HAND_LIMIT, dtype=np.int64),
        np.empty(HAND_LIMIT, dtype=np.int64),
        np.empty(TABLE_ROOM, dtype=np.int64),
        np.empty(TABLE_ROOM, dtype=np.int64),
        np.zeros((2, TABLE_ROOM), dtype=np.int64),
        np.empty((NODE_ROOM, 6), dtype=np.int64),
        np.empty((4, CHAIN_SETS), dtype=np.int64),
        np.empty((4, CHAIN_SETS), dtype=np.int64),
        np.empty(4, dtype=np.int64),
        np.empty(CHAIN_SETS, dtype=np.int64),
        np.empty((CHAIN_SETS, CHAIN_SIDES), dtype=np.int64),
        np.empty((FRAME_ROOM, 5), dtype=np.int64),
        np.empty(MEMO_ROOM, dtype=np.int64),
        np.full(MEMO_ROOM, -1, dtype=np.int64),
        np.zeros(2, dtype=np.int64),
    )


@kernel
def _prefixes(
    t: RechargeArrays,
    cards: Ints,
    most: int,
    chain: int,
    work: Any,
    prefix_power: Ints,
    prefix_hero: Ints,
) -> None:
    """The best formation's power of each prefix ``cards[:p + 1]``, p < ``most`` (at most
    HAND_LIMIT), into ``prefix_power[p]``, and whether it holds a hero (a formation exists,
    recharge.md:12) into ``prefix_hero[p]``. A hand that gains a hero, or a teamwork sharing
    a colour with a hero held, lists its spines again and keeps its power cards' memo; one
    that gains a power card keeps its spines and starts a new memo generation; other cards
    change nothing."""
    (
        _keys,
        _order,
        heroes,
        teams,
        powers,
        tab_pts,
        tab_pow,
        slots,
        nodes,
        opt_mask,
        opt_val,
        opt_n,
        rest,
        chain_best,
        frames,
        memo_val,
        memo_gen,
        gen,
    ) = work
    nh = 0
    nt = 0
    m = 0
    count = 0
    shown = 0  # the colours on the heroes' edges
    stale = 0  # the power options lag behind the power cards held
    power = 0
    for p in range(most):
        card = cards[p]
        what = t.kind[card]
        changed = 0
        if what == K_HERO:
            heroes[nh] = card
            nh += 1
            shown |= t.left[card] | t.right[card]
            changed = 1
        elif what == K_TEAM:
            teams[nt] = card
            nt += 1
            # a teamwork touches a hero edge in every row it is in (seed:173)
            changed = (t.left[card] | t.right[card]) & shown
        elif what == K_POWER:
            powers[m] = card
            m += 1
            stale = 1
        if nh and (changed or stale):
            if changed:
                gen[1] += 1
                count = _spine_table(
                    t, heroes, nh, teams, nt, tab_pts, tab_pow, slots, gen[1], nodes
                )
            if stale:  # beside a hero at most HAND_LIMIT - 1 power cards: the tables fit
                _power_options(t, powers, m, chain, opt_mask, opt_val, opt_n, rest, chain_best)
                gen[0] += 1
                stale = 0
            power = _best(
                count,
                tab_pts,
                tab_pow,
                m,
                opt_mask,
                opt_val,
                opt_n,
                rest,
                frames,
                memo_val,
                memo_gen,
                gen[0],
            )
        prefix_power[p] = power
        prefix_hero[p] = 1 if nh else 0


@kernel
def _hand_power(t: RechargeArrays, hand: Ints, chain: int) -> Any:
    work = _work(1)
    size = len(hand)
    prefix_power = np.zeros(size, dtype=np.int64)
    prefix_hero = np.zeros(size, dtype=np.int64)
    _prefixes(t, hand, size, chain, work, prefix_power, prefix_hero)
    return prefix_power, prefix_hero


def hand_power(tables: RechargeArrays, hand: list[int], chain: bool) -> tuple[int, bool]:
    """(the best formation's power, a formation exists) of these card indexes (at most
    HAND_LIMIT): the kernel's solver, for the tests against ``best_formation``."""
    if len(hand) > HAND_LIMIT:
        raise ValueError(f"a hand holds at most {HAND_LIMIT} cards")
    if not hand:
        return 0, False
    powers, heroes = _hand_power(tables, np.asarray(hand, dtype=np.int64), int(chain))
    return int(powers[-1]), bool(heroes[-1])


@kernel
def _deal(run_seed: int, index: int, pile: Any, most: int, work: Any, cards: Ints) -> None:
    """Game ``index``'s first ``most`` cards, top first, into ``cards`` (the shared deal)."""
    keys = work[0]
    order = work[1]
    deal_order(run_seed, index, len(pile), keys, order)
    for p in range(most):
        cards[p] = pile[order[p]]


@kernel
def _play_batch(
    t: RechargeArrays,
    chain: int,
    threshold: int,
    columns: Ints,
    full_turn: int,
    run_seed: int,
    start: int,
    count: int,
) -> Any:
    turns = len(columns)
    most = columns[turns - 1] + 1
    work = _work(len(t.pile))
    cards = np.empty(HAND_LIMIT, dtype=np.int64)
    prefix_power = np.empty(HAND_LIMIT, dtype=np.int64)
    prefix_hero = np.empty(HAND_LIMIT, dtype=np.int64)
    sums = np.zeros(turns, dtype=np.int64)
    squares = np.zeros(turns, dtype=np.int64)
    opens = np.zeros(turns, dtype=np.int64)
    first_open = np.zeros(turns + 1, dtype=np.int64)
    when_full = np.zeros(t.top + 1, dtype=np.int64)
    for index in range(start, start + count):
        _deal(run_seed, index, t.pile, most, work, cards)
        _prefixes(t, cards, most, chain, work, prefix_power, prefix_hero)
        first = 0
        for turn in range(turns):
            column = columns[turn]
            power = prefix_power[column]
            sums[turn] += power
            squares[turn] += power * power
            # a hand can open when it builds a formation (it holds a hero, recharge.md:12)
            # of at least the threshold
            if prefix_hero[column] and power >= threshold:
                opens[turn] += 1
                if first == 0:
                    first = turn + 1
        first_open[first] += 1
        if full_turn:
            when_full[prefix_power[columns[full_turn - 1]]] += 1
    return sums, squares, opens, first_open, when_full


@kernel
def _play_each(
    t: RechargeArrays,
    chain: int,
    threshold: int,
    columns: Ints,
    full_turn: int,
    run_seed: int,
    start: int,
    count: int,
) -> Any:
    turns = len(columns)
    most = columns[turns - 1] + 1
    work = _work(len(t.pile))
    cards = np.empty(HAND_LIMIT, dtype=np.int64)
    prefix_power = np.empty(HAND_LIMIT, dtype=np.int64)
    prefix_hero = np.empty(HAND_LIMIT, dtype=np.int64)
    powers = np.zeros((count, turns), dtype=np.int64)
    opened = np.zeros((count, turns), dtype=np.int64)
    each = np.zeros((count, EACH), dtype=np.int64)
    for row in range(count):
        _deal(run_seed, start + row, t.pile, most, work, cards)
        _prefixes(t, cards, most, chain, work, prefix_power, prefix_hero)
        for turn in range(turns):
            column = columns[turn]
            powers[row, turn] = prefix_power[column]
            if prefix_hero[column] and prefix_power[column] >= threshold:
                opened[row, turn] = 1
                if each[row, E_FIRST_OPEN] == 0:
                    each[row, E_FIRST_OPEN] = turn + 1
        if full_turn:
            each[row, E_FULL_TURN] = full_turn
            each[row, E_FULL_POWER] = prefix_power[columns[full_turn - 1]]
        each[row, E_SEEN] = most
    return powers, opened, each


def columns_of(turns: int, size: int) -> tuple[Ints, int]:
    """Per turn (1 .. turns) the prefix column it holds -- turn t holds the first
    min(1 + t, HAND_LIMIT, deck size) cards (recharge.md:33, 37) -- and the first turn the
    hand holds HAND_LIMIT cards (0: never, a deck below 6 cards or a short game)."""
    most = min(OPENING_HAND + turns, HAND_LIMIT, size)
    held = [min(OPENING_HAND + t, most) for t in range(1, turns + 1)]
    full_turn = next((t for t, n in enumerate(held, start=1) if n >= HAND_LIMIT), 0)
    return np.asarray([n - 1 for n in held], dtype=np.int64), full_turn


def play_batch(
    tables: RechargeArrays,
    turns: int,
    chain: bool,
    threshold: int,
    run_seed: int,
    start: int,
    count: int,
) -> Totals:
    """Games ``start`` .. ``start + count - 1`` of a run, their measures added up."""
    columns, full_turn = columns_of(turns, len(tables.pile))
    return Totals(
        *_play_batch(tables, int(chain), threshold, columns, full_turn, run_seed, start, count)
    )


class Each(NamedTuple):
    """``play_each``'s rows, one per game."""

    powers: Ints  # (games, turns): the best power at the end of each turn
    opened: Ints  # (games, turns): 1 where the hand can open
    each: Ints  # (games, EACH): first open turn, full turn, power when full, cards seen


def play_each(
    tables: RechargeArrays,
    turns: int,
    chain: bool,
    threshold: int,
    run_seed: int,
    start: int,
    count: int,
) -> Each:
    """The same games as ``play_batch``, one row of measures per game (for the tests)."""
    columns, full_turn = columns_of(turns, len(tables.pile))
    return Each(
        *_play_each(tables, int(chain), threshold, columns, full_turn, run_seed, start, count)
    )


def warm() -> None:
    """Compile the batch kernel, or load it from numba's cache, on a 3-card deck with the
    argument types a run passes."""
    tables = arrays(
        (0, 1, 2),
        (
            RCard(HERO, power=10, left=1, right=1),
            RCard(TEAMWORK, power=5, left=1, right=1),
            RCard(POWER, left=1, right=2, left_power=5, right_power=1),
        ),
    )
    play_batch(tables, 3, False, 1, 1, 0, 2)
