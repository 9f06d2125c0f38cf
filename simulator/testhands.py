"""Test hands and exact odds, dealt by each game's own opening rules (pure Python, no Django).

- ``deal``: one shuffle of the draw zone's pile from the seed, then the opening hand and each
  turn's draws in the order the game's ``DrawSchedule`` gives; a seed always deals the same
  cards, so a hand can be shared as a link and replayed;
- ``game_setup``: a game's schedule, its note, the schedule numbers a player may change
  (Mattsan's unpublished opening hand, Monster Hunter's cards used a turn, Unmatched's
  maneuvers a turn) and what happens when the deck runs out;
- ``Group`` / ``parse_group``: "which cards" an odds question asks about, written
  ``card:<code>``, ``type:<type>``, ``attr:<key>=<value>`` or ``attr:<key>>=<n>``;
- ``group_odds``: the exact chance to have seen at least *k* of them by each turn;
- ``best_formation_for`` / ``best_attack_for``: the Recharge and Unmatched boxes of a test
  hand, when those games' solvers are installed.

User-facing strings are marked with ``N_`` and translated by the Django side when shown.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import ModuleType
from typing import Any, Literal

from scipy.stats import hypergeom

from simulator.engine.cards import SimCard, SimDeck
from simulator.engine.i18n import N_
from simulator.engine.odds import OddsError, TurnOdds, at_least
from simulator.engine.params import Param, ParamSpec
from simulator.engine.registry import schedule_for
from simulator.engine.rng import MAX_SEED
from simulator.engine.schedule import DrawSchedule

__all__ = [
    "MAX_DEAL_TURNS",
    "MAX_K",
    "MAX_ODDS_TURNS",
    "MAX_SEED",
    "AttackView",
    "Deal",
    "FacetRule",
    "FormationView",
    "GameSetup",
    "Group",
    "GroupError",
    "GroupOdds",
    "TurnDraw",
    "best_attack_for",
    "best_formation_for",
    "deal",
    "game_setup",
    "group_odds",
    "group_size",
    "parse_group",
    "turn_odds",
]

#: a test hand can be followed this far: far enough to empty a 50-card Recharge deck drawn
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


# --- Each game's schedule, note and adjustable numbers ---------------------------------------

_OPENING = Param(
    "opening",
    N_("Opening hand"),
    "int",
    5,
    minimum=1,
    maximum=10,
    help=N_("The starting hand size is not published: 5 is our default."),
)
#: schedule numbers a player may change, by game (a game module may declare its own
#: ``SCHEDULE_PARAMS`` instead); the defaults come from the game's schedule
_SCHEDULE_PARAMS: dict[str, tuple[Param, ...]] = {
    # mattsan.md:22-24: the starting hand size is not published
    "mattsan": (_OPENING,),
    # monster-hunter.md:45: the hand is refilled to 6, so a turn draws what the last one used
    "monster-hunter": (
        Param(
            "per_turn",
            N_("Cards used a turn"),
            "int",
            2,
            minimum=0,
            maximum=6,
            help=N_("The hand is refilled to 6 each turn: a turn draws what the last one used."),
        ),
    ),
    # unmatched.md:26-27: two actions a turn, and each maneuver draws 1
    "unmatched": (
        Param(
            "per_turn",
            N_("Maneuvers a turn"),
            "int",
            1,
            minimum=0,
            maximum=2,
            help=N_("A turn is two actions; each maneuver draws 1 card."),
        ),
    ),
}

#: what running out means, by game (digest lines cited in the text players read)
_EMPTY_DECK_NOTES: dict[str, str] = {
    "unmatched": N_(
        "The deck is empty: there is no reshuffle, and you take 2 damage for each card you "
        "cannot draw (unmatched.md:37)."
    ),
    "mattsan": N_("The deck is empty: having to draw from it loses the game (mattsan.md:18)."),
    "ouka-fushin": N_(
        "The deck is empty: the game ends at the start of your next turn (deck-out, "
        "ouka-fushin.md:56)."
    ),
    "recharge": N_(
        "The deck is empty: with no playable card left you lose the game (recharge.md:53)."
    ),
    "monster-hunter": N_(
        "The deck is empty: you retreat (+1 retreat) and shuffle your discard pile into a new "
        "deck (monster-hunter.md:59); test hands do not keep a discard pile."
    ),
}
_EMPTY_DECK = N_("The deck is empty.")
#: Unmatched deals fatigue damage for each card not drawn (unmatched.md:37)
_DAMAGE_PER_MISSING_CARD = {"unmatched": 2}


@dataclass(frozen=True)
class GameSetup:
    """How a game deals: its schedule (with the defaults), the note shown beside it, the
    numbers a player may change, and what an empty deck means."""

    slug: str
    schedule: DrawSchedule
    note: str
    params: ParamSpec
    empty_note: str
    damage_per_missing_card: int = 0

    def schedule_with(self, values: Mapping[str, Any]) -> DrawSchedule:
        """The schedule with the player's (already cleaned) numbers."""
        changes = {p.name: values[p.name] for p in self.params.params if p.name in values}
        return replace(self.schedule, **changes) if changes else self.schedule


def _optional_module(name: str) -> ModuleType | None:
    """``name`` if it is installed. A module that exists but fails to import still raises:
    a colleague's broken solver should be seen, not silently hidden."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        return None


def _game_module(slug: str) -> ModuleType | None:
    # The registry finds modules by GAME_SLUG but does not expose their notes and parameters,
    # so the module is looked up by its conventional name and checked the same way.
    module = _optional_module(f"simulator.games.{slug.replace('-', '_')}")
    return module if getattr(module, "GAME_SLUG", None) == slug else None


def _with_default(param: Param, schedule: DrawSchedule) -> Param:
    """The parameter's default is the schedule's own number, so the two never disagree."""
    default = getattr(schedule, param.name, param.default)
    return replace(param, default=default)


def game_setup(slug: str) -> GameSetup:
    """How ``slug`` deals; LookupError for a game without a schedule."""
    module = _game_module(slug)
    schedule = schedule_for(slug)
    note = str(getattr(module, "SCHEDULE_NOTE", ""))
    declared = getattr(module, "SCHEDULE_PARAMS", None) if module else None
    params = tuple(declared) if declared is not None else _SCHEDULE_PARAMS.get(slug, ())
    return GameSetup(
        slug=slug,
        schedule=schedule,
        note=note,
        params=ParamSpec(tuple(_with_default(p, schedule) for p in params)),
        empty_note=_EMPTY_DECK_NOTES.get(slug, _EMPTY_DECK),
        damage_per_missing_card=_DAMAGE_PER_MISSING_CARD.get(slug, 0),
    )


#: every schedule parameter any game takes: one sent to a game that does not take it is refused
SCHEDULE_PARAM_NAMES = ("opening", "per_turn")


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
        # only cards that can be drawn: a hunter or a hero's character card never is
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


# --- The Recharge and Unmatched boxes --------------------------------------------------------


@dataclass(frozen=True)
class FormationView:
    """Recharge: the best formation the hand can build, as the page shows it."""

    total: int
    #: the hero-teamwork row from left to right, by name
    row: tuple[str, ...]
    #: the power cards on the heroes' edges: (name, the value its touching side counts)
    powers: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class AttackView:
    """Unmatched: the hand's strongest attack, as the page shows it."""

    card: str
    value: int
    #: who may play it, as printed ("any" for any fighter)
    fighter: str


def best_formation_for(deck: SimDeck, hand: Sequence[int]) -> FormationView | None:
    """The best Recharge formation of ``hand`` (card indexes), or None while the solver
    (simulator/games/recharge_solver.py) is not installed or the hand builds none."""
    solver = _optional_module("simulator.games.recharge_solver")
    if solver is None or not hand:
        return None
    cards = [deck.cards[i] for i in hand]
    rcards = [
        solver.card_from_attributes(c.card_type, c.attributes, variant=c.variant, name=c.name)
        for c in cards
    ]
    # the basic rules: power cards do not chain (recharge.md:20, an optional rule)
    formation = solver.best_formation(rcards, chain_power_cards=False)
    if not formation.exists:
        return None
    return FormationView(
        total=int(formation.power),
        row=tuple(cards[i].name for i in formation.row),
        powers=tuple(
            (cards[p.card].name, int(p.value))
            for p in formation.placements
            if p.kind == solver.POWER
        ),
    )


def best_attack_for(deck: SimDeck, hand: Sequence[int]) -> AttackView | None:
    """The strongest Unmatched attack in ``hand`` (card indexes) by the goldfish policy, or
    None while the engine (simulator/games/unmatched.py) is not installed or no fighter of
    the deck can attack with the hand."""
    unmatched = _optional_module("simulator.games.unmatched")
    engine = getattr(unmatched, "ENGINE", None)
    solve = getattr(unmatched, "best_attack", None)
    if engine is None or solve is None or not hand:
        return None
    attack = solve(list(hand), engine.prepare(deck, engine.params.clean({})))
    if attack is None:
        return None
    index, value = attack
    card = deck.cards[index]
    return AttackView(
        card=card.name, value=int(value), fighter=str(card.attributes.get("fighter", ""))
    )
