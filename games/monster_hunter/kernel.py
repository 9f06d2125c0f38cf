"""Monster Hunter's compiled batch kernel (issue 22): the policy's games of a batch over typed
numpy arrays, compiled by numba (``simulator.engine.compiled.kernel``), the measures added up
in arrays that ``metrics_of`` turns into the very ``Metrics`` the Python batch path gives.

It plays the same game as the state API (``state.py``, the reference) driven by the policy
(``policy.py``): the deal is ``compiled.deal_order`` (the one counter-based deal every path
shares), a retreat's reshuffle the same deal of game ``index + retreat * RESHUFFLE_STRIDE``
(``MonsterHunterState._retreat``), then each phase of monster-hunter.md:44-65 step for step in
the state's order. The state's methods are named beside each part; the digest lines they cite
are in ``state.py`` and ``docs/engines/monster_hunter.md``. ``tests/games/monster_hunter/
test_kernel.py`` compares the kernel with the state API game by game (``per_game``).

What the arrays hold (``KernelTables``, built once per ``prepare`` and kept on the prepared
object, so a worker reuses them across the batches of a run):
  * ``pile``: the unshuffled draw pile (card indexes);
  * ``cards``: one row per card attribute (the ``C_*`` rows), a column per card index, and
    ``C_PLACE``: the placement order of the monsters (0 first: highest HP, then rank, then the
    lower index, as ``policy.best_monster``);
  * ``lineup``: the training sheet's reference monsters, (HP, attack, reach, rank, area) a row;
  * ``setting``: the hunter's numbers and the cleaned parameters as integers (``S_*``).

Inside a game the deck, the hand and the discard pile are arrays used as the state's lists
(the deck drawn from its end; cards removed from the hand by their first copy, as
``list.remove``; the discard pile in the order cards reach it, which the reshuffle deals
from). Our face-down monsters are only a count: none ever leaves the sheet, and none is ever
face up (the goldfish opponent never hunts, monster-hunter.md:68), so ``up`` stays empty.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from games.monster_hunter.constants import (
    ARMOR,
    HAND_SIZE,
    ITEM,
    MONSTER,
    RESHUFFLE_STRIDE,
    RETIRE_AT,
    TARGET_HR,
    WEAPON,
)
from games.monster_hunter.metrics import (
    M_ARMOR_TURN,
    M_DEAD_ITEMS,
    M_FIRST_RETREAT,
    M_FIRST_SLAY,
    M_HUNT_HR,
    M_LIMIT,
    M_MILLED,
    M_REACHED,
    M_REACHED_TURN,
    M_RETIRED,
    M_RETIRED_TURN,
    M_RETREATS,
    M_SLAIN,
    M_USABLE,
    M_WEAPON_TURN,
    M_WEAPONS,
    M_WON_RETIRING,
)
from simulator.engine.compiled import deal_order, kernel, warm_deal
from simulator.engine.metrics import Metrics

if TYPE_CHECKING:
    from games.monster_hunter.state import MonsterHunterState

Ints = npt.NDArray[np.int64]

# --- ``cards`` rows ---------------------------------------------------------------------------
C_KIND, C_ICON, C_ATK, C_MOV, C_RCH, C_WMASK, C_COST, C_DEF, C_IMASK, C_HP, C_RANK = range(11)
C_PLACE = 11
CARD_ROWS = 12

# --- ``lineup`` columns -----------------------------------------------------------------------
L_HP, L_ATK, L_RCH, L_RANK, L_AREA = range(5)

# --- ``setting`` ------------------------------------------------------------------------------
S_H_ATK, S_H_MOV, S_H_RCH, S_H_MASK = range(4)
S_TWO_PLAYER = 4
S_CAPACITY = 5
S_AREAS = 6
S_POLICY = 7  # P_NONE, P_DEAD, P_DIG
S_RANK_FIRST = 8
S_ITEM_ATTACK = 9
S_ITEM_DEFENCE = 10
S_ITEM_NONE = 11
S_ABSORB = 12
S_TIES_TO_MONSTER = 13
S_ON_EMPTY = 14
S_HR_FIRST = 15
S_RESTOCK = 16  # R_NONE, R_ONE, R_ALL
S_APPROACH = 17
S_MATERIAL = 18
S_MAX_TURNS = 19
SETTINGS = 20
P_NONE, P_DEAD, P_DIG = range(3)
RESTOCK_NONE, RESTOCK_ONE, RESTOCK_ALL = range(3)

# --- the game's scalars (``st``) --------------------------------------------------------------
G_DECK, G_HAND, G_DISCARD = 0, 1, 2  # how many cards each array holds
G_WEAPON, G_ARMOR, G_BANK, G_HR, G_RETREATS, G_TURN = 3, 4, 5, 6, 7, 8
G_DIST, G_AREA, G_DEF_BONUS, G_WEAPON_DONE, G_ARMOR_DONE, G_DOWN = 9, 10, 11, 12, 13, 14
G_PLACED, G_MILLED, G_SLAIN, G_HUNT_HR, G_FIRST_SLAY, G_FIRST_RETREAT = 15, 16, 17, 18, 19, 20
G_WEAPON_TURN, G_ARMOR_TURN, G_OVER, G_OUTCOME, G_END_TURN = 21, 22, 23, 24, 25
G_RUN_SEED, G_INDEX = 26, 27
STATE = 28

# --- outcomes -------------------------------------------------------------------------------
O_WIN, O_RETIRED, O_LIMIT = 1, 2, 3

# --- one game's row (``per_game``); T = max_turns -------------------------------------------
R_OUTCOME, R_END_TURN, R_WON_RETIRING, R_RETREATS, R_MILLED, R_SLAIN, R_HUNT_HR = range(7)
R_FIRST_RETREAT, R_FIRST_SLAY, R_WEAPON_TURN, R_ARMOR_TURN = 7, 8, 9, 10
# the final state: not measured, compared so a game that drifts shows at once
R_HR, R_BANK, R_WEAPON, R_ARMOR, R_DECK, R_HAND, R_DISCARD, R_DOWN, R_DIST, R_AREA = range(11, 21)
R_CARDS = 21  # a hash of the deck, hand and discard pile, in order (``cards_hash``)
#: per-turn hand measures: how many refills had 0..6 matching weapons, usable and dead items
R_OBS = 22
OBS = HAND_SIZE + 1
R_TURNS = R_OBS + 3 * OBS  # then HR by turn [R_TURNS, +T), monsters placed by turn [+T, +2T)

# --- the batch totals -----------------------------------------------------------------------
#: ``scalars``: the outcome counts, the HR wins beating retirement, then sums and squares of
#: retreats, cards milled, monsters slain and HR from hunts
Z_REACHED, Z_RETIRED, Z_LIMIT, Z_WON_RETIRING = range(4)
Z_SUMS = 4
Z_SQUARES = 8
SCALARS = 12
#: ``histograms`` rows (columns: the turn)
H_REACHED, H_RETIRED, H_FIRST_RETREAT, H_FIRST_SLAY, H_WEAPON, H_ARMOR = range(6)
HISTOGRAMS = 6
#: ``per_turn`` rows (columns: turn - 1)
T_HR, T_HR_SQUARES, T_PLACED, T_PLACED_SQUARES = range(4)
PER_TURN = 4
#: hash modulus: a prime small enough that no step overflows int64
HASH_MOD = 1_000_000_007


def row_width(max_turns: int) -> int:
    return R_TURNS + 2 * max_turns


@dataclass(frozen=True)
class KernelTables:
    """The prepared deck and parameters as the kernel's arrays (see the module docstring)."""

    pile: Ints
    cards: Ints
    lineup: Ints
    setting: Ints


def build_tables(
    *,
    pile: Sequence[int],
    columns: Sequence[Sequence[int]],
    lineup: Sequence[tuple[int, int, int, int]],
    lineup_area: Sequence[int],
    setting: Sequence[int],
) -> KernelTables:
    """The arrays of one prepared deck (``prepared.build_prepared`` calls it once):
    ``columns`` are the ``C_KIND`` .. ``C_RANK`` tables by card index."""
    assert len(columns) == C_PLACE and len(setting) == SETTINGS
    n = len(columns[0])
    cards = np.zeros((CARD_ROWS, n), dtype=np.int64)
    for row, values in enumerate(columns):
        cards[row, :] = values
    kind, hp, rank = columns[C_KIND], columns[C_HP], columns[C_RANK]
    # policy.best_monster's order: the highest (HP, rank, -index) first
    monsters = sorted(
        (c for c in range(n) if kind[c] == MONSTER), key=lambda c: (hp[c], rank[c], -c)
    )
    for place, card in enumerate(reversed(monsters)):
        cards[C_PLACE, card] = place
    line = np.zeros((max(len(lineup), 1), 5), dtype=np.int64)[: len(lineup)]
    for slot, monster in enumerate(lineup):
        line[slot, :4] = monster
        line[slot, L_AREA] = lineup_area[slot]
    return KernelTables(
        pile=np.asarray(pile, dtype=np.int64).reshape(len(pile)),
        cards=cards,
        lineup=np.ascontiguousarray(line),
        setting=np.asarray(setting, dtype=np.int64),
    )


# --- the hunter's numbers (``MonsterHunterState.attack`` and the rest) ----------------------


@kernel
def _attack(st: Ints, cards: Ints, setting: Ints) -> int:
    w = st[G_WEAPON]
    return cards[C_ATK, w] if w >= 0 else setting[S_H_ATK]


@kernel
def _movement(st: Ints, cards: Ints, setting: Ints) -> int:
    w = st[G_WEAPON]
    return cards[C_MOV, w] if w >= 0 else setting[S_H_MOV]


@kernel
def _reach(st: Ints, cards: Ints, setting: Ints) -> int:
    w = st[G_WEAPON]
    return cards[C_RCH, w] if w >= 0 else setting[S_H_RCH]


@kernel
def _defence(st: Ints, cards: Ints) -> int:
    a = st[G_ARMOR]
    return cards[C_DEF, a] if a >= 0 else 0


@kernel
def _matches(st: Ints, cards: Ints, card: int) -> bool:
    """``MonsterHunterState.matches``."""
    if cards[C_KIND, card] != WEAPON:
        return False
    w = st[G_WEAPON]
    return w < 0 or cards[C_ICON, card] == cards[C_ICON, w]


@kernel
def _usable(st: Ints, cards: Ints, setting: Ints, card: int) -> bool:
    """``MonsterHunterState.usable``."""
    if cards[C_KIND, card] != ITEM:
        return False
    w = st[G_WEAPON]
    mask = cards[C_WMASK, w] if w >= 0 else setting[S_H_MASK]
    return (cards[C_IMASK, card] & mask) != 0


@kernel
def _payable(st: Ints, cards: Ints, setting: Ints, card: int) -> int:
    """``MonsterHunterState.payable``: material cards needed (-1: unaffordable)."""
    if cards[C_KIND, card] == WEAPON:
        old = st[G_WEAPON]
        trade = cards[C_COST, old] if old >= 0 and cards[C_ICON, old] == cards[C_ICON, card] else 0
    else:
        old = st[G_ARMOR]
        trade = cards[C_COST, old] if old >= 0 else 0
    rest = cards[C_COST, card] - trade
    if rest <= 0:
        return 0
    material = setting[S_MATERIAL]
    if material <= 0:
        return -1
    needed = -(-rest // material)
    return needed if needed <= st[G_BANK] else -1


@kernel
def _before_hunter(st: Ints, cards: Ints, setting: Ints, lineup: Ints, slot: int) -> bool:
    """``MonsterHunterState.before_hunter``."""
    reach = lineup[slot, L_RCH]
    mine = _reach(st, cards, setting)
    return reach > mine or (reach == mine and setting[S_TIES_TO_MONSTER] != 0)


# --- lists ----------------------------------------------------------------------------------


@kernel
def _remove(hand: Ints, st: Ints, card: int) -> None:
    """``hand.remove(card)``: the first copy goes, the rest shift left."""
    n = st[G_HAND]
    i = 0
    while hand[i] != card:
        i += 1
    for k in range(i, n - 1):
        hand[k] = hand[k + 1]
    st[G_HAND] = n - 1


@kernel
def _to_discard(discard: Ints, st: Ints, card: int) -> None:
    discard[st[G_DISCARD]] = card
    st[G_DISCARD] += 1


@kernel
def _cards_hash(deck: Ints, hand: Ints, discard: Ints, st: Ints) -> int:
    """The deck, the hand and the discard pile in order, hashed (``cards_hash``)."""
    h = 0
    for k in range(st[G_DECK]):
        h = (h * 31 + deck[k] + 1) % HASH_MOD
    h = (h * 31 + 1_000_000) % HASH_MOD
    for k in range(st[G_HAND]):
        h = (h * 31 + hand[k] + 1) % HASH_MOD
    h = (h * 31 + 1_000_000) % HASH_MOD
    for k in range(st[G_DISCARD]):
        h = (h * 31 + discard[k] + 1) % HASH_MOD
    return h


def cards_hash(deck: Sequence[int], hand: Sequence[int], discard: Sequence[int]) -> int:
    """``_cards_hash`` of a state's lists, in Python (the tests' side of ``R_CARDS``)."""
    h = 0
    for part, cards in enumerate((deck, hand, discard)):
        if part:
            h = (h * 31 + 1_000_000) % HASH_MOD
        for card in cards:
            h = (h * 31 + card + 1) % HASH_MOD
    return h


# --- the deck (``MonsterHunterState._take`` and ``_retreat``) -------------------------------


@kernel
def _retreat(
    st: Ints,
    setting: Ints,
    deck: Ints,
    discard: Ints,
    keys: npt.NDArray[np.uint64],
    order: npt.NDArray[np.intp],
) -> None:
    """``_retreat``, line 59: +1 retreat, the discard pile dealt as the new deck (the deal of
    game ``index + retreats * RESHUFFLE_STRIDE``), the hunter back to camp."""
    st[G_RETREATS] += 1
    if st[G_FIRST_RETREAT] == 0:
        st[G_FIRST_RETREAT] = st[G_TURN]
    m = st[G_DISCARD]
    deal_order(st[G_RUN_SEED], st[G_INDEX] + st[G_RETREATS] * RESHUFFLE_STRIDE, m, keys, order)
    for k in range(m):  # drawn from the end: the deal's first card goes last
        deck[k] = discard[order[m - 1 - k]]
    st[G_DECK] = m
    st[G_DISCARD] = 0
    st[G_DIST] = setting[S_APPROACH]
    st[G_AREA] = -1


@kernel
def _take(
    st: Ints,
    setting: Ints,
    deck: Ints,
    discard: Ints,
    keys: npt.NDArray[np.uint64],
    order: npt.NDArray[np.intp],
) -> int:
    """``_take``: the top card (-1: none); the deck running out is a retreat (line 59), when
    it becomes empty ("on_empty") or when a card is wanted from it empty ("on_draw")."""
    on_empty = setting[S_ON_EMPTY] != 0
    if st[G_DECK] == 0:
        if not on_empty:
            _retreat(st, setting, deck, discard, keys, order)
        if st[G_DECK] == 0:
            return -1
    st[G_DECK] -= 1
    card = deck[st[G_DECK]]
    if st[G_DECK] == 0 and on_empty:
        _retreat(st, setting, deck, discard, keys, order)
    return card


# --- the hand phase (``policy.dead_card``, ``MonsterHunterState._refill``) ------------------


@kernel
def _of_use(st: Ints, cards: Ints, setting: Ints, hunting: bool, card: int) -> bool:
    """``policy.of_use``: whether a card other than a monster can still be used."""
    kind = cards[C_KIND, card]
    if kind == ITEM:
        return hunting and setting[S_ITEM_NONE] == 0 and _usable(st, cards, setting, card)
    if kind == WEAPON:
        if hunting and _matches(st, cards, card):
            return True
        if cards[C_ATK, card] <= _attack(st, cards, setting):
            return False
        return setting[S_MATERIAL] > 0 or _payable(st, cards, setting, card) >= 0
    if kind == ARMOR:
        if hunting and setting[S_ABSORB] != 0:
            return True
        if cards[C_DEF, card] <= _defence(st, cards):
            return False
        return setting[S_MATERIAL] > 0 or _payable(st, cards, setting, card) >= 0
    return False


@kernel
def _dead_card(st: Ints, cards: Ints, setting: Ints, hunting: bool, hand: Ints) -> int:
    """``policy.dead_card``. A monster at hand position i is kept when the monsters of the
    hand placed before it (a better placement order, or an earlier copy) number fewer than
    the room left (``policy.monster_room``: the free slots, ``up`` being empty)."""
    policy = setting[S_POLICY]
    if policy == P_NONE:
        return -1
    n = st[G_HAND]
    room = setting[S_CAPACITY] - st[G_DOWN]
    for i in range(n):
        card = hand[i]
        if cards[C_KIND, card] == MONSTER:
            rank = cards[C_PLACE, card]
            ahead = 0
            for j in range(n):
                other = hand[j]
                if cards[C_KIND, other] == MONSTER and (
                    cards[C_PLACE, other] < rank or (other == card and j < i)
                ):
                    ahead += 1
            if ahead >= room:
                return card
        elif policy == P_DIG or not _of_use(st, cards, setting, hunting, card):
            return card
    return -1


@kernel
def _refill(
    st: Ints,
    cards: Ints,
    setting: Ints,
    deck: Ints,
    hand: Ints,
    discard: Ints,
    keys: npt.NDArray[np.uint64],
    order: npt.NDArray[np.intp],
    obs: Ints,
) -> None:
    """``_refill``, line 45: draw back up to 6; then the hand's measures into ``obs``."""
    while st[G_HAND] < HAND_SIZE:
        card = _take(st, setting, deck, discard, keys, order)
        if card < 0:
            break
        hand[st[G_HAND]] = card
        st[G_HAND] += 1
    weapons = usable = items = 0
    for i in range(st[G_HAND]):
        card = hand[i]
        kind = cards[C_KIND, card]
        if kind == WEAPON:
            weapons += _matches(st, cards, card)
        elif kind == ITEM:
            items += 1
            usable += _usable(st, cards, setting, card)
    obs[0, weapons] += 1
    obs[1, usable] += 1
    obs[2, items - usable] += 1


# --- the hunt (``_monster_attacks``, ``_attack``, ``policy.best_target``) --------------------


@kernel
def _monster_attacks(
    st: Ints,
    cards: Ints,
    setting: Ints,
    lineup: Ints,
    deck: Ints,
    hand: Ints,
    discard: Ints,
    keys: npt.NDArray[np.uint64],
    order: npt.NDArray[np.intp],
    slot: int,
) -> None:
    """``_monster_attacks``, lines 57-58: armor (lowest defence first) and, with items as
    defence, usable items (lowest index first) absorb; the rest mills; line 59 on empty."""
    damage = lineup[slot, L_ATK] - _defence(st, cards) - st[G_DEF_BONUS]
    if damage > 0 and setting[S_ABSORB] != 0:
        for _ in range(damage):  # armor[:damage] of the sorted armor cards
            best = -1
            for i in range(st[G_HAND]):
                card = hand[i]
                if cards[C_KIND, card] == ARMOR and (
                    best < 0
                    or cards[C_DEF, card] < cards[C_DEF, best]
                    or (cards[C_DEF, card] == cards[C_DEF, best] and card < best)
                ):
                    best = card
            if best < 0:
                break
            _remove(hand, st, best)
            _to_discard(discard, st, best)
            st[G_DEF_BONUS] += 1
        damage = lineup[slot, L_ATK] - _defence(st, cards) - st[G_DEF_BONUS]
    if damage > 0 and setting[S_ITEM_DEFENCE] != 0:
        for _ in range(damage):  # items[:damage] of the sorted usable items
            best = -1
            for i in range(st[G_HAND]):
                card = hand[i]
                if _usable(st, cards, setting, card) and (best < 0 or card < best):
                    best = card
            if best < 0:
                break
            _remove(hand, st, best)
            _to_discard(discard, st, best)
            st[G_DEF_BONUS] += 1
        damage = lineup[slot, L_ATK] - _defence(st, cards) - st[G_DEF_BONUS]
    on_empty = setting[S_ON_EMPTY] != 0
    milled = 0
    while milled < damage:
        if st[G_DECK] == 0:
            if not on_empty:
                _retreat(st, setting, deck, discard, keys, order)
            break
        st[G_DECK] -= 1
        _to_discard(discard, st, deck[st[G_DECK]])
        milled += 1
        if st[G_DECK] == 0 and on_empty:
            _retreat(st, setting, deck, discard, keys, order)
            break
    st[G_MILLED] += milled


@kernel
def _best_target(
    st: Ints, cards: Ints, setting: Ints, lineup: Ints, alive: Ints, hand: Ints, area: int
) -> int:
    """``policy.best_target``'s slot (-1: none); ``area`` -1: any area."""
    base = _attack(st, cards, setting)
    item_attack = setting[S_ITEM_ATTACK] != 0
    spare = 0
    for i in range(st[G_HAND]):
        card = hand[i]
        if _matches(st, cards, card) or (item_attack and _usable(st, cards, setting, card)):
            spare += 1
    rank_first = setting[S_RANK_FIRST] != 0
    best = -1
    best_cost = 0
    best_rank = 0
    for slot in range(lineup.shape[0]):
        if alive[slot] == 0 or (area >= 0 and lineup[slot, L_AREA] != area):
            continue
        hp = lineup[slot, L_HP]
        cost = hp - base if hp > base else 0
        if cost > spare:
            continue
        rank = lineup[slot, L_RANK]
        if best < 0:
            better = True
        elif rank_first:
            better = rank > best_rank or (rank == best_rank and cost < best_cost)
        else:
            better = cost < best_cost or (cost == best_cost and rank > best_rank)
        if better:
            best, best_cost, best_rank = slot, cost, rank
    return best


@kernel
def _spend(st: Ints, cards: Ints, setting: Ints, hand: Ints, discard: Ints, need: int) -> int:
    """``_spend``: matching weapon cards (lowest attack first), then usable items with items
    as attack (lowest index first), ``need`` of them or none when there are fewer."""
    item_attack = setting[S_ITEM_ATTACK] != 0
    have = 0
    for i in range(st[G_HAND]):
        card = hand[i]
        if _matches(st, cards, card) or (item_attack and _usable(st, cards, setting, card)):
            have += 1
    if have < need:
        return 0
    for _ in range(need):
        best = -1
        for i in range(st[G_HAND]):
            card = hand[i]
            if _matches(st, cards, card) and (
                best < 0
                or cards[C_ATK, card] < cards[C_ATK, best]
                or (cards[C_ATK, card] == cards[C_ATK, best] and card < best)
            ):
                best = card
        if best < 0:
            for i in range(st[G_HAND]):
                card = hand[i]
                if _usable(st, cards, setting, card) and (best < 0 or card < best):
                    best = card
        _remove(hand, st, best)
        _to_discard(discard, st, best)
    return need


@kernel
def _end(st: Ints, outcome: int) -> None:
    st[G_OVER] = 1
    st[G_OUTCOME] = outcome
    st[G_END_TURN] = st[G_TURN]


@kernel
def _strike_in_order(
    st: Ints,
    cards: Ints,
    setting: Ints,
    lineup: Ints,
    alive: Ints,
    face_up: Ints,
    acted: Ints,
    deck: Ints,
    hand: Ints,
    discard: Ints,
    keys: npt.NDArray[np.uint64],
    order: npt.NDArray[np.intp],
    first: bool,
) -> None:
    """The face-up monsters of the hunter's area that act before it (``first``: ``_move``)
    or after it (``_attack``, those that have not acted), in reach order, slot order on
    ties (lines 51-52); they stop hitting once the hunter has retreated."""
    n = lineup.shape[0]
    area = st[G_AREA]
    chosen = 0  # bit mask of the slots that strike
    for slot in range(n):
        if alive[slot] and lineup[slot, L_AREA] == area and face_up[slot]:
            if first:
                if _before_hunter(st, cards, setting, lineup, slot):
                    chosen |= 1 << slot
            elif not acted[slot] and not _before_hunter(st, cards, setting, lineup, slot):
                chosen |= 1 << slot
    while chosen:
        pick = -1
        for slot in range(n):
            if chosen & (1 << slot) and (pick < 0 or lineup[slot, L_RCH] > lineup[pick, L_RCH]):
                pick = slot
        chosen &= ~(1 << pick)
        if st[G_DIST]:
            break
        acted[pick] = 1
        _monster_attacks(st, cards, setting, lineup, deck, hand, discard, keys, order, pick)


@kernel
def _hit(
    st: Ints,
    cards: Ints,
    setting: Ints,
    lineup: Ints,
    alive: Ints,
    face_up: Ints,
    acted: Ints,
    deck: Ints,
    hand: Ints,
    discard: Ints,
    keys: npt.NDArray[np.uint64],
    order: npt.NDArray[np.intp],
    slot: int,
) -> bool:
    """``_attack``, lines 53-56: the hunter's attack on ``slot``; false when a flipped monster
    with a higher reach cut it off and the hunter is still here (the hunt goes on)."""
    hp = lineup[slot, L_HP]
    if not face_up[slot]:
        face_up[slot] = 1
        if lineup[slot, L_RCH] > _reach(st, cards, setting):
            # line 53: it strikes first; the hunter's attack starts again from the beginning
            acted[slot] = 1
            _monster_attacks(st, cards, setting, lineup, deck, hand, discard, keys, order, slot)
            return st[G_DIST] != 0
        if _before_hunter(st, cards, setting, lineup, slot):
            acted[slot] = 1
    need = hp - _attack(st, cards, setting)
    spent = _spend(st, cards, setting, hand, discard, need) if need > 0 else 0
    if _attack(st, cards, setting) + spent >= hp:
        # line 55: slain, +rank HR points; line 41: 20 ends the game at once
        alive[slot] = 0
        rank = lineup[slot, L_RANK]
        st[G_HR] += rank
        st[G_HUNT_HR] += rank
        st[G_SLAIN] += 1
        if st[G_FIRST_SLAY] == 0:
            st[G_FIRST_SLAY] = st[G_TURN]
        if st[G_HR] >= TARGET_HR:
            _end(st, O_WIN)
            return True
    _strike_in_order(
        st, cards, setting, lineup, alive, face_up, acted, deck, hand, discard, keys, order, False
    )
    return True


@kernel
def _move_and_hunt(
    st: Ints,
    cards: Ints,
    setting: Ints,
    lineup: Ints,
    alive: Ints,
    face_up: Ints,
    acted: Ints,
    deck: Ints,
    hand: Ints,
    discard: Ints,
    keys: npt.NDArray[np.uint64],
    order: npt.NDArray[np.intp],
    threat: Ints,
) -> None:
    """The move phase (lines 49-50, ``policy_action``'s MOVE and ``_move``) and the hunt
    (lines 51-58, its HUNT); the game may end in it (line 41)."""
    mov = _movement(st, cards, setting)
    if st[G_DIST] > mov:
        st[G_DIST] -= mov  # on the way to the training sheet
        return
    areas = setting[S_AREAS]
    n = lineup.shape[0]
    only_here = st[G_DIST] == 0 and mov <= 0  # ``reachable``: no movement, no move
    target = _best_target(st, cards, setting, lineup, alive, hand, -1)
    if target >= 0 and (not only_here or lineup[target, L_AREA] == st[G_AREA]):
        area = lineup[target, L_AREA]
    elif only_here:
        area = st[G_AREA]
    else:  # ``safest_area``: the least face-up attack, staying put on ties, then the lowest
        for a in range(areas):
            threat[a] = 0
        for slot in range(n):
            if alive[slot] and face_up[slot]:
                threat[lineup[slot, L_AREA]] += lineup[slot, L_ATK]
        area = -1
        for a in range(areas):
            if (
                area < 0
                or threat[a] < threat[area]
                or (threat[a] == threat[area] and area != st[G_AREA] and a == st[G_AREA])
            ):
                area = a
    st[G_DIST] = 0
    st[G_AREA] = area
    anyone = False
    for slot in range(n):
        if alive[slot] and lineup[slot, L_AREA] == area:
            anyone = True
    if not anyone:
        return
    _strike_in_order(
        st, cards, setting, lineup, alive, face_up, acted, deck, hand, discard, keys, order, True
    )
    while st[G_DIST] == 0 and st[G_OVER] == 0:
        slot = _best_target(st, cards, setting, lineup, alive, hand, area)
        if slot < 0:
            # nothing to slay: hold with only face-down monsters here (seed 111), else the
            # weakest face-up one is attacked
            for s in range(n):
                shown = alive[s] and lineup[s, L_AREA] == area and face_up[s]
                if shown and (slot < 0 or lineup[s, L_HP] < lineup[slot, L_HP]):
                    slot = s
            if slot < 0:
                return
        if _hit(
            st,
            cards,
            setting,
            lineup,
            alive,
            face_up,
            acted,
            deck,
            hand,
            discard,
            keys,
            order,
            slot,
        ):
            return


@kernel
def _best_equip(st: Ints, cards: Ints, setting: Ints, hand: Ints, kind: int) -> int:
    """``policy.best_equip``: the affordable weapon with the highest (attack, reach, -cost,
    -index) above the current attack, or armor with the highest (defence, -cost, -index)
    above the current defence."""
    best = -1
    if kind == WEAPON:
        floor = _attack(st, cards, setting)
        for i in range(st[G_HAND]):
            card = hand[i]
            if (
                cards[C_KIND, card] == WEAPON
                and cards[C_ATK, card] > floor
                and _payable(st, cards, setting, card) >= 0
            ):
                if best < 0:
                    best = card
                    continue
                a, b = cards[C_ATK, card], cards[C_ATK, best]
                if a != b:
                    better = a > b
                elif cards[C_RCH, card] != cards[C_RCH, best]:
                    better = cards[C_RCH, card] > cards[C_RCH, best]
                elif cards[C_COST, card] != cards[C_COST, best]:
                    better = cards[C_COST, card] < cards[C_COST, best]
                else:
                    better = card < best
                if better:
                    best = card
        return best
    floor = _defence(st, cards)
    for i in range(st[G_HAND]):
        card = hand[i]
        if (
            cards[C_KIND, card] == ARMOR
            and cards[C_DEF, card] > floor
            and _payable(st, cards, setting, card) >= 0
        ):
            if best < 0:
                best = card
                continue
            a, b = cards[C_DEF, card], cards[C_DEF, best]
            if a != b:
                better = a > b
            elif cards[C_COST, card] != cards[C_COST, best]:
                better = cards[C_COST, card] < cards[C_COST, best]
            else:
                better = card < best
            if better:
                best = card
    return best


@kernel
def _equip(st: Ints, cards: Ints, setting: Ints, hand: Ints, discard: Ints, card: int) -> None:
    """``_equip``, line 60: paid in material cards; the card it replaces is discarded."""
    st[G_BANK] -= _payable(st, cards, setting, card)
    _remove(hand, st, card)
    if cards[C_KIND, card] == WEAPON:
        old = st[G_WEAPON]
        st[G_WEAPON] = card
        if st[G_WEAPON_TURN] == 0:
            st[G_WEAPON_TURN] = st[G_TURN]
    else:
        old = st[G_ARMOR]
        st[G_ARMOR] = card
        if st[G_ARMOR_TURN] == 0:
            st[G_ARMOR_TURN] = st[G_TURN]
    if old >= 0:
        _to_discard(discard, st, old)


@kernel
def play_game(
    pile: Ints,
    cards: Ints,
    lineup: Ints,
    setting: Ints,
    run_seed: int,
    index: int,
    st: Ints,
    deck: Ints,
    hand: Ints,
    discard: Ints,
    keys: npt.NDArray[np.uint64],
    order: npt.NDArray[np.intp],
    alive: Ints,
    face_up: Ints,
    acted: Ints,
    threat: Ints,
    obs: Ints,
    hr_turns: Ints,
    placed_turns: Ints,
) -> None:
    """One game of the policy, from the deal to the end; the state is left in ``st`` (the
    ``G_*`` slots), the hand measures in ``obs``, HR and monsters placed by turn in
    ``hr_turns`` / ``placed_turns`` (index turn - 1, up to the last turn played)."""
    size = pile.shape[0]
    n = lineup.shape[0]
    hunting = n > 0
    max_turns = setting[S_MAX_TURNS]
    st[:] = 0
    st[G_WEAPON] = -1
    st[G_ARMOR] = -1
    st[G_TURN] = 1
    st[G_DIST] = setting[S_APPROACH]
    st[G_AREA] = -1
    st[G_RUN_SEED] = run_seed
    st[G_INDEX] = index
    obs[:, :] = 0
    for slot in range(n):
        alive[slot] = 1
        face_up[slot] = 0
        acted[slot] = 0
    deal_order(run_seed, index, size, keys, order)
    for k in range(size):  # the deal's first card is drawn first, from the end
        deck[k] = pile[order[size - 1 - k]]
    st[G_DECK] = size
    while True:
        # 1. hand (line 45): discard the dead cards, draw back up to 6
        while True:
            card = _dead_card(st, cards, setting, hunting, hand)
            if card < 0:
                break
            _remove(hand, st, card)
            _to_discard(discard, st, card)
        _refill(st, cards, setting, deck, hand, discard, keys, order, obs)
        # 2. placement (lines 46-48): the sturdiest monster while the sheet has room
        if st[G_DOWN] < setting[S_CAPACITY]:
            best = -1
            for i in range(st[G_HAND]):
                card = hand[i]
                if cards[C_KIND, card] == MONSTER and (
                    best < 0 or cards[C_PLACE, card] < cards[C_PLACE, best]
                ):
                    best = card
            if best >= 0:
                _remove(hand, st, best)
                st[G_DOWN] += 1
                st[G_PLACED] += 1
        restock = setting[S_RESTOCK]
        if restock != RESTOCK_NONE:  # ``_restock``: slain reference monsters come back
            for slot in range(n):
                if not alive[slot]:
                    alive[slot] = 1
                    face_up[slot] = 0
                    if restock == RESTOCK_ONE:
                        break
        # 3-4. move and hunt, in the training ground only
        if hunting:
            _move_and_hunt(
                st,
                cards,
                setting,
                lineup,
                alive,
                face_up,
                acted,
                deck,
                hand,
                discard,
                keys,
                order,
                threat,
            )
            if st[G_OVER]:
                break
        # 5. equip (lines 60-61): one material card banked first (``_to_equip``)
        if setting[S_MATERIAL] > 0:
            st[G_BANK] += 1
        card = _best_equip(st, cards, setting, hand, WEAPON)
        if card >= 0:
            _equip(st, cards, setting, hand, discard, card)
        card = _best_equip(st, cards, setting, hand, ARMOR)
        if card >= 0:
            _equip(st, cards, setting, hand, discard, card)
        # 6. result (lines 63-65)
        if setting[S_HR_FIRST] == 0 and st[G_RETREATS] >= RETIRE_AT:
            _end(st, O_RETIRED)
            break
        empty = 1 if setting[S_TWO_PLAYER] != 0 else 0
        for slot in range(n):
            if alive[slot]:
                empty = 0
        st[G_HR] += st[G_DOWN] + empty
        if st[G_HR] >= TARGET_HR:
            _end(st, O_WIN)
            break
        if st[G_RETREATS] >= RETIRE_AT:
            _end(st, O_RETIRED)
            break
        st[G_DEF_BONUS] = 0
        for slot in range(n):
            acted[slot] = 0
        hr_turns[st[G_TURN] - 1] = st[G_HR]
        placed_turns[st[G_TURN] - 1] = st[G_PLACED]
        if st[G_TURN] >= max_turns:
            _end(st, O_LIMIT)
            break
        st[G_TURN] += 1
    # ``_end``: the last turn's values when it ended before its result phase recorded them
    hr_turns[st[G_TURN] - 1] = st[G_HR]
    placed_turns[st[G_TURN] - 1] = st[G_PLACED]


@kernel
def play_batch(
    pile: Ints,
    cards: Ints,
    lineup: Ints,
    setting: Ints,
    run_seed: int,
    start: int,
    count: int,
    rows: Ints,
    scalars: Ints,
    histograms: Ints,
    obs_totals: Ints,
    per_turn: Ints,
) -> None:
    """Games ``start`` .. ``start + count - 1``: each played by ``play_game``, its measures
    added to the totals as ``metrics.record_game`` adds them (and its row written to ``rows``
    when ``rows`` has a row per game; a 0-row ``rows`` keeps none)."""
    size = pile.shape[0]
    n = lineup.shape[0]
    max_turns = setting[S_MAX_TURNS]
    st = np.zeros(STATE, dtype=np.int64)
    deck = np.zeros(max(size, 1), dtype=np.int64)
    hand = np.zeros(HAND_SIZE, dtype=np.int64)
    discard = np.zeros(max(size, 1), dtype=np.int64)
    keys = np.zeros(max(size, 1), dtype=np.uint64)
    order = np.zeros(max(size, 1), dtype=np.intp)
    alive = np.zeros(max(n, 1), dtype=np.int64)
    face_up = np.zeros(max(n, 1), dtype=np.int64)
    acted = np.zeros(max(n, 1), dtype=np.int64)
    threat = np.zeros(max(setting[S_AREAS], 1), dtype=np.int64)
    obs = np.zeros((3, HAND_SIZE + 1), dtype=np.int64)
    hr_turns = np.zeros(max_turns, dtype=np.int64)
    placed_turns = np.zeros(max_turns, dtype=np.int64)
    keep = rows.shape[0] > 0
    for g in range(count):
        play_game(
            pile,
            cards,
            lineup,
            setting,
            run_seed,
            start + g,
            st,
            deck,
            hand,
            discard,
            keys,
            order,
            alive,
            face_up,
            acted,
            threat,
            obs,
            hr_turns,
            placed_turns,
        )
        outcome = st[G_OUTCOME]
        end = st[G_END_TURN]
        won_retiring = 1 if outcome == O_WIN and st[G_RETREATS] >= RETIRE_AT else 0
        if outcome == O_WIN:
            scalars[Z_REACHED] += 1
            histograms[H_REACHED, end] += 1
        elif outcome == O_RETIRED:
            scalars[Z_RETIRED] += 1
            histograms[H_RETIRED, end] += 1
        else:
            scalars[Z_LIMIT] += 1
        scalars[Z_WON_RETIRING] += won_retiring
        for j in range(4):
            value = st[(G_RETREATS, G_MILLED, G_SLAIN, G_HUNT_HR)[j]]
            scalars[Z_SUMS + j] += value
            scalars[Z_SQUARES + j] += value * value
        for h, slot in (
            (H_FIRST_RETREAT, G_FIRST_RETREAT),
            (H_FIRST_SLAY, G_FIRST_SLAY),
            (H_WEAPON, G_WEAPON_TURN),
            (H_ARMOR, G_ARMOR_TURN),
        ):
            if st[slot]:
                histograms[h, st[slot]] += 1
        obs_totals += obs
        # by turn: after the end each series keeps its last value (``record_game``)
        for t in range(max_turns):
            at = t if t < end else end - 1
            value = hr_turns[at]
            per_turn[T_HR, t] += value
            per_turn[T_HR_SQUARES, t] += value * value
            value = placed_turns[at]
            per_turn[T_PLACED, t] += value
            per_turn[T_PLACED_SQUARES, t] += value * value
        if keep:
            row = rows[g]
            row[R_OUTCOME] = outcome
            row[R_END_TURN] = end
            row[R_WON_RETIRING] = won_retiring
            row[R_RETREATS] = st[G_RETREATS]
            row[R_MILLED] = st[G_MILLED]
            row[R_SLAIN] = st[G_SLAIN]
            row[R_HUNT_HR] = st[G_HUNT_HR]
            row[R_FIRST_RETREAT] = st[G_FIRST_RETREAT]
            row[R_FIRST_SLAY] = st[G_FIRST_SLAY]
            row[R_WEAPON_TURN] = st[G_WEAPON_TURN]
            row[R_ARMOR_TURN] = st[G_ARMOR_TURN]
            row[R_HR] = st[G_HR]
            row[R_BANK] = st[G_BANK]
            row[R_WEAPON] = st[G_WEAPON]
            row[R_ARMOR] = st[G_ARMOR]
            row[R_DECK] = st[G_DECK]
            row[R_HAND] = st[G_HAND]
            row[R_DISCARD] = st[G_DISCARD]
            row[R_DOWN] = st[G_DOWN]
            row[R_DIST] = st[G_DIST]
            row[R_AREA] = st[G_AREA]
            row[R_CARDS] = _cards_hash(deck, hand, discard, st)
            for k in range(3):
                for v in range(HAND_SIZE + 1):
                    row[R_OBS + k * (HAND_SIZE + 1) + v] = obs[k, v]
            for t in range(max_turns):
                at = t if t < end else end - 1
                row[R_TURNS + t] = hr_turns[at]
                row[R_TURNS + max_turns + t] = placed_turns[at]


# --- Python around the kernel ----------------------------------------------------------------


@dataclass(frozen=True)
class Totals:
    """A batch's totals as the kernel leaves them."""

    games: int
    scalars: Ints
    histograms: Ints
    obs: Ints
    per_turn: Ints


def _run(
    t: KernelTables, run_seed: int, start: int, count: int, keep_rows: bool
) -> tuple[Totals, Ints]:
    if run_seed < 0 or start < 0:
        raise ValueError("run seeds and game indexes are not negative")
    if start + count > RESHUFFLE_STRIDE:
        raise ValueError("game indexes reach the reshuffles' deals")
    max_turns = int(t.setting[S_MAX_TURNS])
    rows = np.zeros((count if keep_rows else 0, row_width(max_turns)), dtype=np.int64)
    scalars = np.zeros(SCALARS, dtype=np.int64)
    histograms = np.zeros((HISTOGRAMS, max_turns + 1), dtype=np.int64)
    obs = np.zeros((3, HAND_SIZE + 1), dtype=np.int64)
    per_turn = np.zeros((PER_TURN, max_turns), dtype=np.int64)
    play_batch(
        t.pile,
        t.cards,
        t.lineup,
        t.setting,
        int(run_seed),
        int(start),
        int(count),
        rows,
        scalars,
        histograms,
        obs,
        per_turn,
    )
    return Totals(count, scalars, histograms, obs, per_turn), rows


def batch_totals(t: KernelTables, run_seed: int, start: int, count: int) -> Totals:
    """The totals of games ``start`` .. ``start + count - 1`` (compiled)."""
    return _run(t, run_seed, start, count, keep_rows=False)[0]


def per_game(t: KernelTables, run_seed: int, start: int, count: int) -> Ints:
    """One row per game (the ``R_*`` layout), for the game-by-game tests."""
    return _run(t, run_seed, start, count, keep_rows=True)[1]


def state_row(state: MonsterHunterState) -> list[int]:
    """A finished game of the state API as the kernel's row (the tests' reference side)."""
    from games.monster_hunter.constants import LIMIT, RETIRED, WIN

    max_turns = state.prepared.max_turns
    row = [0] * row_width(max_turns)
    row[R_OUTCOME] = {WIN: O_WIN, RETIRED: O_RETIRED, LIMIT: O_LIMIT}[state.outcome]
    row[R_END_TURN] = state.end_turn
    row[R_WON_RETIRING] = int(state.won_retiring)
    row[R_RETREATS] = state.retreats
    row[R_MILLED] = state.milled
    row[R_SLAIN] = state.slain
    row[R_HUNT_HR] = state.hunt_hr
    row[R_FIRST_RETREAT] = state.first_retreat
    row[R_FIRST_SLAY] = state.first_slay
    row[R_WEAPON_TURN] = state.weapon_turn
    row[R_ARMOR_TURN] = state.armor_turn
    row[R_HR] = state.hr
    row[R_BANK] = state.bank
    row[R_WEAPON] = state.weapon
    row[R_ARMOR] = state.armor
    row[R_DECK] = len(state.deck)
    row[R_HAND] = len(state.hand)
    row[R_DISCARD] = len(state.discard)
    row[R_DOWN] = len(state.down)
    row[R_DIST] = state.dist
    row[R_AREA] = state.area
    row[R_CARDS] = cards_hash(state.deck, state.hand, state.discard)
    for k, values in enumerate((state.obs_weapons, state.obs_usable, state.obs_dead)):
        for value in values:
            row[R_OBS + k * OBS + value] += 1
    for series, at in ((state.hr_hist, R_TURNS), (state.placed_hist, R_TURNS + max_turns)):
        for turn in range(max_turns):
            row[at + turn] = series[min(turn, len(series) - 1)]
    return row


def metrics_of(totals: Totals, hr_keys: Sequence[str], placed_keys: Sequence[str]) -> Metrics:
    """The batch's ``Metrics``, exactly as ``metrics.record_game`` adds them up game by game
    (the same names, zeros included where ``record_game`` adds zeros)."""
    m = Metrics(games=totals.games)
    if not totals.games:
        return m
    counts, sums, squares = m.counts, m.sums, m.squares
    scalars = totals.scalars.tolist()
    counts[M_REACHED] = scalars[Z_REACHED]
    counts[M_RETIRED] = scalars[Z_RETIRED]
    counts[M_LIMIT] = scalars[Z_LIMIT]
    counts[M_WON_RETIRING] = scalars[Z_WON_RETIRING]
    for j, name in enumerate((M_RETREATS, M_MILLED, M_SLAIN, M_HUNT_HR)):
        sums[name] = scalars[Z_SUMS + j]
        squares[name] = scalars[Z_SQUARES + j]
    histograms = totals.histograms.tolist()
    for h, name in (
        (H_REACHED, M_REACHED_TURN),
        (H_RETIRED, M_RETIRED_TURN),
        (H_FIRST_RETREAT, M_FIRST_RETREAT),
        (H_FIRST_SLAY, M_FIRST_SLAY),
        (H_WEAPON, M_WEAPON_TURN),
        (H_ARMOR, M_ARMOR_TURN),
    ):
        seen = Counter({turn: n for turn, n in enumerate(histograms[h]) if n})
        if seen:
            m.histograms[name] = seen
    for k, name in enumerate((M_WEAPONS, M_USABLE, M_DEAD_ITEMS)):
        m.histograms[name] = Counter({v: n for v, n in enumerate(totals.obs[k].tolist()) if n})
    per_turn = totals.per_turn.tolist()
    for t, key in enumerate(hr_keys):
        sums[key] = per_turn[T_HR][t]
        squares[key] = per_turn[T_HR_SQUARES][t]
    for t, key in enumerate(placed_keys):
        sums[key] = per_turn[T_PLACED][t]
        squares[key] = per_turn[T_PLACED_SQUARES][t]
    return m


def warm(t: KernelTables) -> None:
    """Compile the kernel (or load it from numba's cache) on ``t`` for one game."""
    warm_deal()
    batch_totals(t, 1, 0, 1)
