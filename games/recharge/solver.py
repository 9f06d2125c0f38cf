"""Marvel Recharge: the exact solver for the best formation a hand can build.

Pure Python (no Django). ``best_formation(hand)`` returns the highest total power of a legal
connected formation made from the cards in ``hand`` (each card at most once), with the
formation itself for display. The rules come from shared/rules/recharge.md:9-26 and, where
the digest is terse, from the Japanese seed (shared/seeds/002_47728f997f662546.txt, cited
below as "seed:<line>"); the seed wins where they differ.

Rule decisions (each is tested at its boundary in tests/simulator/test_recharge_solver.py):

- A formation starts with one hero placed upright, as printed (seed:74, seed:117). Every later
  card may be turned upside down, which swaps its left and right edges (seed:123). The upright
  first hero costs nothing: the mirror image of any formation is as strong.
- Two touching edges match when they share a colour (seed:120, recharge.md:14-17). A hero is
  the only portrait card (seed:162), teamwork and power cards are landscape (seed:171, 180), so
  a hero's long edge offers one attachment point per colour it shows and a landscape card
  takes one point (seed:122: power cards make the row fork).
- Teamwork (seed:171-175): attaches to a hero edge point whose colour its touching edge shows;
  at most one teamwork per hero edge, on one colour only. Its far edge may take at most one new
  hero whose touching edge shares a colour with it ("1枚だけ配置できる": may, so a teamwork
  with no hero beyond it still counts). That hero's touching edge is then an edge holding a
  teamwork: the teamwork uses one of its points and no second teamwork may join it.
  Nothing but that hero attaches to a teamwork.
- Power cards (seed:178-188): attach to a free hero edge point whose colour their touching
  edge shows; one per colour point, so up to two on a two-colour edge (seed:184). A point not
  used by the edge's teamwork stays free, so a two-colour edge may hold a teamwork on one
  colour and a power card on the other (the teamwork is limited to "どちらか一方にだけ", one of
  the colours, seed:174; the power rule counts per colour, seed:184). Only the touching side's
  value counts (seed:182). Power cards never attach to teamwork cards ("ヒーローに付ける",
  seed:183).
- Nothing attaches to a power card's outer edge (seed:185) unless the optional chaining rule is
  on (``chain_power_cards``, seed:186-188): then one further power card may touch each power
  card's outer (short) edge, sharing a colour with it, so chains run outward in a line; only
  power cards chain (seed:187). Each card counts the side nearer the hero its chain hangs from
  (seed:188, "最初のヒーローに近い側": read as the chain's own hero, which is the touching side
  as in the basic rule of seed:182).
- Power Plus copies (``plus``) count +10 on their power at all times (seed:156: a 40 is played
  as 50): on a hero's or teamwork's power and on the one counted side of a power card.
- Special cards' abilities are not modelled (seed:148-150): they play as their plain kind.
- An edge listed with the same colour twice has that colour once (colours are sets here).
- No hero in hand, no formation: power 0.

How it is fast: colours are 4-bit masks; the free colour points of all hero edges are counted
in one packed integer (4 bits per colour); the hero-teamwork chain is searched depth first,
right arm then left arm, skipping states already seen and cutting branches that even every
card left could not lift above the best found (each further hero needs a teamwork of its
own); and the best use of the power cards for a given count of free points is a small
memoised assignment shared by the whole search. bench/recharge_solver.py measures it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

HERO = "hero"
TEAMWORK = "teamwork"
POWER = "power"
POWER_PLUS = "power-plus"
#: seed:156 -- "パワープラスカード...+10"
PLUS_BONUS = 10

COLOURS = ("red", "green", "yellow", "blue")
COLOUR_BIT = {name: 1 << k for k, name in enumerate(COLOURS)}
COLOUR_OF_BIT = {1 << k: name for k, name in enumerate(COLOURS)}

#: the single-colour bits of each 4-bit mask
_BITS: tuple[tuple[int, ...], ...] = tuple(
    tuple(1 << k for k in range(4) if m >> k & 1) for m in range(16)
)
#: a mask's colour points as an increment of the packed counter (4 bits per colour)
_INC: tuple[int, ...] = tuple(sum(1 << (4 * k) for k in range(4) if m >> k & 1) for m in range(16))
_NIBBLE = 15


def colour_mask(colours: Iterable[str] | None) -> int:
    """The 4-bit mask of an edge's colours (unknown names are ignored)."""
    mask = 0
    for name in colours or ():
        mask |= COLOUR_BIT.get(name, 0)
    return mask


def colour_names(mask: int) -> list[str]:
    return [name for k, name in enumerate(COLOURS) if mask >> k & 1]


@dataclass(frozen=True, slots=True)
class RCard:
    """One card as the solver sees it. ``left``/``right`` are colour masks as printed; heroes
    and teamwork use ``power``, power cards ``left_power``/``right_power``."""

    kind: str
    power: int = 0
    left: int = 0
    right: int = 0
    left_power: int = 0
    right_power: int = 0
    plus: bool = False
    name: str = ""

    @property
    def bonus(self) -> int:
        return PLUS_BONUS if self.plus else 0

    def side_value(self, side: int) -> int:
        """A power card's value when its ``side`` (0 = printed left, 1 = right) touches."""
        return (self.left_power if side == 0 else self.right_power) + self.bonus

    def side_mask(self, side: int) -> int:
        return self.left if side == 0 else self.right


def card_from_attributes(
    kind: str, attributes: Mapping[str, Any], *, variant: str = "", name: str = ""
) -> RCard:
    """An ``RCard`` from a catalog card's attributes (catalog/games/recharge.py) and printing
    variant. Special cards play as their plain kind (abilities are not modelled)."""

    def number(key: str) -> int:
        value = attributes.get(key, 0)
        return int(value) if isinstance(value, int | float) else 0

    return RCard(
        kind=kind,
        power=number("power"),
        left=colour_mask(attributes.get("left")),
        right=colour_mask(attributes.get("right")),
        left_power=number("left_power"),
        right_power=number("right_power"),
        plus=variant == POWER_PLUS,
        name=name,
    )


@dataclass(frozen=True, slots=True)
class Placement:
    """One placed card. ``anchor`` is the hand index of the card it touches (None for the
    first hero), ``edge`` that card's edge as it lies on the table ("left"/"right"), and
    ``colour`` the colour the touching edges share (for a hero edge: the point used)."""

    card: int
    kind: str
    flipped: bool
    anchor: int | None
    edge: str
    colour: str
    value: int


@dataclass(frozen=True, slots=True)
class Formation:
    """The best formation: its total power, every placed card (the first hero first, each
    card after the card it touches), and the hero-teamwork row from left to right."""

    power: int
    placements: tuple[Placement, ...] = ()
    row: tuple[int, ...] = ()

    @property
    def exists(self) -> bool:
        return bool(self.placements)

    @property
    def power_cards(self) -> int:
        return sum(1 for p in self.placements if p.kind == POWER)

    def describe(self, hand: Sequence[RCard], names: Sequence[str] | None = None) -> str:
        """A one-line picture: "Hero A ←Teamwork→ Hero B + 2 power"."""
        if not self.placements:
            return "no hero"
        label = (
            list(names) if names is not None else [c.name or f"#{i}" for i, c in enumerate(hand)]
        )
        parts: list[str] = []
        for index in self.row:
            if hand[index].kind == TEAMWORK:
                parts.append(f"←{label[index]}→")
            else:
                parts.append(label[index])
        text = " ".join(parts)
        count = self.power_cards
        if count:
            text += f" + {count} power"
        return text


NO_FORMATION = Formation(power=0)

# path steps, kept as cons cells (kind, card, orientation, colour bit, parent)
_FIRST, _TEAM, _HERO, _ARM_END = 0, 1, 2, 3


class _PowerCards:
    """The best use of the hand's power cards for a given count of free hero edge points.

    ``value(v)``: ``v`` packs, per colour, how many free points of that colour the formation's
    hero edges offer. A point takes one power card (or, with chaining, one chain of them); the
    memo is keyed by (points left, cards left) and shared by every call for this hand."""

    def __init__(self, hand: Sequence[RCard], indexes: list[int], chain: bool) -> None:
        self.hand = hand
        self.indexes = indexes
        self.chain = chain
        n = len(indexes)
        self.full = (1 << n) - 1
        #: per colour k: (card set, value, how) for every usable chain (or single card)
        self.options: list[list[tuple[int, int, Any]]] = [[] for _ in range(4)]
        self.first_tables: list[list[int]] | None = None
        if chain:
            self._chains()
        else:
            for j, index in enumerate(indexes):
                card = hand[index]
                for k in range(4):
                    bit = 1 << k
                    best, side = -1, -1
                    for s in (0, 1):
                        if card.side_mask(s) & bit and card.side_value(s) > best:
                            best, side = card.side_value(s), s
                    if side >= 0:
                        self.options[k].append((1 << j, best, side))
        for options in self.options:
            options.sort(key=lambda o: -o[1])
        #: no more than this many points of a colour can ever be used
        self.caps = [
            min(n, len({o[0] for o in self.options[k]}) if not chain else n) for k in range(4)
        ]
        self.memo: dict[tuple[int, int], int] = {}
        self.by_points: dict[int, int] = {}

    def _chains(self) -> None:
        """Every chain of power cards, by its exact card set and the colour its first card
        touches. ``h[mask][2*i+o]``: the best chain made of exactly ``mask`` whose first card
        is ``i`` with side ``o`` touching (-1: none)."""
        hand, idx = self.hand, self.indexes
        n = len(idx)
        cards = [hand[i] for i in idx]
        touch = [cards[i].side_mask(o) for i in range(n) for o in (0, 1)]
        outer = [cards[i].side_mask(1 - o) for i in range(n) for o in (0, 1)]
        value = [cards[i].side_value(o) for i in range(n) for o in (0, 1)]
        size = 1 << n
        h = [[-1] * (2 * n) for _ in range(size)]
        for i in range(n):
            for o in (0, 1):
                h[1 << i][2 * i + o] = value[2 * i + o]
        for mask in range(1, size):
            row = h[mask]
            for first in range(2 * n):
                got = row[first]
                if got < 0:
                    continue
                need = touch[first]
                for j in range(n):
                    if mask >> j & 1:
                        continue
                    target = h[mask | 1 << j]
                    for o in (0, 1):
                        a = 2 * j + o
                        if outer[a] & need and got + value[a] > target[a]:
                            target[a] = got + value[a]
        self.first_tables = h
        self._touch, self._outer, self._value = touch, outer, value
        for mask in range(1, size):
            row = h[mask]
            for k in range(4):
                bit = 1 << k
                best, how = -1, -1
                for a in range(2 * n):
                    if row[a] > best and touch[a] & bit:
                        best, how = row[a], a
                if how >= 0:
                    self.options[k].append((mask, best, how))

    def upper_bound(self, hero_colours: int) -> int:
        """No formation's power cards are worth more: each card that could ever touch a
        colour shown on a hero edge (``hero_colours``), or with chaining a colour reachable
        through other power cards, on its best such side."""
        cards = [self.hand[i] for i in self.indexes]
        reach = hero_colours
        if self.chain:
            grown = True
            while grown:
                grown = False
                for card in cards:
                    shown = card.left | card.right
                    if (card.left & reach or card.right & reach) and shown & ~reach:
                        reach |= shown  # generous: both sides' colours may pass on
                        grown = True
        total = 0
        for card in cards:
            total += max(
                (card.side_value(s) for s in (0, 1) if card.side_mask(s) & reach), default=0
            )
        return total

    def value(self, points: int) -> int:
        got = self.by_points.get(points)
        if got is None:
            clipped = 0
            for k in range(4):
                count = min(points >> (4 * k) & _NIBBLE, self.caps[k])
                clipped |= count << (4 * k)
            got = self._best(clipped, self.full) if self.indexes else 0
            self.by_points[points] = got
        return got

    def _best(self, points: int, left: int) -> int:
        if not points or not left:
            return 0
        key = (points, left)
        got = self.memo.get(key)
        if got is not None:
            return got
        k = 0
        while not points >> (4 * k) & _NIBBLE:
            k += 1
        # either this colour takes nothing more, or one of its points takes a chain/card
        best = self._best(points & ~(_NIBBLE << (4 * k)), left)
        fewer = points - (1 << (4 * k))
        for mask, value, _how in self.options[k]:
            if mask & left == mask:
                got = value + self._best(fewer, left ^ mask)
                if got > best:
                    best = got
        self.memo[key] = best
        return best

    def plan(self, points: int) -> list[tuple[int, list[tuple[int, int]]]]:
        """The assignment behind ``value(points)``: per used point, its colour bit and the
        chain as [(hand index, touching side), ...] from the hero outward."""
        clipped = 0
        for k in range(4):
            clipped |= min(points >> (4 * k) & _NIBBLE, self.caps[k]) << (4 * k)
        result: list[tuple[int, list[tuple[int, int]]]] = []
        left = self.full
        while clipped and left:
            target = self._best(clipped, left)
            k = 0
            while not clipped >> (4 * k) & _NIBBLE:
                k += 1
            fewer = clipped - (1 << (4 * k))
            chosen = None
            for mask, value, how in self.options[k]:
                if mask & left == mask and value + self._best(fewer, left ^ mask) == target:
                    chosen = (mask, how)
                    break
            if chosen is None:
                clipped &= ~(_NIBBLE << (4 * k))
                continue
            mask, how = chosen
            result.append((1 << k, self._unroll(mask, how)))
            left ^= mask
            clipped = fewer
        return result

    def _unroll(self, mask: int, how: int) -> list[tuple[int, int]]:
        if not self.chain:
            j = mask.bit_length() - 1
            return [(self.indexes[j], how)]
        h = self.first_tables
        assert h is not None
        chain: list[tuple[int, int]] = []
        a = how
        while True:
            j, o = divmod(a, 2)
            chain.append((self.indexes[j], o))
            rest = mask ^ (1 << j)
            if not rest:
                return chain
            want = h[mask][a] - self._value[a]
            for b in range(2 * len(self.indexes)):
                if h[rest][b] == want and self._outer[a] & self._touch[b] and rest >> (b // 2) & 1:
                    a, mask = b, rest
                    break
            else:  # pragma: no cover - the table guarantees a predecessor
                raise AssertionError("broken chain table")


def best_formation(hand: Sequence[RCard], *, chain_power_cards: bool = False) -> Formation:
    """The best legal formation of ``hand`` (see the module docstring for the rules)."""
    heroes: list[tuple[int, int, int, tuple[tuple[int, int, int], ...]]] = []
    teams: list[tuple[int, int, int, tuple[tuple[int, int, int], ...]]] = []
    powers: list[int] = []
    firsts: list[tuple[int, int, int, int, int]] = []
    bit = 1
    for index, card in enumerate(hand):
        if card.kind == POWER:
            powers.append(index)
            continue
        if card.kind not in (HERO, TEAMWORK):
            continue
        # later cards may be turned (seed:123): (touching edge, outer edge, 0 = printed left
        # touches / 1 = printed right touches); one option when both edges are alike
        turns: tuple[tuple[int, int, int], ...] = ((card.left, card.right, 0),)
        if card.left != card.right:
            turns = (*turns, (card.right, card.left, 1))
        entry = (bit, card.power + card.bonus, index, turns)
        if card.kind == HERO:
            heroes.append(entry)
            firsts.append((bit, card.power + card.bonus, index, card.left, card.right))
        else:
            teams.append(entry)
        bit <<= 1
    if not heroes:
        return NO_FORMATION

    table = _PowerCards(hand, powers, chain_power_cards)
    value_of = table.value
    hero_colours = 0
    for _bit, _power, _index, left, right in firsts:
        hero_colours |= left | right
    power_upper = table.upper_bound(hero_colours)
    # bound: every later hero comes through a teamwork of its own, so at most as many more
    # heroes as unused teamwork cards join (the strongest ones, at best)
    by_power = sorted(((e[1], e[0]) for e in heroes), reverse=True)
    rest_cache: dict[int, int] = {}

    def rest_upper(used: int) -> int:
        got = rest_cache.get(used)
        if got is None:
            got = 0
            free_teams = 0
            for t_bit, t_power, _i, _t in teams:
                if not used & t_bit:
                    got += t_power
                    free_teams += 1
            for h_power, h_bit in by_power:
                if free_teams == 0:
                    break
                if not used & h_bit:
                    got += h_power
                    free_teams -= 1
            rest_cache[used] = got
        return got

    upper = (
        sum(p for p, _bit in by_power[: len(teams) + 1]) + sum(e[1] for e in teams) + power_upper
    )
    seen: set[tuple[int, int, int, int]] = set()
    best_value = -1
    best_state: tuple[int, Any] | None = None
    pending_left = 0  # the first hero's left edge, grown once the right arm is done
    LEFT_ARM = 16  # marks states of the left arm in ``seen`` (edges are < 16)

    def close(used: int, points: int, power: int, on_left: bool, path: Any) -> None:
        nonlocal best_value, best_state
        if not on_left:
            grow(used, points, power, pending_left, True, (_ARM_END, -1, 0, 0, path))
            return
        total = power + value_of(points)
        if total > best_value:
            best_value = total
            best_state = (points, path)

    def grow(used: int, points: int, power: int, edge: int, on_left: bool, path: Any) -> None:
        """Extend the arm whose outermost hero shows ``edge``; ``points`` counts the free
        hero edge points so far."""
        if power + rest_upper(used) + power_upper <= best_value:
            return  # even every card left could not beat the best found
        key = (used, points, edge, LEFT_ARM if on_left else pending_left)
        if key in seen:
            return
        seen.add(key)
        for t_bit, t_power, t_index, t_turns in teams:
            if used & t_bit:
                continue
            t_used = used | t_bit
            t_total = power + t_power
            for touch, far, t_turn in t_turns:
                common = edge & touch
                if not common:
                    continue
                for colour in _BITS[common]:
                    # one teamwork per edge, on one colour; the edge's other colour stays free
                    t_points = points + _INC[edge ^ colour]
                    step = (_TEAM, t_index, t_turn, colour, path)
                    for h_bit, h_power, h_index, h_turns in heroes:
                        if t_used & h_bit:
                            continue
                        for h_touch, h_outer, h_turn in h_turns:
                            shared = far & h_touch
                            if not shared:
                                continue
                            for h_colour in _BITS[shared]:
                                grow(
                                    t_used | h_bit,
                                    t_points + _INC[h_touch ^ h_colour],
                                    t_total + h_power,
                                    h_outer,
                                    on_left,
                                    (_HERO, h_index, h_turn, h_colour, step),
                                )
                    # a teamwork need not lead to a hero (seed:175 "配置できる")
                    close(t_used, t_points, t_total, on_left, step)
        close(used, points + _INC[edge], power, on_left, path)

    for h_bit, h_power, h_index, left, right in firsts:
        pending_left = left
        grow(h_bit, 0, h_power, right, False, (_FIRST, h_index, 0, 0, None))
        if best_value >= upper:
            break
    assert best_state is not None
    return _formation(hand, table, best_value, *best_state)


def _formation(
    hand: Sequence[RCard], table: _PowerCards, total: int, points: int, path: Any
) -> Formation:
    """Turn the winning search path back into placed cards."""
    steps: list[tuple[int, int, int, int]] = []
    while path is not None:
        kind, index, turn, colour, path = path
        steps.append((kind, index, turn, colour))
    steps.reverse()

    placements: list[Placement] = []
    #: free hero edge points, in placement order: (hero index, edge as placed, colour bit)
    free: list[tuple[int, str, int]] = []
    first = steps[0][1]
    right_row: list[int] = []
    left_row: list[int] = []
    placements.append(Placement(first, HERO, False, None, "", "", _card_power(hand[first])))
    on_left = False
    anchor = first
    open_mask = hand[first].right
    pending_team: tuple[int, int] | None = None  # the teamwork waiting for a hero

    def close_edge(hero: int, mask: int) -> None:
        for b in _BITS[mask]:
            free.append((hero, "left" if on_left else "right", b))

    for kind, index, turn, colour in steps[1:]:
        outward = "left" if on_left else "right"
        inward = "right" if on_left else "left"
        if kind == _TEAM:
            card = hand[index]
            # turn 0: the printed left edge touches; on the left arm that card is turned
            flipped = (turn == 1) != on_left
            placements.append(
                Placement(
                    index,
                    TEAMWORK,
                    flipped,
                    anchor,
                    outward,
                    COLOUR_OF_BIT[colour],
                    _card_power(card),
                )
            )
            close_edge(anchor, open_mask ^ colour)
            open_mask = 0
            pending_team = (index, turn)
            (left_row if on_left else right_row).append(index)
        elif kind == _HERO:
            card = hand[index]
            flipped = (turn == 1) != on_left
            assert pending_team is not None
            team = pending_team[0]
            placements.append(
                Placement(
                    index, HERO, flipped, team, outward, COLOUR_OF_BIT[colour], _card_power(card)
                )
            )
            touch = card.left if turn == 0 else card.right
            for b in _BITS[touch ^ colour]:
                free.append((index, inward, b))
            anchor = index
            open_mask = card.right if turn == 0 else card.left
            pending_team = None
            (left_row if on_left else right_row).append(index)
        elif kind == _ARM_END:
            close_edge(anchor, open_mask)
            on_left = True
            anchor = first
            open_mask = hand[first].left
            pending_team = None
    close_edge(anchor, open_mask)

    # the power cards: each used point gets a chain (one card unless chaining is on)
    for colour, chain in table.plan(points):
        slot = next(i for i, s in enumerate(free) if s[2] == colour)
        hero, edge, _bit = free.pop(slot)
        # a chain runs outward in the direction of its hero's edge
        previous, shared = hero, colour
        for position, (index, side) in enumerate(chain):
            card = hand[index]
            # a card to the right of its anchor touches with its left edge as it lies
            flipped = (side == 1) == (edge == "right")
            placements.append(
                Placement(
                    index,
                    POWER,
                    flipped,
                    previous,
                    edge,
                    COLOUR_OF_BIT[shared],
                    card.side_value(side),
                )
            )
            if position + 1 < len(chain):
                n_index, n_side = chain[position + 1]
                common = card.side_mask(1 - side) & hand[n_index].side_mask(n_side)
                shared = common & -common  # the lowest shared colour names the match
            previous = index
    row = (*reversed(left_row), first, *right_row)
    formation = Formation(power=total, placements=tuple(placements), row=row)
    assert sum(p.value for p in placements) == total, "formation and total disagree"
    return formation


def _card_power(card: RCard) -> int:
    return card.power + card.bonus
