"""Test hands and exact odds, dealt by each game's own opening rules (pure Python, no Django).

- ``deal``: one shuffle of the draw zone's pile from the seed, then the opening hand and each
  turn's draws in the order the game's ``DrawSchedule`` gives; a seed always deals the same
  cards, so a hand can be shared as a link and replayed;
- ``game_setup``: how a game deals, as its package declares it (``simulator.engine.setup``);
- ``Group`` / ``parse_group``: "which cards" an odds question asks about, written
  ``card:<code>``, ``type:<type>``, ``attr:<key>=<value>`` or ``attr:<key>>=<n>``;
- ``group_odds``: the exact chance to have seen at least *k* of them by each turn.

What a game shows beside a hand (the best play it allows, say) are its
panels (``simulator.testhands.panels``), declared in the game's ``testhand.py``.

User-facing strings are marked with ``N_`` and translated by the Django side when shown.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from scipy.stats import hypergeom

from games import registry
from simulator.engine.cards import SimCard, SimDeck
from simulator.engine.i18n import N_
from simulator.engine.odds import OddsError, TurnOdds, at_least
from simulator.engine.rng import MAX_SEED
from simulator.engine.schedule import DrawSchedule
from simulator.engine.setup import SCHEDULE_PARAM_NAMES, GameSetup

__all__ = [
    "MAX_DEAL_TURNS",
    "MAX_K",
    "MAX_ODDS_TURNS",
    "MAX_SEED",
    "SCHEDULE_PARAM_NAMES",
    "Deal",
    "FacetRule",
    "GameSetup",
    "Group",
    "GroupError",
    "GroupOdds",
    "TurnDraw",
    "deal",
    "game_setup",
    "group_odds",
    "group_size",
    "parse_group",
    "turn_odds",
]

#: a test hand can be followed this far: far enough to empty a 50-card deck drawn
#: one card a turn, and the bound every goldfish engine already respects
MAX_DEAL_TURNS = 60
#: the odds panel's bounds (the brief's "at least k, 1-10, up to turn 0-30")
MAX_K = 10
MAX_ODDS_TURNS = 30


# --- Dealing ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class TurnDraw:
    """What one turn drew (turn 0: the opening hand): card indexes into ``SimDeck.cards``."""

    turn: int
    cards: tuple[int, ...]
    #: how many the schedule asked for; more than ``len(cards)`` once the deck is empty
    wanted: int

    @property
    def missing(self) -> int:
        return self.wanted - len(self.cards)


@dataclass(frozen=True)
class Deal:
    seed: int
    schedule: DrawSchedule
    #: cards in the draw pile before the shuffle
    deck_size: int
    #: turn 0 (the opening hand) to the last turn dealt, in order
    draws: tuple[TurnDraw, ...]

    @property
    def opening(self) -> TurnDraw:
        return self.draws[0]

    @property
    def turns(self) -> int:
        return len(self.draws) - 1

    @property
    def hand(self) -> list[int]:
        """Every card seen so far, in the order drawn (test hands play nothing)."""
        return [index for draw in self.draws for index in draw.cards]

    @property
    def remaining(self) -> int:
        return self.deck_size - sum(len(draw.cards) for draw in self.draws)

    @property
    def missing(self) -> int:
        """Cards the schedule asked for that the empty deck could not give."""
        return sum(draw.missing for draw in self.draws)

    @property
    def ran_out_at(self) -> int | None:
        """The first turn that could not draw all it should have, if any."""
        return next((d.turn for d in self.draws if d.missing), None)


def deal(deck: SimDeck, *, seed: int, turns: int, schedule: DrawSchedule) -> Deal:
    """The opening hand and ``turns`` turns of draws from ``deck``'s draw zone.

    The pile is shuffled exactly once, by ``random.Random(seed)`` (never the module-level
    generator), and cards are then taken from its top in the schedule's order, so turn *t*
    of a seed is the same whether it is dealt alone or after turns 1..t-1. Nothing is ever
    drawn twice, and an empty deck gives fewer cards than asked (``TurnDraw.missing``).
    """
    if turns < 0:
        raise ValueError("turns cannot be negative")
    pile = deck.pile()
    random.Random(seed).shuffle(pile)
    draws: list[TurnDraw] = []
    top = 0
    for turn in range(turns + 1):
        wanted = max(0, schedule.drawn_at_turn(turn))
        taken = tuple(pile[top : top + wanted])
        top += len(taken)
        draws.append(TurnDraw(turn=turn, cards=taken, wanted=wanted))
    return Deal(seed=seed, schedule=schedule, deck_size=len(pile), draws=tuple(draws))


# --- Each game's setup -----------------------------------------------------------------------


def game_setup(slug: str) -> GameSetup:
    """How ``slug`` deals (its ``schedule.py``'s ``SETUP``); LookupError for a game without."""
    return registry.get(slug).setup


# --- Groups: which cards an odds question counts ---------------------------------------------

GroupKind = Literal["card", "type", "attr"]
GroupOp = Literal["=", ">="]

# Messages: translated by the Django side (``gettext(error.message) % error.params``).
GROUP_SYNTAX = N_(
    "Write the group as card:<code>, type:<type>, attr:<key>=<value> or attr:<key>>=<number>."
)
GROUP_UNKNOWN_CARD = N_("This deck's draw pile has no card “%(code)s”.")
GROUP_UNKNOWN_TYPE = N_("This game has no card type “%(type)s”; its types are %(known)s.")
GROUP_UNKNOWN_ATTRIBUTE = N_(
    "This game has no attribute “%(key)s” to count by; its attributes are %(known)s."
)
GROUP_NO_ATTRIBUTES = N_("This game has no attributes to count by.")
GROUP_NOT_A_RANGE = N_("“%(key)s” is not a number: count it with = and one of its values.")
GROUP_NOT_A_NUMBER = N_("“%(key)s” is compared with a whole number, not “%(value)s”.")
GROUP_UNKNOWN_VALUE = N_("“%(key)s” has no value “%(value)s”; its values are %(known)s.")


class GroupError(ValueError):
    """A group that cannot be read; ``message`` is an untranslated N_ string."""

    def __init__(self, message: str, **params: Any) -> None:
        self.message = message
        self.params = params
        super().__init__(message % params if params else message)


@dataclass(frozen=True)
class FacetRule:
    """What ``parse_group`` needs of a catalog facet (its kind and, for choices, the codes)."""

    key: str
    kind: Literal["choice", "list", "range", "bool"]
    values: tuple[str, ...] = ()


@dataclass(frozen=True)
class Group:
    kind: GroupKind
    #: the card code, the card type, or the attribute key
    key: str
    op: GroupOp = "="
    #: the attribute's value ("true"/"false" for yes/no attributes, digits for numbers)
    value: str = ""

    def __str__(self) -> str:
        if self.kind == "attr":
            return f"attr:{self.key}{self.op}{self.value}"
        return f"{self.kind}:{self.key}"

    def matches(self, card: SimCard) -> bool:
        if self.kind == "card":
            return card.code == self.key
        if self.kind == "type":
            return card.card_type == self.key
        found = card.attributes.get(self.key)
        if found is None:
            return False
        if self.op == ">=":
            return (
                isinstance(found, int) and not isinstance(found, bool) and found >= int(self.value)
            )
        if isinstance(found, bool):
            return ("true" if found else "false") == self.value
        if isinstance(found, list | tuple):
            return self.value in {str(item) for item in found}
        return str(found) == self.value


def _known(values: Collection[str]) -> str:
    return ", ".join(sorted(values)) or "—"


def _parse_attr(text: str, facets: Mapping[str, FacetRule]) -> Group:
    op: GroupOp = ">=" if ">=" in text else "="
    key, sep, value = text.partition(op)
    key, value = key.strip(), value.strip()
    if not sep or not key or not value:
        raise GroupError(GROUP_SYNTAX)
    if not facets:
        raise GroupError(GROUP_NO_ATTRIBUTES)
    rule = facets.get(key)
    if rule is None:
        raise GroupError(GROUP_UNKNOWN_ATTRIBUTE, key=key, known=_known(facets))
    if rule.kind == "range":
        # a number compares as a number, with = or >=
        if not value.isdigit():
            raise GroupError(GROUP_NOT_A_NUMBER, key=key, value=value)
        return Group("attr", key, op, str(int(value)))
    if op == ">=":
        raise GroupError(GROUP_NOT_A_RANGE, key=key)
    if rule.kind == "bool":
        value = value.lower()
        if value not in {"true", "false"}:
            raise GroupError(GROUP_UNKNOWN_VALUE, key=key, value=value, known="true, false")
    elif value not in rule.values:
        raise GroupError(GROUP_UNKNOWN_VALUE, key=key, value=value, known=_known(rule.values))
    return Group("attr", key, "=", value)


def parse_group(
    text: str,
    *,
    deck: SimDeck,
    types: Collection[str],
    facets: Mapping[str, FacetRule],
) -> Group:
    """The group ``text`` names, checked against the deck (cards), the game's card types
    and its facets (attributes); GroupError says what is wrong."""
    kind, sep, rest = text.strip().partition(":")
    rest = rest.strip()
    if not sep or not rest:
        raise GroupError(GROUP_SYNTAX)
    if kind == "card":
        # only cards that can be drawn: a card in a zone beside the deck never is
        if not any(deck.cards[i].code == rest for i, _n in deck.zones.get(deck.draw_zone, ())):
            raise GroupError(GROUP_UNKNOWN_CARD, code=rest)
        return Group("card", rest)
    if kind == "type":
        if rest not in types:
            raise GroupError(GROUP_UNKNOWN_TYPE, type=rest, known=_known(types))
        return Group("type", rest)
    if kind == "attr":
        return _parse_attr(rest, facets)
    raise GroupError(GROUP_SYNTAX)


def group_size(deck: SimDeck, group: Group) -> int:
    """Copies of the group's cards in the draw pile."""
    return sum(n for i, n in deck.zones.get(deck.draw_zone, ()) if group.matches(deck.cards[i]))


def turn_odds(
    k: int, *, group: int, deck: int, schedule: DrawSchedule, turns: int
) -> list[TurnOdds]:
    """``simulator.engine.odds.by_turn``, value for value, with the hypergeometric survival
    function evaluated for every turn in one vectorised call: scipy's per-call overhead made
    31 scalar calls most of an odds answer's 20 ms. The same checks and the same boundary
    cases as ``at_least`` (k = 0 is certain; more than the group or than the cards seen is
    impossible); the tests hold the two equal."""
    if not 0 <= turns <= 100:
        raise OddsError("turns", "turns must be between 0 and 100")
    at_least(k, group=group, deck=deck, seen=0)  # its argument checks, nothing more
    seen = [max(0, min(schedule.seen_by_turn(turn), deck)) for turn in range(turns + 1)]
    if k == 0:
        chances = [1.0] * len(seen)
    else:
        values = hypergeom.sf(k - 1, deck, group, seen) if k <= group else [0.0] * len(seen)
        chances = [0.0 if k > n else float(v) for n, v in zip(seen, values, strict=True)]
    return [TurnOdds(turn, n, p) for turn, (n, p) in enumerate(zip(seen, chances, strict=True))]


@dataclass(frozen=True)
class GroupOdds:
    group: Group
    k: int
    size: int
    deck_size: int
    schedule: DrawSchedule
    rows: tuple[TurnOdds, ...] = field(default_factory=tuple)


def group_odds(
    deck: SimDeck, group: Group, *, k: int, schedule: DrawSchedule, turns: int
) -> GroupOdds:
    """The exact chance to have seen at least ``k`` of ``group`` by each turn 0..``turns``:
    hypergeometric over the draw pile, with the cards seen by each turn from ``schedule``."""
    size = group_size(deck, group)
    rows = turn_odds(k, group=size, deck=deck.size, schedule=schedule, turns=turns)
    return GroupOdds(group, k, size, deck.size, schedule, tuple(rows))
