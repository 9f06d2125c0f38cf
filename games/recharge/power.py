"""Marvel Recharge: the best formation's power of many hands drawn from one deck, from caches.

Pure Python (no Django). ``FormationPower(cards, chain_power_cards=...).power(hand)`` is
``(f.power, f.exists)`` of ``f = best_formation([cards[i] for i in hand], ...)`` (solver.py,
whose module docstring lists the rules), without building a formation, for a simulation that
asks about many hands drawn from the same ``cards``.

The decomposition. A formation is a spine -- its heroes and teamwork cards in a row -- plus
power cards on the free colour points of the spine's hero edges. Once the spine is chosen, the
power cards' best use depends only on ``points``, the free points per colour (the solver's
packed 4-bit-per-colour counter), and on the hand's power cards. So

    best power = max over spines s of  power(s) + value(points(s))

with the spines made of the hand's heroes and teamwork cards only, and ``value`` of its power
cards only: it is the solver's own memoised assignment (``_PowerCards``), built over the power
cards alone, as it reads no other card. Hence three caches, each keyed by sorted card ids:
whole hands -> the answer; heroes and teamwork -> their spine table, every ``points`` a spine
of theirs leaves free with the most spine power that leaves it (empty without a hero: no
formation); power cards -> their ``value``. A simulation drawing a power card keeps its spine
table, drawing a hero or a teamwork keeps its power cards' table.

Why the spine table holds the same pairs as ``best_formation``'s search. That search places a
first hero upright and grows a right arm and a left arm from it, every later card either way
round: its spines are the rows in which some hero lies upright. A row's mirror image (the order
reversed, every card turned) leaves the same free points of each colour for the same power, and
of a row and its mirror one has a hero upright, so its (points, power) pairs are those of all
rows. The rows here are grown with the search's own moves (solver.py ``grow``/``close``): on an
open hero edge, a teamwork on one colour the two edges share, the edge's other colours staying
free; beyond it optionally a hero whose touching edge shares a colour with the teamwork's far
edge, that colour taken from the hero's edge too; an edge with nothing on it keeps all its
points. Each row is listed once up to its mirror image: one hero alone upright, each edge free
or holding a teamwork with nothing beyond it (any two different ones); a row of two heroes or
more from its left end, either way round, kept only when its right end hero's card id is not
below its left end hero's (the mirror image is the one listed otherwise). No bound cuts a row
short, as the power cards are not known yet.

Answering from the tables. The table is sorted by spine power; a power card adds at most its
better side's value wherever it goes, so once a spine's power plus all the power cards' best
sides cannot beat the best total so far, neither can any spine after it. (Dropping dominated
pairs -- fewer free points of every colour and no more power than another pair -- would be
exact too, ``value`` never falling when a colour gains a point, but in pure Python it cost
more per table than the lookups it saved.)

Copies. Deck cards with equal kind, power, colours and Power Plus share an id (the first such
index), so copies share cache entries. A hand holding a card twice has two slots for it, id and
id + len(cards); a row always takes the highest copy left, copies being interchangeable.

Limits shared with the solver: points are the solver's 4-bit counts, so a row of eight heroes
or more could carry one colour's count into the next (best_formation itself then fails to lay
the formation out); a hand of the engine holds six cards. Speed, on the demo deck's 50 cards:
about 6-8 us a hand over the growing hands of shuffled decks (best_formation: 29-37 us), about
24-28 us on a random 6-card hand never met before (55-72 us), most of it listing the rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter

from games.recharge.solver import _BITS, _INC, HERO, POWER, TEAMWORK, RCard, _PowerCards

#: a cache holding this many entries starts again (an entry is some hundred bytes)
CACHE_LIMIT = 200_000

#: (free points, power) pairs, the most power first
Table = tuple[tuple[int, int], ...]
#: per edge mask 0..15: the distinct (points left free, next edge) ways to attach
_Ways = tuple[tuple[tuple[int, int], ...], ...]

_by_power = itemgetter(1)


def _ways(turns: tuple[tuple[int, int], ...], *, points_on_card: bool) -> _Ways:
    """Per edge mask 0..15 that a card touches with one of its ``turns`` (touching edge, far
    edge): the distinct (free points left, far edge) ways, on one shared colour. A teamwork
    attached to a hero edge leaves that edge's other colours free (``points_on_card`` off);
    a hero joining a teamwork leaves its own touching edge's other colours free (on)."""
    return tuple(
        tuple(
            sorted(
                {
                    (_INC[(touch if points_on_card else edge) ^ colour], far)
                    for touch, far in turns
                    for colour in _BITS[edge & touch]
                }
            )
        )
        for edge in range(16)
    )


class FormationPower:
    """The best formation's power of hands drawn from one deck, answered from caches shared
    by every hand (the module docstring says why the split is exact).

    ``cards``: the deck's cards; a hand is a sequence of indexes into them, in any order, an
    index held twice being two copies. ``spine_tables`` and ``power_tables`` count the tables
    built (cache misses) since the start."""

    def __init__(
        self,
        cards: Sequence[RCard],
        *,
        chain_power_cards: bool,
        cache_limit: int = CACHE_LIMIT,
    ) -> None:
        self.cards = tuple(cards)
        self.chain = chain_power_cards
        self.cache_limit = cache_limit
        self.spine_tables = 0
        self.power_tables = 0
        #: a copy's slot is its card id + copy * stride (an id is a card index)
        self._stride = n = max(len(self.cards), 1)
        shapes: dict[tuple[str, int, int, int, int, int, bool], int] = {}
        # per card index:
        self._id: list[int] = []
        self._bit: list[int] = []  # a hero's or teamwork's slot bit (its id's), else 0
        self._is_power: list[bool] = []
        self._worth: list[int] = []  # a hero's or teamwork's power, Power Plus counted
        self._turns: list[tuple[tuple[int, int], ...]] = []  # (left, right) either way round
        self._attach: list[_Ways] = []  # as a teamwork on a hero edge: (edge's points, far)
        self._dangle: list[tuple[tuple[int, ...], ...]] = []  # the same, nothing beyond
        self._join: list[_Ways] = []  # as a hero beyond a teamwork's far edge: (points, outer)
        # over card ids: the heroes; per edge mask, the teamwork cards that may attach to a
        # hero edge showing it, and the heroes that may join a teamwork whose far edge it is
        hero_ids = 0
        attach_ids = [0] * 16
        join_ids = [0] * 16
        for index, card in enumerate(self.cards):
            shape = (
                card.kind,
                card.power,
                card.left,
                card.right,
                card.left_power,
                card.right_power,
                card.plus,
            )
            known = shapes.setdefault(shape, index)
            self._id.append(known)
            in_spine = card.kind in (HERO, TEAMWORK)  # other kinds are ignored, as by the solver
            self._bit.append(1 << known if in_spine else 0)
            self._is_power.append(card.kind == POWER)
            self._worth.append(card.power + card.bonus)
            turns: tuple[tuple[int, int], ...] = ((card.left, card.right),)
            if card.left != card.right:
                turns = (*turns, (card.right, card.left))
            self._turns.append(turns)
            attach = _ways(turns, points_on_card=False)
            self._attach.append(attach)
            self._dangle.append(tuple(tuple(sorted({p for p, _far in ways})) for ways in attach))
            join = _ways(turns, points_on_card=True)
            self._join.append(join)
            if known != index:
                continue
            for edge in range(16):
                if card.kind == HERO and join[edge]:
                    join_ids[edge] |= 1 << index
                elif card.kind == TEAMWORK and attach[edge]:
                    attach_ids[edge] |= 1 << index
            if card.kind == HERO:
                hero_ids |= 1 << index
        #: per teamwork id: the ids of the heroes sharing a colour with it, on any edges
        mate_ids = [0] * n
        for index, card in enumerate(self.cards):
            if card.kind == TEAMWORK and self._id[index] == index:
                shown = card.left | card.right
                for other in range(n):
                    mate = self.cards[other]
                    if hero_ids >> other & 1 and (mate.left | mate.right) & shown:
                        mate_ids[index] |= 1 << other
        self._hero_ids, self._attach_ids, self._join_ids = hero_ids, attach_ids, join_ids
        self._mate_ids = mate_ids
        self._all_ids = (1 << n) - 1
        # the same masks over every copy slot in use, widened when a hand holds more copies
        self._copies = 0
        self._repeat = 0
        self._hero_slots = 0
        self._attach_slots: list[int] = []
        self._join_slots: list[int] = []
        self._mates: list[int] = []
        self._widen(1)
        self._hands: dict[tuple[int, ...], tuple[int, bool]] = {}
        self._spines: dict[int, Table] = {}
        #: power cards -> (their best use, a bound on it: every card on its better side)
        self._values: dict[tuple[int, ...], tuple[_PowerCards, int]] = {}

    def _widen(self, copies: int) -> None:
        n = self._stride
        # ids are below the stride, so one multiplication copies a mask to every copy level
        self._repeat = repeat = sum(1 << (k * n) for k in range(copies))
        self._copies = copies
        self._attach_slots = [mask * repeat for mask in self._attach_ids]
        self._join_slots = [mask * repeat for mask in self._join_ids]
        self._hero_slots = self._hero_ids * repeat
        self._mates = [mask * repeat for mask in self._mate_ids]

    def power(self, hand: Sequence[int]) -> tuple[int, bool]:
        """(the best formation's power, a formation exists) for these card indexes."""
        ids = self._id
        key = tuple(sorted([ids[i] for i in hand]))
        got = self._hands.get(key)
        if got is not None:
            return got
        bits = self._bit
        spine = total = 0
        for i in key:
            spine |= bits[i]
            total += bits[i]
        if spine != total:
            spine = self._slots(key)  # a card held twice
        is_power = self._is_power
        powers = [i for i in key if is_power[i]]
        table = self._spines.get(spine)
        if table is None:
            table = self._spine_table(spine)
            if len(self._spines) >= self.cache_limit:
                self._spines.clear()
            self._spines[spine] = table
        if not table:
            got = (0, False)
        elif not powers:
            got = (table[0][1], True)
        else:
            power_key = tuple(powers)
            entry = self._values.get(power_key)
            if entry is None:
                self.power_tables += 1
                held = [self.cards[i] for i in power_key]
                cards = _PowerCards(held, list(range(len(held))), self.chain)
                # each card counts one side at most once, wherever the points are
                most = sum(max(card.side_value(0), card.side_value(1)) for card in held)
                entry = (cards, most)
                if len(self._values) >= self.cache_limit:
                    self._values.clear()
                self._values[power_key] = entry
            cards, most = entry
            known = cards.by_points.get
            best = -1
            for points, spine_power in table:
                if spine_power + most <= best:
                    break  # the rest have no more power and no card can add more than most
                value = known(points)
                if value is None:
                    value = cards.value(points)
                if spine_power + value > best:
                    best = spine_power + value
            got = (best, True)
        if len(self._hands) >= self.cache_limit:
            self._hands.clear()
        self._hands[key] = got
        return got

    def _slots(self, key: tuple[int, ...]) -> int:
        """The slots of the heroes and teamwork cards of ``key`` (sorted ids, some repeated):
        the first copy of a card in its id's slot, each further copy a stride higher."""
        n = self._stride
        spine = 0
        previous = -1
        level = top = 0
        for i in key:
            if i == previous:
                level += n
                top = max(top, level)
            else:
                previous, level = i, 0
            if self._bit[i]:
                spine |= 1 << (i + level)
        if top >= self._copies * n:
            self._widen(top // n + 1)
        return spine

    def _spine_table(self, spine: int) -> Table:
        """The spine table of the hero and teamwork cards in the slots of ``spine``."""
        hero_slots = spine & self._hero_slots
        if not hero_slots:
            return ()
        self.spine_tables += 1
        n = self._stride
        worth, attach, join, turns = self._worth, self._attach, self._join, self._turns
        dangle = self._dangle
        attach_slots, join_slots = self._attach_slots, self._join_slots
        team_slots = spine ^ hero_slots
        best: dict[int, int] = {}
        get = best.get
        higher = 0  # hero slots whose id is not below the left end's: a row may end there
        # two heroes in a row need a teamwork sharing a colour with both: the heroes that
        # share one with such a teamwork are the only ones a longer row may start from
        linked = 0
        teams = team_slots
        while teams:
            t_low = teams & -teams
            teams ^= t_low
            mates = self._mates[(t_low.bit_length() - 1) % n] & hero_slots
            if mates & (mates - 1):
                linked |= mates

        def grow(edge: int, free: int, points: int, power: int, ends: bool) -> None:
            """Every row going on rightwards from an open hero edge ``edge`` with the cards
            of ``free``; ``ends``: rows may end at this hero."""
            if ends:
                got = points + _INC[edge]
                if get(got, -1) < power:
                    best[got] = power
            further = free & higher
            if not (ends or further):
                return  # nothing left to end a row on
            teams = free & attach_slots[edge]
            while teams:
                t_low = teams & -teams
                teams ^= t_low
                t = t_low.bit_length() - 1
                if free >> (t + n) & 1:
                    continue  # a higher copy of this card is left: it stands for this one
                t %= n
                t_free = free ^ t_low
                t_power = power + worth[t]
                for t_points, far in attach[t][edge]:
                    got = points + t_points
                    if ends and get(got, -1) < t_power:  # nothing beyond the teamwork
                        best[got] = t_power
                    if not further:
                        continue  # no hero left that a row could end on
                    heroes = t_free & join_slots[far]
                    while heroes:
                        h_low = heroes & -heroes
                        heroes ^= h_low
                        h = h_low.bit_length() - 1
                        if t_free >> (h + n) & 1:
                            continue
                        h_free = t_free ^ h_low
                        h_ends = h_low & higher != 0
                        h %= n
                        h_power = t_power + worth[h]
                        for h_points, outer in join[h][far]:
                            if h_free & attach_slots[outer]:
                                grow(outer, h_free, got + h_points, h_power, h_ends)
                            elif h_ends:  # nothing can attach to the outer edge
                                end = got + h_points + _INC[outer]
                                if get(end, -1) < h_power:
                                    best[end] = h_power

        heroes = hero_slots
        while heroes:
            h_low = heroes & -heroes
            heroes ^= h_low
            h = h_low.bit_length() - 1
            if spine >> (h + n) & 1:
                continue
            h %= n
            h_free = spine ^ h_low
            h_power = worth[h]

            # this hero alone, upright: each edge free or holding one teamwork (not the same)
            left, right = turns[h][0]
            points = _INC[left] + _INC[right]
            if get(points, -1) < h_power:
                best[points] = h_power
            on_left = h_free & attach_slots[left]
            on_right = h_free & attach_slots[right]
            if on_left or on_right:
                caps = [(_INC[left], 0, 0)]
                while on_left:
                    t_low = on_left & -on_left
                    on_left ^= t_low
                    t = (t_low.bit_length() - 1) % n
                    for t_points in dangle[t][left]:
                        caps.append((t_points, worth[t], t_low))
                        points = t_points + _INC[right]
                        power = h_power + worth[t]
                        if get(points, -1) < power:
                            best[points] = power
                while on_right:
                    t_low = on_right & -on_right
                    on_right ^= t_low
                    t = (t_low.bit_length() - 1) % n
                    t_power = h_power + worth[t]
                    for t_points in dangle[t][right]:
                        for points, power, used in caps:
                            if used != t_low:
                                points += t_points
                                power += t_power
                                if get(points, -1) < power:
                                    best[points] = power

            # rows of two heroes or more with this one at the left end, either way round,
            # its left edge free or holding a teamwork with nothing beyond
            if not linked & h_low:
                continue
            higher = hero_slots & (self._all_ids ^ ((1 << h) - 1)) * self._repeat
            if not h_free & higher:
                continue
            for left, right in turns[h]:
                if not h_free & attach_slots[right]:
                    continue
                grow(right, h_free, _INC[left], h_power, False)
                teams = h_free & attach_slots[left]
                while teams:
                    t_low = teams & -teams
                    teams ^= t_low
                    t_free = h_free ^ t_low
                    if not t_free & higher or not t_free & attach_slots[right]:
                        continue
                    t = (t_low.bit_length() - 1) % n
                    t_power = h_power + worth[t]
                    for t_points in dangle[t][left]:
                        grow(right, t_free, t_points, t_power, False)
        return tuple(sorted(best.items(), key=_by_power, reverse=True))
