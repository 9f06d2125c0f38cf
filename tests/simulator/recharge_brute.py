"""A deliberately simple brute force for Recharge formations, to check the solver against.

It knows nothing of the solver's arms, packed counters or matchings. A formation is a set of
placements ``(card, flipped, anchor, edge, colour)``; one rule function, ``legal_addition``,
says literally whether a card may be added at a point of a formation, and the enumerator
grows every formation from every hero, one card at a time, trying every unused card, both
ways up, on every edge of every placed card, on every colour. The rules are the ones the
solver's module docstring lists (simulator/games/recharge_solver.py), written out again.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from games.recharge.solver import (
    COLOUR_BIT,
    COLOURS,
    HERO,
    POWER,
    TEAMWORK,
    Formation,
    RCard,
)

# (card, flipped, anchor, edge of the anchor as it lies, colour name); anchor None: first hero
Spot = tuple[int, bool, int | None, str, str]
EDGES = ("left", "right")


def other(edge: str) -> str:
    return "right" if edge == "left" else "left"


def edge_colours(card: RCard, flipped: bool, edge: str) -> frozenset[str]:
    """The colours of ``card``'s edge ``edge`` as it lies (turning it swaps its edges)."""
    return _edge_colours(card.left, card.right, flipped, edge)


@cache  # the enumerator asks the same question millions of times
def _edge_colours(left: int, right: int, flipped: bool, edge: str) -> frozenset[str]:
    printed = edge if not flipped else other(edge)
    mask = left if printed == "left" else right
    return frozenset(name for name in COLOURS if mask & COLOUR_BIT[name])


def touching_edge(spot: Spot) -> str:
    """Which of a placed card's edges (as it lies) touches its anchor: a card on the anchor's
    right edge lies to its right and touches with its own left edge."""
    return other(spot[3])


def card_value(card: RCard, spot: Spot) -> int:
    bonus = 10 if card.plus else 0
    if card.kind != POWER:
        return card.power + bonus
    # only the touching side counts (seed:182)
    touching = touching_edge(spot)
    printed = touching if not spot[1] else other(touching)
    return (card.left_power if printed == "left" else card.right_power) + bonus


def legal_addition(
    hand: Sequence[RCard], formation: Sequence[Spot], spot: Spot, *, chain: bool
) -> bool:
    card_index, flipped, anchor, edge, colour = spot
    card = hand[card_index]
    placed = {s[0]: s for s in formation}
    if card_index in placed or card.kind not in (HERO, TEAMWORK, POWER):
        return False
    if not formation:
        # the first card is a hero, placed upright (seed:74, seed:117)
        return card.kind == HERO and not flipped and anchor is None
    if anchor is None or anchor not in placed:
        return False
    anchor_spot = placed[anchor]
    anchor_card = hand[anchor]
    touching = edge_colours(card, flipped, other(edge))
    if colour not in touching:
        return False
    on_anchor = [s for s in formation if s[2] == anchor]

    if anchor_card.kind == HERO:
        if card.kind == HERO:
            return False  # heroes join only through teamwork
        if colour not in edge_colours(anchor_card, anchor_spot[1], edge):
            return False
        # the point (anchor, edge, colour) holds one card
        if any(s[3] == edge and s[4] == colour for s in on_anchor):
            return False
        brought_by_teamwork = anchor_spot[2] is not None
        anchor_touching = touching_edge(anchor_spot) if brought_by_teamwork else None
        if edge == anchor_touching and colour == anchor_spot[4]:
            return False  # that point is the teamwork that brought the hero
        if card.kind == TEAMWORK:
            if edge == anchor_touching:
                return False  # that edge already holds a teamwork
            if any(s[3] == edge and hand[s[0]].kind == TEAMWORK for s in on_anchor):
                return False  # one teamwork per edge
        return True

    if anchor_card.kind == TEAMWORK:
        # its far edge takes one hero, nothing else
        if card.kind != HERO or edge != anchor_spot[3] or on_anchor:
            return False
        return colour in edge_colours(anchor_card, anchor_spot[1], edge)

    # the anchor is a power card: only with the chaining rule, only power cards, in a line
    if not chain or card.kind != POWER or edge != anchor_spot[3] or on_anchor:
        return False
    return colour in edge_colours(anchor_card, anchor_spot[1], edge)


def formation_total(hand: Sequence[RCard], formation: Sequence[Spot]) -> int:
    return sum(card_value(hand[s[0]], s) for s in formation)


class TooManyFormations(Exception):
    """The hand has more formations than the caller is willing to wait for."""


def brute_force_best(
    hand: Sequence[RCard], *, chain_power_cards: bool = False, limit: int | None = None
) -> int:
    """The best total over every legal formation of ``hand`` (0 with no hero). ``limit``: give
    up (TooManyFormations) after that many distinct formations."""
    best = 0
    seen: set[frozenset[Spot]] = set()
    frontier: list[tuple[Spot, ...]] = []
    for index in range(len(hand)):
        root: Spot = (index, False, None, "", "")
        if legal_addition(hand, (), root, chain=chain_power_cards):
            frontier.append((root,))
    while frontier:
        formation = frontier.pop()
        key = frozenset(formation)
        if key in seen:
            continue
        seen.add(key)
        if limit is not None and len(seen) > limit:
            raise TooManyFormations(len(seen))
        best = max(best, formation_total(hand, formation))
        used = {s[0] for s in formation}
        for index in range(len(hand)):
            if index in used:
                continue
            card = hand[index]
            # turning a card whose two sides are alike gives the same formation: skip it
            alike = (card.left, card.left_power) == (card.right, card.right_power)
            for flipped in (False,) if alike else (False, True):
                for anchor_spot in formation:
                    anchor_card = hand[anchor_spot[0]]
                    for edge in EDGES:
                        # a shortcut only: legal_addition checks every rule again
                        shown = edge_colours(anchor_card, anchor_spot[1], edge) & edge_colours(
                            card, flipped, other(edge)
                        )
                        for colour in sorted(shown):
                            spot: Spot = (index, flipped, anchor_spot[0], edge, colour)
                            if legal_addition(hand, formation, spot, chain=chain_power_cards):
                                frontier.append((*formation, spot))
    return best


def check_formation(
    hand: Sequence[RCard], formation: Formation, *, chain_power_cards: bool = False
) -> list[str]:
    """Why the solver's formation is not legal or not worth its stated power (empty: fine)."""
    problems: list[str] = []
    placed: list[Spot] = []
    for p in formation.placements:
        spot: Spot = (p.card, p.flipped, p.anchor, p.edge, p.colour)
        if p.kind != hand[p.card].kind:
            problems.append(f"card {p.card} is a {hand[p.card].kind}, not a {p.kind}")
        if not legal_addition(hand, placed, spot, chain=chain_power_cards):
            problems.append(f"illegal placement {spot}")
        elif card_value(hand[p.card], spot) != p.value:
            problems.append(f"card {p.card} counts {card_value(hand[p.card], spot)}, not {p.value}")
        placed.append(spot)
    if formation.power != formation_total(hand, placed) and not problems:
        problems.append(f"total {formation_total(hand, placed)} != {formation.power}")
    chain_cards = [p.card for p in formation.placements if p.kind != POWER]
    if sorted(formation.row) != sorted(chain_cards):
        problems.append(f"row {formation.row} does not hold the heroes and teamwork")
    return problems
