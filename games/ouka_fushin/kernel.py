"""The 央華封神 engine's compiled batch kernel: ``OukaEngine.play_games`` for a whole batch in
one numba call, playing exactly the games of the state API (``games/ouka_fushin/state.py``, the
reference) and of the fast ``play``.

The same games. A game's chance is its ``game_rng(run_seed, index)``: a ``random.Random``
(Mersenne Twister) seeded with ``game_seed``, whose ``random()`` drives the dice-off, the
shuffle and every d6 (``dice.py``). The kernel seeds the same generator per game (the seed
hash stays in Python: ``hashlib.blake2b``, about 1 µs a game) and draws the same ``random()``
doubles (MT19937's ``init_by_array`` and 53-bit ``genrand_res53``, as CPython's
``_randommodule.c``), so every roll and every deal is the reference's, bit for bit. The engine
does not deal from ``simulator.engine.deal``'s counter-based keys: its games were always
shuffled by their generator, and keeping that generator keeps the state API, its transcripts
and its tests as they are (see docs/engines/ouka_fushin.md).

What the kernel plays: the rules and the policy of ``state.py`` step by step (the digest lines
are cited where ``state.py`` cites them), over integer tables built once per ``prepare``
(``tables``, kept on the prepared object so a worker reuses them across batches). A hand and
a discard pile are card counts: every choice of the policy is a minimum or maximum with the
card index as the tie-break, so the order of the cards in a hand never matters.

Everything compiled lives in this one file on purpose: numba's disk cache is invalidated by
changes to the file of the function it caches, not to the files of the functions it calls.

``play_rows`` returns one row of measures per game (the per-game core the conformance tests
compare); ``metrics_of_rows`` adds them up into the same ``Metrics`` as ``record_game``.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from games.ouka_fushin.constants import (
    DECK_OUT_PENALTY,
    DRAW_PER_TURN,
    HAND_LIMIT,
    HIDDEN_ALWAYS,
    HIDDEN_NET,
    HIDDEN_SUCCESS_GIFT,
    IMMORTAL_SLOTS,
    K_CHARACTER,
    K_CLIMAX,
    K_STORY,
    MAX_DESTINY,
    MIRROR_DICE,
    MIRROR_LOSE,
    NO_CHECK,
    OPENING_HAND,
    ROUNDS,
    STORY_SLOTS,
    SUBSTITUTE_BONUS,
)
from games.ouka_fushin.metrics import (
    CLIMAX_TURN_KEYS,
    M_ATTEMPTED,
    M_CANNOT_SUBSTITUTE,
    M_CHECKS,
    M_CHECKS_PASSED,
    M_CLIMAXES,
    M_COMPLETE,
    M_DECK_OUT,
    M_DECK_OUT_PENALTY,
    M_DECK_OUT_TURN,
    M_DESTINY,
    M_END_DRAWS,
    M_HIDDEN,
    M_HIDDEN_USED,
    M_MARGIN,
    M_MISSION_POINTS,
    M_OPPONENT,
    M_RESET_DRAWS,
    M_ROUNDS,
    M_SEEN,
    M_SUBSTITUTE_POINTS,
    M_SUBSTITUTED,
    M_SUCCEEDED,
    M_TOTAL,
    M_TURN_LIMIT,
    M_TURNS,
    M_USED,
    SUM_KEYS,
)
from simulator.engine import compiled
from simulator.engine.metrics import Metrics
from simulator.engine.rng import MAX_SEED

if TYPE_CHECKING:
    from games.ouka_fushin.prepared import OukaPrepared

I64 = npt.NDArray[np.int64]

# --- a game's row of measures: the 18 sums of ``SUM_KEYS`` first, in their order -------------
C_SUMS = len(SUM_KEYS)
C_TOTAL = SUM_KEYS.index(M_TOTAL)
C_MISSION_POINTS = SUM_KEYS.index(M_MISSION_POINTS)
C_SUBSTITUTE = SUM_KEYS.index(M_SUBSTITUTE_POINTS)
C_OPPONENT = SUM_KEYS.index(M_OPPONENT)
C_MARGIN = SUM_KEYS.index(M_MARGIN)
C_CLIMAXES = SUM_KEYS.index(M_CLIMAXES)
C_ATTEMPTED = SUM_KEYS.index(M_ATTEMPTED)
C_SUCCEEDED = SUM_KEYS.index(M_SUCCEEDED)
C_CHECKS = SUM_KEYS.index(M_CHECKS)
C_PASSED = SUM_KEYS.index(M_CHECKS_PASSED)
C_HIDDEN_USES = SUM_KEYS.index(M_HIDDEN)
C_PENALTY = SUM_KEYS.index(M_DECK_OUT_PENALTY)
C_SEEN = SUM_KEYS.index(M_SEEN)
C_END_DRAWS = SUM_KEYS.index(M_END_DRAWS)
C_RESET_DRAWS = SUM_KEYS.index(M_RESET_DRAWS)
# the rounds' points are SUM_KEYS[0:3]
C_CLIMAX_TURN = C_SUMS  # 3 columns, one per round (0: no climax)
C_ROUNDS = C_CLIMAX_TURN + ROUNDS
C_DECK_OUT_TURN = C_ROUNDS + 1
C_SUBSTITUTION = C_DECK_OUT_TURN + 1  # SUB_NONE / SUB_DONE / SUB_CANNOT
C_TURN_LIMIT = C_SUBSTITUTION + 1
C_TURNS = C_TURN_LIMIT + 1
C_LEVEL = C_TURNS + 1
C_MISSIONS = C_LEVEL + 1  # bit m: mission m completed
C_USED = C_MISSIONS + 1  # USED_SIZE columns: turns that used k cards
USED_SIZE = HAND_LIMIT + DRAW_PER_TURN + 1
N_COLS = C_USED + USED_SIZE

# --- the card table's rows (``Tables.cards[row, card]``) ---------------------------------------
R_KIND, R_KW, R_PRE, R_COND, R_POINTS, R_BONUS, R_CTYPE, R_CHARACTER, R_DESTINY = range(9)
N_CARD_ROWS = 9
# --- the parameters (``Tables.params``) --------------------------------------------------------
(
    Q_HIDDEN,
    Q_CLIMAX_MIN,
    Q_AT_ONCE,
    Q_STACK,
    Q_RECLAIM,
    Q_MIRROR,
    Q_PREREQ_ALL,
    Q_MISSION_ALL,
    Q_COMPLETED_SCORE,
    Q_MAX_TURNS,
    Q_HEROES,
) = range(11)
N_PARAMS = 11
HIDE_NEVER, HIDE_ALWAYS, HIDE_NET = 0, 1, 2
MIRROR_OFF, MIRROR_ROLL, MIRROR_LOST = 0, 1, 2
#: masks live in int64: at most 62 distinct keywords or climax types (else the Python path)
MAX_BITS = 62
VALUE_SCALE = 100_000  # keep_key: value * 100_000 - card (policy.keep_key)


@dataclass(frozen=True, slots=True)
class Tables:
    """A prepared deck as the kernel's integer arrays (built once per ``prepare``)."""

    cards: I64  # [N_CARD_ROWS, cards]
    static: I64  # [protagonist, card]: policy's keep value of stories and climaxes
    need: I64  # [protagonist, destiny, card]: the die face a check needs
    faces: I64  # [protagonist, destiny, card]: winning faces as the policy counts them
    hidden: I64  # [protagonist, destiny, card]: winning faces with a hidden success
    piles: I64  # [protagonist, position]: the unshuffled pile (main / rebuilt)
    pile_size: I64  # [protagonist]
    prot_char: I64  # [protagonist]: its character index
    missions: I64  # [2, missions]: climax-type mask, bonus
    params: I64  # [N_PARAMS]


def _bits_fit(p: OukaPrepared) -> bool:
    codes = [c.code for c in p.deck.cards]
    return (
        len(p.keywords) <= MAX_BITS
        and len(p.climax_types) <= MAX_BITS
        # one uid per card index: "the same card" is the same index here
        and len(set(codes)) == len(codes)
    )


def tables(p: OukaPrepared) -> Tables | None:
    """The kernel's arrays for ``p`` (cached on it), or None for a deck beyond the kernel's
    int64 masks (more than 62 keywords or climax types, or two cards sharing a code): such a
    deck plays the Python path."""
    cache = p.kernel_cache
    if "tables" in cache:
        found: Tables | None = cache["tables"]
        return found
    built = _build(p) if _bits_fit(p) else None
    cache["tables"] = built
    return built


def _build(p: OukaPrepared) -> Tables:
    n = len(p.kind)
    cards = np.array(
        [p.kind, p.kw, p.pre, p.cond, p.points, p.bonus, p.ctype, p.character, p.destiny],
        dtype=np.int64,
    ).reshape(N_CARD_ROWS, n)
    heroes = len(p.protagonists)
    # two rows always (the second unused without a substitute), so the kernel's shapes hold
    rows = [0, 1 if heroes > 1 else 0]
    static = np.array([p.static_value[r] for r in rows], dtype=np.int64).reshape(2, n)
    need = np.array([p.need[r] for r in rows], dtype=np.int64).reshape(2, MAX_DESTINY + 1, n)
    faces = np.array([p.faces[r] for r in rows], dtype=np.int64).reshape(2, MAX_DESTINY + 1, n)
    hidden = np.array([p.hidden[r] for r in rows], dtype=np.int64).reshape(2, MAX_DESTINY + 1, n)
    piles_list = [p.piles[r] if r < len(p.piles) else p.piles[0] for r in rows]
    width = max(1, *(len(x) for x in piles_list))
    piles = np.zeros((2, width), dtype=np.int64)
    for r, pile in enumerate(piles_list):
        piles[r, : len(pile)] = pile
    pile_size = np.array([len(x) for x in piles_list], dtype=np.int64)
    prot_char = np.array([p.protagonists[r].character for r in rows], dtype=np.int64)
    missions = np.array(
        [[m[1] for m in p.missions], [m[2] for m in p.missions]], dtype=np.int64
    ).reshape(2, len(p.missions))
    hide = {HIDDEN_ALWAYS: HIDE_ALWAYS, HIDDEN_NET: HIDE_NET}.get(p.hidden_policy, HIDE_NEVER)
    mirror = {MIRROR_DICE: MIRROR_ROLL, MIRROR_LOSE: MIRROR_LOST}.get(p.mirror, MIRROR_OFF)
    params = np.array(
        [
            hide,
            p.climax_min,
            p.at_once,
            p.stack,
            p.reclaim,
            mirror,
            p.prereq_all,
            p.mission_all,
            p.completed_score,
            p.max_turns,
            heroes,
        ],
        dtype=np.int64,
    )
    return Tables(cards, static, need, faces, hidden, piles, pile_size, prot_char, missions, params)


# --- CPython's Mersenne Twister (Modules/_randommodule.c), state in an int64[625] -------------
_N, _M = 624, 397
_M32 = 0xFFFFFFFF
_UPPER, _LOWER, _MATRIX = 0x80000000, 0x7FFFFFFF, 0x9908B0DF


@compiled.kernel
def _mt_seed(mt: I64, seed: int) -> None:
    """``random.Random(seed)`` for 0 <= seed < 2**63: init_by_array on seed's 32-bit words."""
    mt[0] = 19650218  # init_genrand(19650218)
    for i in range(1, _N):
        prev = mt[i - 1]
        mt[i] = (1812433253 * (prev ^ (prev >> 30)) + i) & _M32
    low = seed & _M32
    high = seed >> 32
    length = 2 if high else 1
    i = 1
    j = 0
    for _ in range(_N):  # max(N, key length) steps
        prev = mt[i - 1]
        word = low if j == 0 else high
        mt[i] = ((mt[i] ^ ((prev ^ (prev >> 30)) * 1664525)) + word + j) & _M32
        i += 1
        j += 1
        if i >= _N:
            mt[0] = mt[_N - 1]
            i = 1
        if j >= length:
            j = 0
    for _ in range(_N - 1):
        prev = mt[i - 1]
        mt[i] = ((mt[i] ^ ((prev ^ (prev >> 30)) * 1566083941)) - i) & _M32
        i += 1
        if i >= _N:
            mt[0] = mt[_N - 1]
            i = 1
    mt[0] = _UPPER
    mt[_N] = _N  # the next draw twists


@compiled.kernel
def _mt_next(mt: I64) -> int:
    if mt[_N] >= _N:
        for k in range(_N - _M):
            y = (mt[k] & _UPPER) | (mt[k + 1] & _LOWER)
            mt[k] = mt[k + _M] ^ (y >> 1) ^ (_MATRIX if y & 1 else 0)
        for k in range(_N - _M, _N - 1):
            y = (mt[k] & _UPPER) | (mt[k + 1] & _LOWER)
            mt[k] = mt[k + (_M - _N)] ^ (y >> 1) ^ (_MATRIX if y & 1 else 0)
        y = (mt[_N - 1] & _UPPER) | (mt[0] & _LOWER)
        mt[_N - 1] = mt[_M - 1] ^ (y >> 1) ^ (_MATRIX if y & 1 else 0)
        mt[_N] = 0
    y = mt[mt[_N]]
    mt[_N] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y


@compiled.kernel
def _random(mt: I64) -> float:
    """``random.random()``: 53 bits from two draws."""
    a = _mt_next(mt) >> 5
    b = _mt_next(mt) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


@compiled.kernel
def _roll(mt: I64) -> int:
    return int(_random(mt) * 6) + 1  # dice.roll


# --- the policy's pieces (policy.py) -----------------------------------------------------------


@compiled.kernel
def _card_value(
    card: int,
    cards: I64,
    static_row: I64,
    onfield: I64,
    prot_char: int,
    level: int,
    blocked: int,
    imm: I64,
    n_imm: int,
) -> int:
    """policy.card_value."""
    if cards[R_KIND, card] != K_CHARACTER:
        return 0 if onfield[card] else static_row[card]
    character = cards[R_CHARACTER, card]
    d = cards[R_DESTINY, card]
    if character == prot_char:
        if d == level + 1:
            return 300
        return 200 if d > level + 1 else 0
    if character == blocked:
        return 0
    immortal = imm[character]
    if immortal:
        if d == immortal + 1:
            return 60
        return 40 if d > immortal + 1 else 0
    if d == 1:
        return 50 if n_imm < IMMORTAL_SLOTS else 0
    return 20


@compiled.kernel
def _cover_options(
    cond: int, gmask: I64, gpts: I64, ng: int, taken: int, out: I64, held: I64, pts: I64
) -> int:
    """policy.cover_options into ``out``: the minimal covers of ``cond`` by open groups not in
    ``taken``, fewest points, then fewest groups, then the lower mask first."""
    size = 1 << ng
    count = 0
    held[0] = 0
    pts[0] = 0
    for subset in range(1, size):
        low = subset & -subset
        g = 0
        while (low >> g) != 1:
            g += 1
        rest = subset ^ low
        held[subset] = held[rest] | gmask[g]
        pts[subset] = pts[rest] + gpts[g]
        if subset & taken or cond & ~held[subset]:
            continue
        bits = subset
        minimal = True
        while bits:
            one = bits & -bits
            bits ^= one
            if not cond & ~held[subset ^ one]:
                minimal = False
                break
        if not minimal:
            continue
        # insertion by (points, groups, mask)
        k = count
        n_bits = 0
        b = subset
        while b:
            b &= b - 1
            n_bits += 1
        while k > 0:
            o = out[k - 1]
            ob = 0
            b = o
            while b:
                b &= b - 1
                ob += 1
            if (pts[o], ob, o) > (pts[subset], n_bits, subset):
                out[k] = o
                k -= 1
            else:
                break
        out[k] = subset
        count += 1
    return count


@compiled.kernel
def _assign(
    combo: I64,
    m: int,
    cards: I64,
    gmask: I64,
    gpts: I64,
    ng: int,
    free: int,
    masks: I64,
    opts: I64,
    nopt: I64,
    ptr: I64,
    taken_at: I64,
    slots_at: I64,
    held: I64,
    pts: I64,
) -> bool:
    """policy.assign_climaxes: a group mask per climax of ``combo[:m]`` into ``masks`` (0: a
    climax without conditions on a free slot), the same backtracking order; False when none."""
    taken_at[0] = 0
    slots_at[0] = free
    i = 0
    ptr[0] = 0
    cond = cards[R_COND, combo[0]]
    if cond:
        nopt[0] = _cover_options(cond, gmask, gpts, ng, 0, opts[0], held, pts)
    else:
        nopt[0] = 1 if free > 0 else 0
        opts[0, 0] = 0
    while True:
        if i == m:
            return True
        if ptr[i] < nopt[i]:
            choice = opts[i, ptr[i]]
            ptr[i] += 1
            masks[i] = choice
            cond = cards[R_COND, combo[i]]
            taken = taken_at[i] | choice
            slots = slots_at[i] - (0 if cond else 1)
            i += 1
            if i < m:
                taken_at[i] = taken
                slots_at[i] = slots
                ptr[i] = 0
                cond = cards[R_COND, combo[i]]
                if cond:
                    nopt[i] = _cover_options(cond, gmask, gpts, ng, taken, opts[i], held, pts)
                else:
                    nopt[i] = 1 if slots > 0 else 0
                    opts[i, 0] = 0
        else:
            if i == 0:
                return False
            i -= 1


# --- the batch ---------------------------------------------------------------------------------


@compiled.kernel
def _play_batch(
    cards: I64,
    static: I64,
    need: I64,
    faces: I64,
    hidden: I64,
    piles: I64,
    pile_size: I64,
    prot_chars: I64,
    missions: I64,
    params: I64,
    seeds: I64,
    rows: I64,
) -> None:
    n_cards = cards.shape[1]
    hide = params[Q_HIDDEN]
    climax_min = params[Q_CLIMAX_MIN]
    at_once = params[Q_AT_ONCE]
    stack = params[Q_STACK] != 0
    reclaim = params[Q_RECLAIM] != 0
    mirror = params[Q_MIRROR]
    prereq_all = params[Q_PREREQ_ALL] != 0
    mission_all = params[Q_MISSION_ALL] != 0
    completed_score = params[Q_COMPLETED_SCORE] != 0
    max_turns = params[Q_MAX_TURNS]
    heroes = params[Q_HEROES]
    n_missions = missions.shape[1]

    mt = np.empty(_N + 1, dtype=np.int64)
    deck = np.empty(piles.shape[1], dtype=np.int64)
    hand = np.zeros(n_cards, dtype=np.int64)
    discard = np.zeros(n_cards, dtype=np.int64)
    onfield = np.zeros(n_cards, dtype=np.int64)
    imm = np.zeros(n_cards + 1, dtype=np.int64)  # destiny of each character's immortal
    gmask = np.zeros(STORY_SLOTS + 1, dtype=np.int64)
    gpts = np.zeros(STORY_SLOTS + 1, dtype=np.int64)
    playable = np.zeros(n_cards, dtype=np.int64)
    combo = np.zeros(8, dtype=np.int64)
    trial = np.zeros(8, dtype=np.int64)
    masks = np.zeros(8, dtype=np.int64)
    opts = np.zeros((8, 1 << (STORY_SLOTS + 1)), dtype=np.int64)
    nopt = np.zeros(8, dtype=np.int64)
    ptr = np.zeros(8, dtype=np.int64)
    taken_at = np.zeros(9, dtype=np.int64)
    slots_at = np.zeros(9, dtype=np.int64)
    held = np.zeros(1 << (STORY_SLOTS + 1), dtype=np.int64)
    pts = np.zeros(1 << (STORY_SLOTS + 1), dtype=np.int64)
    climax_conds = np.zeros(n_cards, dtype=np.int64)
    row = np.zeros(rows.shape[1], dtype=np.int64)

    for game in range(seeds.shape[0]):
        row[:] = 0
        _mt_seed(mt, seeds[game])
        # -- the set-up (state.deal; ouka-fushin.md:43-45) --
        lose = mirror == MIRROR_LOST
        if mirror == MIRROR_ROLL:
            while True:  # a tie is rolled again (assumption)
                ours = _roll(mt)
                theirs = _roll(mt)
                if ours != theirs:
                    break
            lose = ours < theirs
        if lose and heroes < 2:  # ouka-fushin.md:40, 52: no substitute, the game is lost
            row[C_SUBSTITUTION] = 2
            rows[game, :] = row
            continue
        prot = 1 if lose else 0
        row[C_SUBSTITUTION] = 1 if lose else 0
        size = pile_size[prot]
        for k in range(size):
            deck[k] = piles[prot, k]
        for k in range(size - 1, 0, -1):  # dice.shuffle
            j = int(_random(mt) * (k + 1))
            t = deck[k]
            deck[k] = deck[j]
            deck[j] = t
        prot_char = prot_chars[prot]
        blocked = prot_chars[0] if prot == 1 else -1
        static_row = static[prot]
        hand[:] = 0
        discard[:] = 0
        onfield[:] = 0
        imm[:] = 0
        n_imm = 0
        pos = min(OPENING_HAND, size)
        for k in range(pos):
            hand[deck[k]] += 1
        hand_n = pos
        ng = 0
        kw_open = 0
        completed = 0
        completed_points = 0
        types = 0
        level = 1
        rnd = 1
        turn = 0
        while True:
            # -- the start phase (state._start) --
            if turn >= max_turns:
                row[C_TURN_LIMIT] = 1
                break
            turn += 1
            used_now = 0
            if pos >= size:  # ouka-fushin.md:56, 72: deck-out, d6 x 10
                face = _roll(mt)
                row[C_DECK_OUT_TURN] = turn
                row[C_PENALTY] = DECK_OUT_PENALTY * face
                row[rnd - 1] = -DECK_OUT_PENALTY * face
                row[C_ROUNDS] = rnd
                break
            drawn = min(DRAW_PER_TURN, size - pos)
            for k in range(pos, pos + drawn):
                hand[deck[k]] += 1
            pos += drawn
            hand_n += drawn
            # -- the immortal phase (state._character_options, ouka-fushin.md:57-59) --
            best_kind = 3
            best_card = -1
            for c in range(n_cards):
                if hand[c] == 0 or cards[R_KIND, c] != K_CHARACTER:
                    continue
                character = cards[R_CHARACTER, c]
                d = cards[R_DESTINY, c]
                kind = 3
                if character == prot_char:
                    if d == level + 1:
                        kind = 0
                elif imm[character]:
                    if d == imm[character] + 1:
                        kind = 1
                elif d == 1 and character != blocked and n_imm < IMMORTAL_SLOTS:
                    kind = 2
                if kind < best_kind:
                    best_kind = kind
                    best_card = c
            if best_card >= 0:
                hand[best_card] -= 1
                hand_n -= 1
                used_now += 1
                if best_kind == 0:
                    level = cards[R_DESTINY, best_card]
                    discard[best_card] += 1
                elif best_kind == 1:
                    imm[cards[R_CHARACTER, best_card]] = cards[R_DESTINY, best_card]
                else:
                    imm[cards[R_CHARACTER, best_card]] = 1
                    n_imm += 1
            # -- the story phase (state._story_options, ouka-fushin.md:60-65) --
            free = STORY_SLOTS - completed - ng
            have = kw_open
            n_conds = 0
            for x in range(n_cards):
                if (
                    hand[x]
                    and cards[R_KIND, x] == K_CLIMAX
                    and not onfield[x]
                    and cards[R_COND, x] & ~have
                ):
                    climax_conds[n_conds] = cards[R_COND, x]
                    n_conds += 1
            pick = -1
            pick_group = -1
            b_completes = 0
            b_value = 0
            b_faces = 0
            for c in range(n_cards):
                if hand[c] == 0 or cards[R_KIND, c] != K_STORY or onfield[c]:
                    continue
                pre = cards[R_PRE, c]
                place = -1
                if pre:
                    if prereq_all:
                        if pre & ~have:
                            continue
                    elif not pre & have:
                        continue
                    latest = -1
                    for g in range(ng):
                        if gmask[g] & pre:
                            latest = g
                    if free > 0:
                        place = latest if (stack and latest >= 0) else -1
                    elif latest >= 0:
                        place = latest
                    else:
                        continue
                elif free <= 0:
                    continue
                f = faces[prot, level, c]
                completes = 0
                if n_conds:
                    after = have | cards[R_KW, c]
                    for q in range(n_conds):
                        if not climax_conds[q] & ~after:
                            completes = 1
                            if hide == HIDE_NET:
                                f = hidden[prot, level, c]
                            break
                if not f:
                    continue
                value = f * cards[R_POINTS, c]
                # the highest (completes, faces x points, faces, -card): ties keep the lower card
                if pick < 0 or (completes, value, f) > (b_completes, b_value, b_faces):
                    pick = c
                    pick_group = place
                    b_completes = completes
                    b_value = value
                    b_faces = f
            if pick >= 0:
                c = pick
                hand[c] -= 1
                hand_n -= 1
                used_now += 1
                row[C_ATTEMPTED] += 1
                nd = need[prot, level, c]
                placed = False
                if nd == NO_CHECK:  # seed:131
                    placed = True
                else:
                    face = _roll(mt)  # ouka-fushin.md:62
                    row[C_CHECKS] += 1
                    if face >= nd:
                        row[C_PASSED] += 1
                        placed = True
                    elif face <= 3 and 7 - face >= nd:  # seed:200-204
                        use = hide == HIDE_ALWAYS
                        if hide == HIDE_NET:
                            use = cards[R_POINTS, c] > HIDDEN_SUCCESS_GIFT
                            if not use:  # state._completes
                                after = kw_open | cards[R_KW, c]
                                for x in range(n_cards):
                                    if hand[x] and cards[R_KIND, x] == K_CLIMAX and not onfield[x]:
                                        cond = cards[R_COND, x]
                                        if cond & ~kw_open and not cond & ~after:
                                            use = True
                                            break
                        if use:
                            row[C_HIDDEN_USES] += 1
                            row[C_OPPONENT] += HIDDEN_SUCCESS_GIFT  # seed:199
                            placed = True
                if placed:  # state._place, seed:272-274
                    row[C_SUCCEEDED] += 1
                    if pick_group < 0:
                        gmask[ng] = cards[R_KW, c]
                        gpts[ng] = cards[R_POINTS, c]
                        ng += 1
                    else:
                        gmask[pick_group] |= cards[R_KW, c]
                        gpts[pick_group] += cards[R_POINTS, c]
                    kw_open |= cards[R_KW, c]
                    onfield[c] = 1
                else:
                    discard[c] += 1  # seed:140
            # -- the climax (state._playable / _climax_plan / _climax, ouka-fushin.md:70-71) --
            free = STORY_SLOTS - completed - ng
            n_play = 0
            for c in range(n_cards):
                if (
                    hand[c]
                    and cards[R_KIND, c] == K_CLIMAX
                    and not cards[R_COND, c] & ~kw_open
                    and not onfield[c]
                    and (free > 0 or cards[R_COND, c])
                ):
                    # the highest bonus first, then the lower card
                    k = n_play
                    while k > 0 and cards[R_BONUS, playable[k - 1]] < cards[R_BONUS, c]:
                        playable[k] = playable[k - 1]
                        k -= 1
                    playable[k] = c
                    n_play += 1
            m = 0
            if n_play:
                combo[0] = playable[0]
                m = 1
                for q in range(1, n_play):
                    if m >= at_once:
                        break
                    for k in range(m):
                        trial[k] = combo[k]
                    trial[m] = playable[q]
                    if _assign(
                        trial,
                        m + 1,
                        cards,
                        gmask,
                        gpts,
                        ng,
                        free,
                        masks,
                        opts,
                        nopt,
                        ptr,
                        taken_at,
                        slots_at,
                        held,
                        pts,
                    ):
                        combo[m] = playable[q]
                        m += 1
                stories = 0
                for g in range(ng):
                    stories += gpts[g]
                if completed_score:
                    stories += completed_points
                bonus = 0
                for k in range(m):
                    bonus += cards[R_BONUS, combo[k]]
                if not (
                    climax_min <= 0 or stories + bonus >= climax_min or pos >= size or free <= 0
                ):
                    m = 0  # hold: the round is not worth enough yet
                if m:
                    # played as the sorted set the legal actions name (state._climax)
                    for k in range(1, m):
                        v = combo[k]
                        j = k
                        while j > 0 and combo[j - 1] > v:
                            combo[j] = combo[j - 1]
                            j -= 1
                        combo[j] = v
                    _assign(
                        combo,
                        m,
                        cards,
                        gmask,
                        gpts,
                        ng,
                        free,
                        masks,
                        opts,
                        nopt,
                        ptr,
                        taken_at,
                        slots_at,
                        held,
                        pts,
                    )
                    row[rnd - 1] = stories + bonus  # ouka-fushin.md:71, seed:162
                    row[C_CLIMAX_TURN + rnd - 1] = turn
                    row[C_ROUNDS] = rnd
                    row[C_CLIMAXES] += m
                    taken = 0
                    for k in range(m):
                        c = combo[k]
                        hand[c] -= 1
                        hand_n -= 1
                        onfield[c] = 1
                        types |= cards[R_CTYPE, c]
                        taken |= masks[k]
                    # seed:166, 285-287: the condition stories go under the climax
                    completed += m
                    kept = 0
                    kw_open = 0
                    for g in range(ng):
                        if taken >> g & 1:
                            completed_points += gpts[g]
                        else:
                            gmask[kept] = gmask[g]
                            gpts[kept] = gpts[g]
                            kw_open |= gmask[g]
                            kept += 1
                    ng = kept
                    if rnd >= ROUNDS:  # ouka-fushin.md:50-51
                        break
                    # -- the round reset (state._reclaim_choice, seed:167-173) --
                    while reclaim:
                        best = -1
                        high = 0
                        for c in range(n_cards):
                            if discard[c]:
                                key = (
                                    _card_value(
                                        c,
                                        cards,
                                        static_row,
                                        onfield,
                                        prot_char,
                                        level,
                                        blocked,
                                        imm,
                                        n_imm,
                                    )
                                    * VALUE_SCALE
                                    - c
                                )
                                if best < 0 or key > high:
                                    best = c
                                    high = key
                        if best < 0 or high <= 0:
                            break
                        if hand_n >= HAND_LIMIT:
                            # the hand's sixth highest key
                            above = 0
                            for c in range(n_cards):
                                if hand[c]:
                                    key = (
                                        _card_value(
                                            c,
                                            cards,
                                            static_row,
                                            onfield,
                                            prot_char,
                                            level,
                                            blocked,
                                            imm,
                                            n_imm,
                                        )
                                        * VALUE_SCALE
                                        - c
                                    )
                                    if key >= high:
                                        above += hand[c]
                            if above >= HAND_LIMIT:
                                break  # the sixth best is at least as good
                        discard[best] -= 1
                        hand[best] += 1
                        hand_n += 1
                    while hand_n > HAND_LIMIT:  # discard the least useful (policy.worst_card)
                        worst = _worst(
                            hand,
                            cards,
                            static_row,
                            onfield,
                            prot_char,
                            level,
                            blocked,
                            imm,
                            n_imm,
                        )
                        hand[worst] -= 1
                        hand_n -= 1
                        discard[worst] += 1
                    if hand_n < HAND_LIMIT:  # seed:171: draw up to 6
                        want = min(HAND_LIMIT - hand_n, size - pos)
                        for k in range(pos, pos + want):
                            hand[deck[k]] += 1
                        pos += want
                        hand_n += want
                        row[C_RESET_DRAWS] += want
                    rnd += 1
                    continue
            # -- the end phase (ouka-fushin.md:68, seed:157) --
            while hand_n > HAND_LIMIT:
                worst = _worst(
                    hand, cards, static_row, onfield, prot_char, level, blocked, imm, n_imm
                )
                hand[worst] -= 1
                hand_n -= 1
                discard[worst] += 1
            if hand_n < HAND_LIMIT:
                want = min(HAND_LIMIT - hand_n, size - pos)
                for k in range(pos, pos + want):
                    hand[deck[k]] += 1
                pos += want
                hand_n += want
                row[C_END_DRAWS] += want
            row[C_USED + used_now] += 1
        # -- the end of the game (state._finish, record_game) --
        mission_points = 0
        for q in range(n_missions):
            need_types = missions[0, q]
            if mission_all:
                done = need_types != 0 and not need_types & ~types
            else:
                done = (need_types & types) != 0
            if done:
                row[C_MISSIONS] |= 1 << q
                mission_points += missions[1, q]
        total = row[0] + row[1] + row[2] + mission_points
        if lose:
            total += SUBSTITUTE_BONUS
            row[C_SUBSTITUTE] = SUBSTITUTE_BONUS
        row[C_TOTAL] = total
        row[C_MISSION_POINTS] = mission_points
        row[C_MARGIN] = total - row[C_OPPONENT]
        row[C_SEEN] = pos
        row[C_TURNS] = turn
        row[C_LEVEL] = level
        rows[game, :] = row


@compiled.kernel
def _worst(
    hand: I64,
    cards: I64,
    static_row: I64,
    onfield: I64,
    prot_char: int,
    level: int,
    blocked: int,
    imm: I64,
    n_imm: int,
) -> int:
    """policy.worst_card: the lowest value * 100 000 - card."""
    worst = -1
    low = 0
    for c in range(hand.shape[0]):
        if hand[c]:
            key = (
                _card_value(c, cards, static_row, onfield, prot_char, level, blocked, imm, n_imm)
                * VALUE_SCALE
                - c
            )
            if worst < 0 or key < low:
                worst = c
                low = key
    return worst


# --- Python side -------------------------------------------------------------------------------


def seeds_of(run_seed: int, start: int, count: int) -> I64:
    """Each game's ``simulator.engine.rng.game_seed`` (< 2**63), the seed of the generator
    the reference plays it with: the same blake2b of "run_seed:index", its common prefix
    hashed once (a third less time a game; the kernel tests compare it to ``game_seed``)."""
    base = hashlib.blake2b(f"{run_seed}:".encode(), digest_size=8)
    out = np.empty(count, dtype=np.int64)
    for k in range(count):
        h = base.copy()
        h.update(str(start + k).encode())
        out[k] = int.from_bytes(h.digest(), "little") & MAX_SEED
    return out


def play_rows(t: Tables, run_seed: int, start: int, count: int) -> I64:
    """One row of measures per game (the ``C_*`` columns) for games start .. start+count-1."""
    rows = np.zeros((count, N_COLS), dtype=np.int64)
    if count:
        _play_batch(
            t.cards,
            t.static,
            t.need,
            t.faces,
            t.hidden,
            t.piles,
            t.pile_size,
            t.prot_char,
            t.missions,
            t.params,
            seeds_of(run_seed, start, count),
            rows,
        )
    return rows


def _histogram(values: I64) -> Counter[int]:
    keys, counts = np.unique(values, return_counts=True)
    return Counter({int(k): int(n) for k, n in zip(keys, counts, strict=True)})


def metrics_of_rows(p: OukaPrepared, rows: I64) -> Metrics:
    """The rows' measures as ``record_game`` adds them, game by game (the same names, the
    same zeros), with ``games`` counted."""
    metrics = Metrics(games=int(rows.shape[0]))
    sums = rows[:, :C_SUMS].sum(axis=0)
    squares = (rows[:, :C_SUMS] * rows[:, :C_SUMS]).sum(axis=0)
    for k, key in enumerate(SUM_KEYS):
        metrics.sums[key] += int(sums[k])
        metrics.squares[key] += int(squares[k])
    observed: dict[str, Counter[int]] = {}
    for r, key in enumerate(CLIMAX_TURN_KEYS):
        turns = rows[:, C_CLIMAX_TURN + r]
        if (turns > 0).any():
            observed[key] = _histogram(turns[turns > 0])
    if rows.shape[0]:
        observed[M_ROUNDS] = _histogram(rows[:, C_ROUNDS])
    counts = metrics.counts
    counts[M_COMPLETE] += int((rows[:, C_CLIMAX_TURN + ROUNDS - 1] > 0).sum())
    counts[M_HIDDEN_USED] += int((rows[:, C_HIDDEN_USES] > 0).sum())
    for q, key in enumerate(p.mission_keys):
        counts[key] += int((rows[:, C_MISSIONS] >> q & 1).sum())
    deck_out = rows[:, C_DECK_OUT_TURN]
    counts[M_DECK_OUT] += int((deck_out > 0).sum())
    if (deck_out > 0).any():
        observed[M_DECK_OUT_TURN] = _histogram(deck_out[deck_out > 0])
    substitution = rows[:, C_SUBSTITUTION]
    counts[M_SUBSTITUTED] += int((substitution == 1).sum())
    counts[M_CANNOT_SUBSTITUTE] += int((substitution == 2).sum())
    counts[M_TURN_LIMIT] += int(rows[:, C_TURN_LIMIT].sum())
    if rows.shape[0]:
        observed[M_TURNS] = _histogram(rows[:, C_TURNS])
    used = rows[:, C_USED : C_USED + USED_SIZE].sum(axis=0)
    if used.any():
        observed[M_USED] = Counter({k: int(n) for k, n in enumerate(used) if n})
    played = rows[substitution != 2, C_LEVEL]
    if played.size:
        observed[M_DESTINY] = _histogram(played)
    for name in sorted(observed):
        metrics.histograms[name] = observed[name]
    return metrics


def play_games(p: OukaPrepared, run_seed: int, start: int, count: int) -> Metrics | None:
    """The batch compiled, or None when this deck needs the Python path (``tables``)."""
    t = tables(p)
    if t is None:
        return None
    return metrics_of_rows(p, play_rows(t, run_seed, start, count))


def warm(p: OukaPrepared) -> None:
    """Compile (or load from numba's cache) the kernel by playing two games of ``p``."""
    t = tables(p)
    if t is not None:
        play_rows(t, 1, 0, 2)
