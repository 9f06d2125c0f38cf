"""The 央華封神 goldfish policy's pure pieces, shared by the state, the fast loop and
``hand_plan``: which stories a climax takes, and how much the policy wants to keep a card
(pure Python; the engine's docstring describes the policy)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from games.ouka_fushin.constants import IMMORTAL_SLOTS, K_CHARACTER

if TYPE_CHECKING:
    from games.ouka_fushin.prepared import OukaPrepared
    from games.ouka_fushin.state import OukaState


def popcount(mask: int) -> int:
    return bin(mask).count("1")


def cover_options(cond: int, gmask: Sequence[int], gpts: Sequence[int], taken: int) -> list[int]:
    """The sets of open story groups (bit masks over group indexes, none of ``taken``) whose
    keywords hold all of ``cond``, the cheapest first: fewest points consumed, then fewest
    groups, then the lower mask. A set with a needless group is left out."""
    n = len(gmask)
    size = 1 << n
    held = [0] * size  # keywords of each set of groups, built from the set minus its low bit
    points = [0] * size
    found: list[tuple[int, int, int]] = []
    for subset in range(1, size):
        low = subset & -subset
        g = low.bit_length() - 1
        rest = subset ^ low
        held[subset] = held[rest] | gmask[g]
        points[subset] = points[rest] + gpts[g]
        if subset & taken or cond & ~held[subset]:
            continue
        bits = subset
        minimal = True
        while bits:  # minimal: dropping any one group breaks the cover
            one = bits & -bits
            bits ^= one
            if not cond & ~held[subset ^ one]:
                minimal = False
                break
        if minimal:
            found.append((points[subset], popcount(subset), subset))
    found.sort()
    return [subset for _points, _size, subset in found]


def assign_climaxes(
    p: OukaPrepared, combo: Sequence[int], gmask: Sequence[int], gpts: Sequence[int], free: int
) -> list[int] | None:
    """Each climax of ``combo`` on its own condition stories (seed:166, 286): a group mask per
    climax (0: a climax without conditions takes a free slot), or None when impossible."""
    masks: list[int] = []

    def place(i: int, taken: int, slots: int) -> bool:
        if i == len(combo):
            return True
        cond = p.cond[combo[i]]
        if not cond:
            if slots <= 0:
                return False
            masks.append(0)
            if place(i + 1, taken, slots - 1):
                return True
            masks.pop()
            return False
        for subset in cover_options(cond, gmask, gpts, taken):
            masks.append(subset)
            if place(i + 1, taken | subset, slots):
                return True
            masks.pop()
        return False

    return masks if place(0, 0, free) else None


def card_value(state: OukaState, card: int) -> int:
    """How much the policy wants to keep a card (0: it can never use it here). Discards take
    the lowest first; a round reset keeps the highest. Unused climaxes first, then the
    protagonist's next growth, stories not on the field (by points), immortal cards."""
    p = state.prepared
    if p.kind[card] != K_CHARACTER:
        # stories by points, unused climaxes above all; none once the same card is on the
        # field, nor for a story this protagonist can never pass (``prepared._passable``);
        # accidents answer the opponent's stories, which the goldfish never plays
        return 0 if p.uid[card] & state.onfield else p.static_value[state.prot][card]
    character = p.character[card]
    level = p.destiny[card]
    if character == state.prot_char:
        if level == state.level + 1:
            return 300
        return 200 if level > state.level + 1 else 0
    if character == state.blocked:
        return 0  # the opponent's protagonist: unique on the field (seed:58, 186)
    immortal = state.immortals.get(character, 0)
    if immortal:
        if level == immortal + 1:
            return 60
        return 40 if level > immortal + 1 else 0
    if level == 1:
        return 50 if len(state.immortals) < IMMORTAL_SLOTS else 0
    return 20


def worst_card(state: OukaState) -> int:
    """The hand's card the policy discards first: the lowest ``keep_key``."""
    p = state.prepared
    kinds = p.kind
    uids = p.uid
    static = p.static_value[state.prot]
    onfield = state.onfield
    worst = -1
    low = 0
    for card in state.hand:
        if kinds[card] == K_CHARACTER:
            value = card_value(state, card)
        elif uids[card] & onfield:
            value = 0
        else:
            value = static[card]
        key = value * 100_000 - card
        if worst < 0 or key < low:
            worst, low = card, key
    return worst


def keep_key(state: OukaState, card: int) -> int:
    """A total order on cards for discarding (lowest first) and taking back (highest first):
    the value, then the lower card index kept."""
    return card_value(state, card) * 100_000 - card
