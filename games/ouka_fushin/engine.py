"""央華封神 TCG: the goldfish engine (rules digest: shared/rules/ouka-fushin.md, cited as
"ouka-fushin.md:<line>"; the Japanese seed shared/seeds/001_c69c72f9df20aae7.txt wins where they
differ, cited as "seed:<line>").

What a game is here. Set-up: the protagonist starts at destiny 1 (seed:219); with
``mirror_match`` the opponent brought the same protagonist, a dice-off decides who substitutes,
and substituting swaps the protagonist's character cards in the deck for spares and gives 50
points (ouka-fushin.md:43-44, seed:64-66); without a substitute the game is lost
(ouka-fushin.md:40, 52). Shuffle, draw 6 (ouka-fushin.md:45). Each of our turns:

1. start: an empty deck ends the game (deck-out), else draw 2, or what is left
   (ouka-fushin.md:56, seed:83-85);
2. immortal phase: one character card grows the protagonist (same character, destiny + 1),
   grows an immortal (same, + 1) or is placed as a new immortal (destiny 1, an empty slot of the
   four beside the protagonist's, a character nobody has on the field) (ouka-fushin.md:57-59,
   seed:89-95, 186);
3. story phase: one non-accident story whose prerequisite keywords are on the field; d6 + the
   protagonist's ability at its destiny >= the target succeeds, a story with no target needs no
   roll; a failed roll of 1-3 may be turned into 6-5-4 by a hidden success, giving the opponent
   10 points (ouka-fushin.md:60-65, seed:99-146, 196-204). The story goes on an empty story slot,
   or on top of the own story it used as prerequisite (seed:272-273); the same card cannot be on
   the field twice (seed:275);
4. climax: when its keywords are on our open stories (ouka-fushin.md:70, seed:279-280); it ends
   the turn and the round (seed:79, 284); several may be played at once (seed:80);
5. end: discard or draw to exactly 6 (ouka-fushin.md:68, seed:157).

A round scores our open stories' points + the climaxes' bonus (ouka-fushin.md:71, seed:162);
the climax then sits on one of its condition slots with the condition stories under it, no more
usable (seed:166, 285-287). After rounds 1-2: cards may be taken back from the discard pile,
then the hand is discarded or drawn to 6, and the opponent starts the next round
(ouka-fushin.md:72-74, seed:167-173). A deck-out round scores nothing and costs d6 x 10
(ouka-fushin.md:72, seed:163-165). Missions are scored at the end (ouka-fushin.md:19-20,
seed:176, 233-234). The goldfish opponent never reacts and plays nothing (ouka-fushin.md:77).

The policy (parameters where the digest leaves the player a choice, see ``OukaEngine.params``):
  * immortal phase: grow the protagonist, else grow an immortal, else place one (lowest card
    index first within each);
  * story phase: among the playable stories with a chance of success, the one that makes a
    climax in hand playable, then the highest expected points (winning die faces x points), then
    the likelier, then the lowest card index; a story with a prerequisite goes on top of the
    latest own story holding it (``stacking``; or only when no slot is free), others on an
    empty slot; the ability of an "any" story is the protagonist's best;
  * hidden success: ``hidden_success`` (never / whenever it saves the check / only when the
    story is worth more than the 10 points given away or completes a climax's keywords);
  * climax: after the story phase (any earlier moment of the turn is never better here: growth
    lasts and a story can only add points), once the round would score ``climax_min_points``
    (0: at once), or when the deck is empty or every story slot is taken; the highest bonus
    first, up to ``climaxes_at_once`` together, each on its own condition stories, taking the
    covering stories worth the fewest points (the others stay open);
  * discards (end phase, round reset): the least useful card first (``card_value``); at a round
    reset with ``reclaim`` = useful, the hand becomes the 6 most useful cards of the hand and
    the discard pile, and only what is missing is drawn (this spares the deck).

Under this policy a turn uses at most 2 cards (a character, a story), so the end phase's refill
to 6 only ever discards: see ``cards_seen_by_turn`` for the exact count when more are used.

Speed: ``prepare`` turns the deck into integer tables (keywords are bit masks, card identities
bits, the winning die faces of every story at every destiny precomputed); when the state settles
in a phase it keeps only the policy's choice there (``settle``), the full list of legal actions
being built only for ``legal_actions``; ``play`` runs the same step methods as ``apply`` in the
same order, without the legality check and without transcript lines unless asked for.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.ouka_fushin.schedule import SCHEDULE
from simulator.engine.cards import SimCard, SimDeck
from simulator.engine.engine import Engine, GameState
from simulator.engine.i18n import N_
from simulator.engine.metrics import Metrics
from simulator.engine.params import Param, ParamSpec

GAME_SLUG = "ouka-fushin"
DIGEST = "ouka-fushin.md"

OPENING_HAND = 6  # ouka-fushin.md:45
HAND_LIMIT = 6  # ouka-fushin.md:45, 68
DRAW_PER_TURN = 2  # ouka-fushin.md:56
STORY_SLOTS = 5  # ouka-fushin.md:47
IMMORTAL_SLOTS = 4  # ouka-fushin.md:47: 5 character slots, one the protagonist's (seed:215)
MAX_DESTINY = 3  # ouka-fushin.md:16
ROUNDS = 3  # ouka-fushin.md:50
HIDDEN_SUCCESS_GIFT = 10  # ouka-fushin.md:63-64
SUBSTITUTE_BONUS = 50  # ouka-fushin.md:44
DECK_OUT_PENALTY = 10  # x d6, ouka-fushin.md:72

MAIN_ZONE = "main"
PROTAGONIST_ZONE = "protagonist"
SUBSTITUTE_ZONE = "substitute"
SPARES_ZONE = "spares"
MISSIONS_ZONE = "missions"

# Card kinds in the tables.
K_OTHER, K_CHARACTER, K_STORY, K_CLIMAX, K_ACCIDENT = range(5)
# Abilities (catalog/games/ouka_fushin.py ABILITIES); ANY: the player picks (seed:103).
ABILITIES = ("combat", "exploration", "negotiation")
ANY = 3
NO_CHECK = -100  # the "need" of a story without a target: every face succeeds, no roll

# Phases of the state API.
P_START, P_IMMORTAL, P_STORY, P_HIDDEN, P_CLIMAX, P_END, P_RESET, P_RESET_DISCARD, P_OVER = range(9)

CHARACTER_ACTIONS = ("grow", "grow_immortal", "place")
NEW_SLOT = (-1,)  # where a story without a prerequisite goes: an empty slot

# Parameter choices.
HIDDEN_NEVER, HIDDEN_ALWAYS, HIDDEN_NET = "never", "always", "net_gain"
RECLAIM_USEFUL, RECLAIM_NONE = "useful", "none"
MIRROR_NO, MIRROR_DICE, MIRROR_LOSE = "no", "dice_off", "lose"
MATCH_ANY, MATCH_ALL = "any", "all"
STACK_PREREQUISITE, STACK_WHEN_FULL = "on_prerequisite", "when_full"

# How a game began (substitution).
SUB_NONE, SUB_DONE, SUB_CANNOT = 0, 1, 2

Action = tuple[Any, ...]

# Metric names (the Django side reads them; keep them stable).
M_ROUND_PREFIX = "points_round:"
M_TOTAL = "points_total"
M_MISSION_POINTS = "points_missions"
M_SUBSTITUTE_POINTS = "points_substitute"
M_OPPONENT = "opponent_points"
M_MARGIN = "points_margin"
M_CLIMAX_TURN_PREFIX = "climax_turn:"
M_CLIMAXES = "climaxes_played"
M_ROUNDS = "rounds_scored"
M_COMPLETE = "game_complete"
M_ATTEMPTED = "stories_attempted"
M_SUCCEEDED = "stories_succeeded"
M_CHECKS = "checks_rolled"
M_CHECKS_PASSED = "checks_passed_by_die"
M_HIDDEN = "hidden_successes"
M_HIDDEN_USED = "hidden_success_used"
M_MISSION_PREFIX = "mission_done:"
M_DECK_OUT = "deck_out"
M_DECK_OUT_TURN = "deck_out_turn"
M_DECK_OUT_PENALTY = "deck_out_penalty"
M_SUBSTITUTED = "substituted"
M_CANNOT_SUBSTITUTE = "cannot_substitute"
M_TURN_LIMIT = "turn_limit"
M_TURNS = "turns"
M_SEEN = "cards_seen"
M_END_DRAWS = "end_phase_draws"
M_RESET_DRAWS = "round_reset_draws"
M_USED = "cards_used_in_turn"
M_DESTINY = "protagonist_destiny"

ROUND_KEYS = tuple(f"{M_ROUND_PREFIX}{r}" for r in range(1, ROUNDS + 1))
#: the per-game values ``record`` adds as sums (means with intervals), in its order
SUM_KEYS = (
    *(f"{M_ROUND_PREFIX}{r}" for r in range(1, ROUNDS + 1)),
    M_TOTAL,
    M_MISSION_POINTS,
    M_SUBSTITUTE_POINTS,
    M_OPPONENT,
    M_MARGIN,
    M_CLIMAXES,
    M_ATTEMPTED,
    M_SUCCEEDED,
    M_CHECKS,
    M_CHECKS_PASSED,
    M_HIDDEN,
    M_DECK_OUT_PENALTY,
    M_SEEN,
    M_END_DRAWS,
    M_RESET_DRAWS,
)
CLIMAX_TURN_KEYS = tuple(f"{M_CLIMAX_TURN_PREFIX}{r}" for r in range(1, ROUNDS + 1))


def mission_key(number: int) -> str:
    """``mission_done:1``: the missions in the order of the deck's missions zone."""
    return f"{M_MISSION_PREFIX}{number}"


def cards_seen_by_turn(turn: int, used_per_turn: int) -> int:
    """Cards seen (the opening hand and every draw) once ``turn``'s start-of-turn draw is done,
    when each turn uses ``used_per_turn`` cards from the hand before its end phase.

    The opening hand is 6 (ouka-fushin.md:45); every turn, the first player's first included
    (ouka-fushin.md:46, seed:44), starts by drawing 2 (ouka-fushin.md:56), so the hand holds 8;
    the end phase then discards or draws to exactly 6 (ouka-fushin.md:68, seed:157), which
    draws ``used_per_turn - 2`` cards when more than 2 were used and none otherwise. The
    refills of turns 1 .. turn-1 come before turn's draw:
    ``6 + 2 * turn + (turn - 1) * max(0, used_per_turn - 2)`` (turn 0: the opening hand).
    Assumes the deck does not run out and no round ends (a climax's round reset refills the
    hand too, ouka-fushin.md:73). A turn cannot use more than the 8 cards of its hand.
    """
    if turn < 0 or not 0 <= used_per_turn <= HAND_LIMIT + DRAW_PER_TURN:
        raise ValueError("turn must be >= 0 and used_per_turn between 0 and 8")
    if turn == 0:
        return OPENING_HAND
    refill = max(0, used_per_turn - DRAW_PER_TURN)
    return OPENING_HAND + DRAW_PER_TURN * turn + refill * (turn - 1)


# --- what every game of a run shares -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Protagonist:
    """A protagonist's facts: its character id and (combat, exploration, negotiation) at each
    destiny level (index 0 unused), ouka-fushin.md:15-17."""

    card: int
    name: str
    character: int
    abilities: tuple[tuple[int, int, int], ...]


@dataclass(frozen=True, slots=True)
class OukaPrepared:
    """Per-card integer tables indexed by card index, and the run's cleaned parameters."""

    deck: SimDeck
    names: tuple[str, ...]
    kind: tuple[int, ...]
    #: one bit per distinct card code: "the same card" (seed:275, 283)
    uid: tuple[int, ...]
    #: keyword bit masks: a story's keywords, its prerequisites; a climax's conditions
    kw: tuple[int, ...]
    pre: tuple[int, ...]
    cond: tuple[int, ...]
    target: tuple[int, ...]
    ability: tuple[int, ...]
    points: tuple[int, ...]
    #: a climax's bonus (+ its extra bonus when ``extra_bonus`` is on)
    bonus: tuple[int, ...]
    #: the policy's keep value of a story (100 + points) or climax (400 + bonus); others 0
    static_value: tuple[int, ...]
    #: a climax's type as a bit (missions, ouka-fushin.md:19-20, 31)
    ctype: tuple[int, ...]
    character: tuple[int, ...]
    destiny: tuple[int, ...]
    keywords: tuple[str, ...]
    climax_types: tuple[str, ...]
    #: [0] our protagonist, [1] the substitute (absent: no substitute set)
    protagonists: tuple[Protagonist, ...]
    #: [0] the main deck; [1] the deck rebuilt for the substitute (ouka-fushin.md:44)
    piles: tuple[tuple[int, ...], ...]
    swapped: int
    #: need[protagonist][destiny][card]: the die face a story's check needs (NO_CHECK: none)
    need: tuple[tuple[tuple[int, ...], ...], ...]
    #: faces[protagonist][destiny][card]: winning faces of 6 as the policy counts them (with
    #: a hidden success when ``hidden_success`` would use it: always, or for "net_gain" the
    #: stories worth more than the gift; completing a climax is checked in play)
    faces: tuple[tuple[tuple[int, ...], ...], ...]
    #: the same with a hidden success, whatever the policy
    hidden: tuple[tuple[tuple[int, ...], ...], ...]
    #: (name, climax types mask, bonus) of each mission
    missions: tuple[tuple[str, int, int], ...]
    hidden_policy: str
    climax_min: int
    at_once: int
    stack: bool
    reclaim: bool
    mirror: str
    prereq_all: bool
    mission_all: bool
    completed_score: bool
    max_turns: int
    mission_keys: tuple[str, ...]


def plain_faces(need: int) -> int:
    """Die faces (of 6) that pass a check needing ``need`` (ouka-fushin.md:62)."""
    return 6 if need <= 1 else max(0, 7 - need)


def hidden_faces(need: int) -> int:
    """Die faces that pass when a hidden success turns a failed 1/2/3 into 6/5/4
    (ouka-fushin.md:63, seed:200-204)."""
    return sum(1 for face in range(1, 7) if face >= need or (face <= 3 and 7 - face >= need))


def roll(rng: random.Random) -> int:
    """One d6 from the game's generator (the only way the engine rolls)."""
    return int(rng.random() * 6) + 1


def shuffle(cards: list[int], rng: random.Random) -> None:
    """The game's shuffle, in place: Fisher-Yates on ``rng.random()`` (a few times faster than
    ``random.shuffle``'s exact integer draws, and as determined by the seed)."""
    draw = rng.random
    for i in range(len(cards) - 1, 0, -1):
        j = int(draw() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]


def popcount(mask: int) -> int:
    return bin(mask).count("1")


class Dice:
    """The game's generator, held by a state: equal when the generators' states are equal (so
    a state's fields compare by value) and deep-copied with it (so a copy rolls on its own)."""

    __slots__ = ("rng",)

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def roll(self) -> int:
        return roll(self.rng)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Dice) and self.rng.getstate() == other.rng.getstate()

    __hash__ = None  # type: ignore[assignment]

    def __deepcopy__(self, memo: dict[int, Any]) -> Dice:
        return Dice(copy.deepcopy(self.rng, memo))


# --- the policy's pure pieces (shared by the state, the fast loop and hand_plan) -----------


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
        # field; accidents answer the opponent's stories, which the goldfish never plays
        return 0 if p.uid[card] & state.onfield else p.static_value[card]
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
    static = p.static_value
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


# --- transcript lines -------------------------------------------------------------------------


def _names(p: OukaPrepared, cards: Sequence[int]) -> str:
    return ", ".join(p.names[c] for c in cards) or "-"


def _keywords(p: OukaPrepared, mask: int) -> str:
    return "/".join(k for i, k in enumerate(p.keywords) if mask >> i & 1) or "-"


# --- the state ------------------------------------------------------------------------------


class OukaState(GameState):
    """One goldfish game step by step: conformance tests, transcripts, test hands, and (through
    ``_step`` without the legality check) the engine's own loop."""

    def __init__(
        self,
        prepared: OukaPrepared,
        dice: Dice,
        deck: list[int],
        prot: int,
        substitution: int,
        note: str = "",
    ) -> None:
        p = prepared
        self.prepared = p
        self.dice = dice
        self.deck = deck  # never changed after the set-up: copies may share it
        self.pos = min(OPENING_HAND, len(deck))
        self.hand = deck[: self.pos]  # ouka-fushin.md:45
        self.discard: list[int] = []
        self.groups: list[list[int]] = []  # open story groups, bottom card first
        self.gmask: list[int] = []
        self.gpts: list[int] = []
        self.kw_open = 0
        self.completed = 0  # story slots taken by climaxes
        self.completed_points = 0
        self.onfield = 0  # uid bits of the stories and climaxes on the field
        self.types = 0  # climax types on the field (missions)
        self.prot = prot
        self.prot_char = p.protagonists[prot].character if p.protagonists else -1
        # the opponent's protagonist when it is ours (we substituted): never an immortal of ours
        self.blocked = p.protagonists[0].character if prot == 1 else -1
        self.level = 1  # destiny, seed:219
        self.immortals: dict[int, int] = {}
        self.round = 1
        self.turn = 0
        self.phase = P_START
        self.over = False
        self.substitution = substitution
        self.note = note
        self.round_points = [0] * ROUNDS
        self.climax_turns = [0] * ROUNDS
        self.rounds_scored = 0
        self.climaxes = 0
        self.opponent_points = 0
        self.hidden_uses = 0
        self.attempted = 0
        self.succeeded = 0
        self.checks = 0
        self.checks_passed = 0
        self.deck_out_turn = 0
        self.deck_out_penalty = 0
        self.turn_limit = False
        self.end_draws = 0
        self.reset_draws = 0
        self.used_counts = [0] * (HAND_LIMIT + DRAW_PER_TURN + 1)
        self.used_now = 0
        self.mission_done: list[bool] = []
        self.mission_points = 0
        # the story waiting for the hidden-success decision: card, group, roll, need
        self.pending = (-1, -1, 0, 0)
        self.plan: Action = ("pass",)  # the policy's choice in the phase the state waits in
        self.lines = True

    # -- GameState API ----------------------------------------------------------------------

    def copy(self) -> OukaState:
        clone = object.__new__(OukaState)
        clone.__dict__.update(self.__dict__)
        clone.dice = copy.deepcopy(self.dice)
        clone.hand = list(self.hand)
        clone.discard = list(self.discard)
        clone.groups = [list(g) for g in self.groups]
        clone.gmask = list(self.gmask)
        clone.gpts = list(self.gpts)
        clone.immortals = dict(self.immortals)
        clone.round_points = list(self.round_points)
        clone.climax_turns = list(self.climax_turns)
        clone.used_counts = list(self.used_counts)
        clone.mission_done = list(self.mission_done)
        return clone

    def is_over(self) -> bool:
        return self.over

    def legal_actions(self) -> list[Action]:
        phase = self.phase
        if phase == P_OVER:
            return []
        if phase == P_START:
            return [("start",)]
        if phase == P_IMMORTAL:
            found = sorted(set(self._character_options()))
            return [*((CHARACTER_ACTIONS[k], c) for k, c in found), ("pass",)]
        if phase == P_STORY:
            return [*self._story_options(True)[0], ("pass",)]
        if phase == P_HIDDEN:
            return [("hidden",), ("accept",)]
        if phase == P_CLIMAX:
            return [*self._climax_combos(), ("pass",)]
        if phase in (P_END, P_RESET_DISCARD):
            if len(self.hand) > HAND_LIMIT:
                return [("discard", c) for c in sorted(set(self.hand))]
            return [("end",)]
        # P_RESET: take back any card of the discard pile (seed:170), or be done
        return [*(("reclaim", c) for c in sorted(set(self.discard))), ("done",)]

    def apply(self, action: Action) -> str:
        if action not in self.legal_actions():
            raise ValueError(f"not a legal action now: {action!r}")
        self.lines = True
        return self._step(action)

    # -- the policy -------------------------------------------------------------------------

    def policy(self) -> Action:
        """The goldfish's action in this state (see the module docstring)."""
        phase = self.phase
        if phase == P_START:
            return ("start",)
        if phase in (P_IMMORTAL, P_STORY, P_CLIMAX):
            return self.plan  # chosen when the state settled in the phase
        if phase == P_HIDDEN:
            return ("hidden",) if self._would_hide() else ("accept",)
        if phase in (P_END, P_RESET_DISCARD):
            if len(self.hand) > HAND_LIMIT:
                return ("discard", worst_card(self))
            return ("end",)
        if phase == P_RESET:
            return self._reclaim_choice()
        raise ValueError("the game is over")

    def _would_hide(self) -> bool:
        card = self.pending[0]
        policy = self.prepared.hidden_policy
        if policy == HIDDEN_ALWAYS:
            return True
        if policy == HIDDEN_NEVER:
            return False
        return self.prepared.points[card] > HIDDEN_SUCCESS_GIFT or self._completes(card)

    def _completes(self, card: int) -> bool:
        """Whether placing this story makes a climax in hand playable that was not."""
        p = self.prepared
        have = self.kw_open
        after = have | p.kw[card]
        for c in self.hand:
            if p.kind[c] == K_CLIMAX and not p.uid[c] & self.onfield:
                cond = p.cond[c]
                if cond & ~have and not cond & ~after:
                    return True
        return False

    def _reclaim_choice(self) -> Action:
        """Take back the most useful discarded card while it beats the hand's sixth best
        (ouka-fushin.md:73): the hand ends as the 6 most useful of hand + pile."""
        if not self.prepared.reclaim or not self.discard:
            return ("done",)
        best = -1
        high = 0
        for c in set(self.discard):
            key = keep_key(self, c)
            if best < 0 or key > high:
                best, high = c, key
        if high <= 0:  # its value is 0: nothing worth taking back
            return ("done",)
        if len(self.hand) < HAND_LIMIT:
            return ("reclaim", best)
        sixth = sorted((keep_key(self, c) for c in self.hand), reverse=True)[HAND_LIMIT - 1]
        return ("reclaim", best) if high > sixth else ("done",)

    # -- options of the phase the state waits in --------------------------------------------

    def _character_options(self) -> list[tuple[int, int]]:
        """Legal immortal-phase actions as (priority, card), the policy's order being the
        lowest first (ouka-fushin.md:57-59, seed:89-95): 0 grow the protagonist, 1 grow an
        immortal, 2 place an immortal (``CHARACTER_ACTIONS``)."""
        p = self.prepared
        kinds = p.kind
        found: list[tuple[int, int]] = []
        level = self.level
        immortals = self.immortals
        for c in self.hand:
            if kinds[c] != K_CHARACTER:
                continue
            character = p.character[c]
            d = p.destiny[c]
            if character == self.prot_char:
                if d == level + 1:  # seed:90: same character, destiny one higher
                    found.append((0, c))
            elif character in immortals:
                if d == immortals[character] + 1:  # seed:95
                    found.append((1, c))
            elif d == 1 and character != self.blocked and len(immortals) < IMMORTAL_SLOTS:
                found.append((2, c))  # seed:92, 186: destiny 1, an empty slot, unique character
        return found

    def _story_options(self, full: bool = False) -> tuple[list[Action], Action, bool]:
        """The story phase (ouka-fushin.md:60, seed:97-102, 267-275): the legal plays (only
        when ``full``), the policy's pick, and whether any play is legal."""
        p = self.prepared
        kinds = p.kind
        uids = p.uid
        prereqs = p.pre
        faces_row = p.faces[self.prot][self.level]
        onfield = self.onfield
        free = STORY_SLOTS - self.completed - len(self.groups)
        have = self.kw_open
        opts: list[Action] = []
        best: tuple[int, int, int, int] | None = None
        plan: Action = ("pass",)
        climaxes: list[int] | None = None
        seen = 0
        legal = False
        for c in self.hand:
            if kinds[c] != K_STORY or uids[c] & (onfield | seen):
                continue
            seen |= uids[c]  # one option per card, whatever the copies in hand
            pre = prereqs[c]
            if pre:
                # the prerequisite keywords on the field: all of them, or any one (a parameter)
                if (pre & ~have) if p.prereq_all else not (pre & have):
                    continue
                # on top of the own story used as the prerequisite (seed:273), or an empty slot;
                # the policy's pick first: the latest such group, or the slot (``stacking``)
                stacked = [g for g, mask in enumerate(self.gmask) if mask & pre]
                stacked.reverse()
                if free > 0:
                    if p.stack:
                        stacked.append(-1)
                    else:
                        stacked.insert(0, -1)
                if not stacked:
                    continue
                places: Sequence[int] = stacked
            elif free > 0:
                places = NEW_SLOT
            else:
                continue
            legal = True
            if full:
                opts.extend(("story", c, g) for g in places)
            faces = faces_row[c]
            if climaxes is None:
                climaxes = [
                    p.cond[x]
                    for x in self.hand
                    if kinds[x] == K_CLIMAX and not uids[x] & onfield and p.cond[x] & ~have
                ]
            completes = 0
            if climaxes:
                after = have | p.kw[c]
                for cond in climaxes:
                    if not cond & ~after:
                        completes = 1
                        if p.hidden_policy == HIDDEN_NET:
                            faces = p.hidden[self.prot][self.level][c]
                        break
            if not faces:
                continue
            key = (completes, faces * p.points[c], faces, -c)
            if best is None or key > best:
                best = key
                plan = ("story", c, places[0])
        opts.sort()
        return opts, plan, legal

    def _playable(self) -> list[int]:
        """Climaxes in hand whose keywords our open stories hold (ouka-fushin.md:70,
        seed:280), not used before (seed:283), the highest bonus first."""
        p = self.prepared
        kinds = p.kind
        have = self.kw_open
        found: list[int] = []
        for c in self.hand:
            if kinds[c] == K_CLIMAX and not p.cond[c] & ~have and not p.uid[c] & self.onfield:
                found.append(c)
        if not found:
            return found
        if STORY_SLOTS - self.completed - len(self.groups) <= 0:
            found = [c for c in found if p.cond[c]]  # no conditions: it needs a free slot
        bonus = p.bonus
        return sorted(set(found), key=lambda c: (-bonus[c], c))

    def _climax_plan(self, playable: list[int]) -> Action:
        """The policy's climaxes now, or a pass (hold) until the round is worth enough."""
        p = self.prepared
        free = STORY_SLOTS - self.completed - len(self.groups)
        first = playable[0]  # playable alone: its keywords are on the field
        combo = [first]
        seen = p.uid[first]
        for c in playable[1:]:
            if len(combo) >= p.at_once:
                break
            if p.uid[c] & seen:
                continue  # two copies of a climax: only one may be used (seed:283)
            if assign_climaxes(p, [*combo, c], self.gmask, self.gpts, free) is not None:
                combo.append(c)
                seen |= p.uid[c]
        if (
            p.climax_min <= 0
            or self._round_value(combo) >= p.climax_min
            or self.pos >= len(self.deck)
            or free <= 0
        ):
            return ("climax", tuple(sorted(combo)))  # the same set as the legal actions name it
        return ("pass",)

    def _round_value(self, combo: Sequence[int]) -> int:
        p = self.prepared
        stories = sum(self.gpts) + (self.completed_points if p.completed_score else 0)
        return stories + sum(p.bonus[c] for c in combo)

    def _climax_combos(self) -> list[Action]:
        """Every set of distinct playable climaxes that fit on the field together."""
        p = self.prepared
        playable = sorted(self._playable())
        free = STORY_SLOTS - self.completed - len(self.groups)
        combos: list[Action] = []
        for subset in range(1, 1 << len(playable)):
            combo = tuple(c for i, c in enumerate(playable) if subset >> i & 1)
            uids = [p.uid[c] for c in combo]
            if len(set(uids)) < len(uids):
                continue
            if assign_climaxes(p, combo, self.gmask, self.gpts, free) is not None:
                combos.append(("climax", combo))
        return combos

    def settle(self) -> None:
        """Move past phases that offer nothing to choose (the immortal phase without a usable
        character, the story phase without a playable story, no playable climax), and keep
        the policy's choice in the phase it stops at."""
        while True:
            phase = self.phase
            if phase == P_IMMORTAL:
                found = self._character_options()
                if found:
                    kind, card = min(found)
                    self.plan = (CHARACTER_ACTIONS[kind], card)
                    return
                self.phase = P_STORY
            elif phase == P_STORY:
                _opts, plan, legal = self._story_options()
                if legal:
                    self.plan = plan
                    return
                self.phase = P_CLIMAX
            elif phase == P_CLIMAX:
                playable = self._playable()
                if playable:
                    self.plan = self._climax_plan(playable)
                    return
                self.phase = P_END
            else:
                return

    # -- steps ------------------------------------------------------------------------------

    def _step(self, action: Action) -> str:
        """Play one action (legal by the caller's word); the transcript line if ``lines``."""
        kind = action[0]
        if kind == "start":
            line = self._start()
        elif kind in ("grow", "grow_immortal", "place"):
            line = self._character(kind, action[1])
        elif kind == "story":
            line = self._story(action[1], action[2])
        elif kind == "hidden" or kind == "accept":
            line = self._hidden(kind == "hidden")
        elif kind == "climax":
            line = self._climax(action[1])
        elif kind == "discard":
            line = self._discard(action[1])
        elif kind == "end":
            line = self._end()
        elif kind == "reclaim":
            line = self._reclaim(action[1])
        elif kind == "done":
            line = self._reset_done()
        elif kind == "pass":
            line = self._pass()
        else:
            raise ValueError(f"unknown action {action!r}")
        self.settle()
        return line

    def _start(self) -> str:
        p = self.prepared
        note, self.note = self.note, ""
        if self.substitution == SUB_CANNOT:  # ouka-fushin.md:40, 52
            self._finish()
            return note
        if self.turn >= p.max_turns:
            self.turn_limit = True
            self._finish()
            return f"{note}T{self.turn} turn limit reached: the game stops" if self.lines else ""
        self.turn += 1
        self.used_now = 0
        if self.pos >= len(self.deck):
            # ouka-fushin.md:56, 72: deck-out ends the game; the round scores nothing and
            # costs d6 x 10 (seed:163-165)
            face = self.dice.roll()
            self.deck_out_turn = self.turn
            self.deck_out_penalty = DECK_OUT_PENALTY * face
            self.round_points[self.round - 1] = -self.deck_out_penalty
            self.rounds_scored = self.round
            self._finish()
            if not self.lines:
                return ""
            return (
                f"{note}T{self.turn} R{self.round} deck empty at the start of the turn: deck-out,"
                f" the round scores nothing, penalty -{self.deck_out_penalty} (d6 = {face})"
            )
        drawn = self.deck[self.pos : self.pos + DRAW_PER_TURN]  # ouka-fushin.md:56
        self.pos += len(drawn)
        self.hand.extend(drawn)
        self.phase = P_IMMORTAL
        if not self.lines:
            return ""
        return (
            f"{note}T{self.turn} R{self.round} draw {_names(p, drawn)} (deck"
            f" {len(self.deck) - self.pos}) | hand: {_names(p, self.hand)}"
        )

    def _character(self, kind: str, card: int) -> str:
        p = self.prepared
        self.hand.remove(card)
        self.used_now += 1
        character = p.character[card]
        if kind == "grow":
            self.level = p.destiny[card]  # seed:90: discarded, destiny + 1
            self.discard.append(card)
            what = f"grow {p.protagonists[self.prot].name} to destiny {self.level}"
        elif kind == "grow_immortal":
            self.immortals[character] = p.destiny[card]  # seed:95: stacked on it
            what = f"grow an immortal to destiny {p.destiny[card]}"
        else:
            self.immortals[character] = 1  # seed:92
            what = "place an immortal (destiny 1)"
        self.phase = P_STORY
        return f"T{self.turn} immortal: {what} with {p.names[card]}" if self.lines else ""

    def _story(self, card: int, group: int) -> str:
        p = self.prepared
        self.hand.remove(card)
        self.used_now += 1
        self.attempted += 1
        need = p.need[self.prot][self.level][card]
        head = ""
        if self.lines:
            where = " (new slot)" if group < 0 else f" (on {p.names[self.groups[group][-1]]})"
            head = f"T{self.turn} story: {p.names[card]} [{_keywords(p, p.kw[card])}]{where}"
        if need == NO_CHECK:  # seed:131: no target, placed without a roll
            self._place(card, group)
            self.phase = P_CLIMAX
            return f"{head} no check → placed (+{p.points[card]})" if self.lines else ""
        face = self.dice.roll()  # ouka-fushin.md:62
        self.checks += 1
        check = ""
        if self.lines:
            ability = p.ability[card]
            name = "best ability" if ability == ANY else ABILITIES[ability]
            check = f" target {p.target[card]}, d6 + {name} needs {max(need, 1)}+: rolled {face}"
        if face >= need:
            self.checks_passed += 1
            self._place(card, group)
            self.phase = P_CLIMAX
            return f"{head}{check} → success (+{p.points[card]})" if self.lines else ""
        if face <= 3 and 7 - face >= need:  # a hidden success would pass (seed:200-204)
            self.pending = (card, group, face, need)
            self.phase = P_HIDDEN
            if not self.lines:
                return ""
            return f"{head}{check} → failed; a hidden success would make it {7 - face}"
        self.discard.append(card)  # seed:140
        self.phase = P_CLIMAX
        return f"{head}{check} → failed, discarded" if self.lines else ""

    def _hidden(self, use: bool) -> str:
        p = self.prepared
        card, group, face, _need = self.pending
        self.pending = (-1, -1, 0, 0)
        self.phase = P_CLIMAX
        if use:
            self.hidden_uses += 1
            self.opponent_points += HIDDEN_SUCCESS_GIFT  # seed:199
            self._place(card, group)
            if not self.lines:
                return ""
            return (
                f"T{self.turn} hidden success: {face} → {7 - face}, {p.names[card]} placed"
                f" (+{p.points[card]}); the opponent gains {HIDDEN_SUCCESS_GIFT}"
            )
        self.discard.append(card)
        return f"T{self.turn} no hidden success: {p.names[card]} discarded" if self.lines else ""

    def _place(self, card: int, group: int) -> None:
        p = self.prepared
        self.succeeded += 1
        if group < 0:
            self.groups.append([card])
            self.gmask.append(p.kw[card])
            self.gpts.append(p.points[card])
        else:  # seed:273-274: stacked; the cards below still count
            self.groups[group].append(card)
            self.gmask[group] |= p.kw[card]
            self.gpts[group] += p.points[card]
        self.kw_open |= p.kw[card]
        self.onfield |= p.uid[card]

    def _climax(self, combo: tuple[int, ...]) -> str:
        p = self.prepared
        free = STORY_SLOTS - self.completed - len(self.groups)
        masks = assign_climaxes(p, combo, self.gmask, self.gpts, free)
        if masks is None:
            raise ValueError(f"these climaxes do not fit on the field: {combo!r}")
        r = self.round
        stories = sum(self.gpts) + (self.completed_points if p.completed_score else 0)
        bonus = sum(p.bonus[c] for c in combo)
        self.round_points[r - 1] = stories + bonus  # ouka-fushin.md:71, seed:162
        self.climax_turns[r - 1] = self.turn
        self.rounds_scored = r
        self.climaxes += len(combo)
        taken = 0
        for c, mask in zip(combo, masks, strict=True):
            self.hand.remove(c)
            self.onfield |= p.uid[c]
            self.types |= p.ctype[c]
            taken |= mask
        # seed:166, 285-287: the climax sits on a condition slot, its stories under it
        consumed = [self.groups[g] for g in range(len(self.groups)) if taken >> g & 1]
        keep = [g for g in range(len(self.groups)) if not taken >> g & 1]
        self.completed += len(combo)
        self.completed_points += sum(self.gpts[g] for g in range(len(self.gpts)) if taken >> g & 1)
        self.groups = [self.groups[g] for g in keep]
        self.gmask = [self.gmask[g] for g in keep]
        self.gpts = [self.gpts[g] for g in keep]
        kw = 0
        for mask in self.gmask:
            kw |= mask
        self.kw_open = kw
        line = ""
        if self.lines:
            under = _names(p, [c for g in consumed for c in g])
            line = (
                f"T{self.turn} climax: {_names(p, combo)} on {under} → round {r} scores"
                f" {stories + bonus} (stories {stories} + climax {bonus})"
            )
        if r >= ROUNDS:  # ouka-fushin.md:50-51
            self._finish()
        else:
            self.phase = P_RESET  # seed:167-172
        return line

    def _pass(self) -> str:
        phase = self.phase
        if phase == P_IMMORTAL:
            self.phase = P_STORY
            return f"T{self.turn} immortal: pass" if self.lines else ""
        if phase == P_STORY:
            self.phase = P_CLIMAX
            return f"T{self.turn} story: pass" if self.lines else ""
        self.phase = P_END
        if not self.lines:
            return ""
        p = self.prepared
        held = self._playable()
        return (
            f"T{self.turn} climax: hold {_names(p, held)} (the round is worth"
            f" {self._round_value(held[:1])}, waiting for {p.climax_min})"
        )

    def _discard(self, card: int) -> str:
        self.hand.remove(card)
        self.discard.append(card)
        label = f"T{self.turn} end" if self.phase == P_END else f"R{self.round} end"
        line = f"{label}: discard {self.prepared.names[card]}" if self.lines else ""
        if len(self.hand) == HAND_LIMIT:
            if self.phase == P_END:
                self._end_turn()
            else:
                self._next_round()
        return line

    def _end(self) -> str:
        """Draw up to exactly 6, as far as the deck goes: the end phase (ouka-fushin.md:68,
        seed:157-158) or a round's reset (ouka-fushin.md:73, seed:171)."""
        drawn = self._refill()
        if self.phase == P_END:
            self.end_draws += len(drawn)
            prefix = f"T{self.turn} end"
            self._end_turn()
        else:
            self.reset_draws += len(drawn)
            prefix = f"R{self.round} end"
            self._next_round()
        if not self.lines:
            return ""
        return f"{prefix}: draw {_names(self.prepared, drawn)}" if drawn else f"{prefix}: hand 6"

    def _refill(self) -> list[int]:
        want = HAND_LIMIT - len(self.hand)
        drawn = self.deck[self.pos : self.pos + want] if want > 0 else []
        self.pos += len(drawn)
        self.hand.extend(drawn)
        return drawn

    def _end_turn(self) -> None:
        self.used_counts[self.used_now] += 1
        self.phase = P_START

    def _reclaim(self, card: int) -> str:
        self.discard.remove(card)  # seed:170
        self.hand.append(card)
        return f"R{self.round} end: take back {self.prepared.names[card]}" if self.lines else ""

    def _reset_done(self) -> str:
        if len(self.hand) > HAND_LIMIT:
            self.phase = P_RESET_DISCARD
            return f"R{self.round} end: hand {len(self.hand)}, discard to 6" if self.lines else ""
        return self._end()  # seed:171: draw up to 6

    def _next_round(self) -> None:
        """seed:173: the climax player's opponent starts the next round; the goldfish's turn
        does nothing, so ours comes next."""
        self.round += 1
        self.phase = P_START

    def _finish(self) -> None:
        """The game ends: missions are scored (ouka-fushin.md:19-20, seed:176, 234)."""
        p = self.prepared
        self.over = True
        self.phase = P_OVER
        self.mission_done = []
        self.mission_points = 0
        if self.substitution == SUB_CANNOT:
            self.mission_done = [False] * len(p.missions)
            return
        for _name, types, bonus in p.missions:
            if p.mission_all:
                done = bool(types) and not types & ~self.types
            else:
                done = bool(types & self.types)
            self.mission_done.append(done)
            self.mission_points += bonus if done else 0

    # -- results ----------------------------------------------------------------------------

    def total(self) -> int:
        """Our points: rounds, the substitute's 50 and the missions (ouka-fushin.md:52)."""
        bonus = SUBSTITUTE_BONUS if self.substitution == SUB_DONE else 0
        return sum(self.round_points) + bonus + self.mission_points


# --- set-up --------------------------------------------------------------------------------


def deal(p: OukaPrepared, rng: random.Random) -> OukaState:
    """The set-up (ouka-fushin.md:43-45): the dice-off when ``mirror_match`` says the opponent
    brought our protagonist, the substitution and rebuild (or the loss without a substitute),
    then the shuffle and the opening hand."""
    dice = Dice(rng)
    lose = p.mirror == MIRROR_LOSE
    note = ""
    if p.mirror == MIRROR_DICE:
        while True:  # a tie is rolled again (assumption: the digest says only "dice-off")
            ours, theirs = roll(rng), roll(rng)
            if ours != theirs:
                break
        lose = ours < theirs
        note = f"dice-off {ours} vs {theirs}: "
    if lose and len(p.protagonists) < 2:
        state = OukaState(p, dice, [], 0, SUB_CANNOT)
        state.note = f"{note}no substitute protagonist: the game is lost"
        return state
    prot = 1 if lose else 0
    deck = list(p.piles[prot])
    shuffle(deck, rng)  # the game's shuffle
    if lose:
        note += (
            f"substitute {p.protagonists[1].name}, {p.swapped} character cards swapped,"
            f" +{SUBSTITUTE_BONUS} | "
        )
    elif note:
        note += "the opponent substitutes | "
    return OukaState(p, dice, deck, prot, SUB_DONE if lose else SUB_NONE, note)


# --- the engine ------------------------------------------------------------------------------


def _int(raw: Any) -> int:
    try:
        return int(raw or 0)
    except (TypeError, ValueError):
        return 0


def _strings(raw: Any) -> list[str]:
    if isinstance(raw, str):
        return [raw] if raw else []
    return [str(x) for x in raw or () if str(x)]


class OukaEngine(Engine[OukaPrepared, OukaState]):
    slug = GAME_SLUG
    version = 1
    schedule = SCHEDULE
    max_turns = 100
    params = ParamSpec(
        (
            Param(
                "hidden_success",
                N_("Hidden success"),
                "choice",
                HIDDEN_ALWAYS,
                choices=(
                    (HIDDEN_NEVER, N_("Never")),
                    (HIDDEN_ALWAYS, N_("Whenever it saves the check")),
                    (HIDDEN_NET, N_("Only when worth the 10 points given away")),
                ),
                help=N_(
                    "After a failed check, a 1, 2 or 3 may be turned into 6, 5 or 4; each use "
                    "gives the opponent 10 points. The third choice uses it only when the story is "
                    "worth more than 10 points or completes the keywords of a climax in hand."
                ),
            ),
            Param(
                "climax_min_points",
                N_("Round points before a climax"),
                "int",
                0,
                minimum=0,
                maximum=1000,
                help=N_(
                    "A playable climax is held until the round (open stories and the climax "
                    "bonus) is worth this much; 0 plays it at once. It is played anyway when "
                    "the deck is empty or every story slot is taken."
                ),
            ),
            Param(
                "climaxes_at_once",
                N_("Climaxes played together"),
                "int",
                1,
                minimum=1,
                maximum=5,
                help=N_(
                    "Several climaxes may be played at the same moment, for one round; each "
                    "needs its own condition stories."
                ),
            ),
            Param(
                "stacking",
                N_("Where a story with a prerequisite goes"),
                "choice",
                STACK_PREREQUISITE,
                choices=(
                    (STACK_PREREQUISITE, N_("On its prerequisite story whenever it can")),
                    (STACK_WHEN_FULL, N_("In an empty slot; stacked only when none is left")),
                ),
                help=N_(
                    "A story played on one of our stories' keywords may be stacked on that "
                    "story: it keeps slots free, but a climax then takes the whole stack."
                ),
            ),
            Param(
                "reclaim",
                N_("Cards taken back at a round's end"),
                "choice",
                RECLAIM_USEFUL,
                choices=(
                    (RECLAIM_USEFUL, N_("The most useful of hand and discard pile")),
                    (RECLAIM_NONE, N_("None: refill from the deck")),
                ),
                help=N_(
                    "After rounds 1 and 2 any cards may return from the discard pile to the "
                    "hand before it is discarded or drawn to 6."
                ),
            ),
            Param(
                "mirror_match",
                N_("Opponent with the same protagonist"),
                "choice",
                MIRROR_NO,
                choices=(
                    (MIRROR_NO, N_("No")),
                    (MIRROR_DICE, N_("Yes, dice-off")),
                    (MIRROR_LOSE, N_("Yes, and we lose the dice-off")),
                ),
                help=N_(
                    "The loser of the dice-off plays its substitute protagonist, swaps its "
                    "protagonist's character cards for spares and gains 50 points; without a "
                    "substitute it loses. Assumption: a tied dice-off is rolled again."
                ),
            ),
            Param(
                "prerequisites",
                N_("Several prerequisite keywords (assumption)"),
                "choice",
                MATCH_ANY,
                choices=(
                    (MATCH_ANY, N_("Any one is enough")),
                    (MATCH_ALL, N_("All are needed")),
                ),
                help=N_(
                    "The rules name one condition keyword per story; for a card listing "
                    "several, this assumes whether one of them or all must be on the field."
                ),
            ),
            Param(
                "missions_need",
                N_("Missions with several climax types (assumption)"),
                "choice",
                MATCH_ALL,
                choices=(
                    (MATCH_ALL, N_("Every type on the field")),
                    (MATCH_ANY, N_("One type is enough")),
                ),
                help=N_(
                    "The catalog lists a mission's climax types, not its printed condition; "
                    "this assumes how they combine."
                ),
            ),
            Param(
                "extra_bonus",
                N_("Count climax extra bonuses (assumption)"),
                "bool",
                False,
                help=N_(
                    "The extra bonus's condition is printed text the catalog does not hold: "
                    "on, it is assumed met every time; off, never."
                ),
            ),
            Param(
                "completed_stories_score",
                N_("Completed stories score again (assumption)"),
                "bool",
                False,
                help=N_(
                    "Stories under an earlier climax can no longer be used or referred to; "
                    "off assumes they no longer score either, on counts them in every later "
                    "round's score."
                ),
            ),
            Param(
                "max_turns",
                N_("Turns at most"),
                "int",
                60,
                minimum=1,
                maximum=100,
                help=N_("A game still going after this many of our turns stops unfinished."),
            ),
        )
    )
    not_modelled = (
        N_(
            "The opponent: it never plays stories, accidents, climaxes or immortals, never "
            "enlarges our stories and never runs out of cards."
        ),
        N_("Accidents: they only answer the opponent's stories, so they are dead cards here."),
        N_(
            "Card text: event and effect stories, characters' special abilities and one-shot "
            "uses (仙術・仙宝), immortals' abilities and untapping."
        ),
        N_("Foreshadowing (伏線): the policy never places a face-down card."),
        N_("Recruitment checks: the goldfish opponent has no immortals to recruit."),
        N_(
            "Climax extra-bonus conditions (see the parameter) and the tie-breaks of the final "
            "score."
        ),
        N_("Choosing the first player: with no reactions, going first or second plays alike."),
    )
    cites = tuple(
        f"{DIGEST}:{line}"
        for line in (
            15, 16, 17, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 38, 39, 40, 43,
            44, 45, 46, 47, 50, 51, 52, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 68, 70, 71,
            72, 73, 74, 77,
        )
    )  # fmt: skip
    metric_labels = {
        M_ROUND_PREFIX: N_("Points in round"),
        M_TOTAL: N_("Total points"),
        M_MISSION_POINTS: N_("Mission points"),
        M_SUBSTITUTE_POINTS: N_("Substitute protagonist points"),
        M_OPPONENT: N_("Points given to the opponent (hidden successes)"),
        M_MARGIN: N_("Total points minus the opponent's"),
        M_CLIMAX_TURN_PREFIX: N_("Turn of the climax of round"),
        M_CLIMAXES: N_("Climaxes played"),
        M_ROUNDS: N_("Rounds scored"),
        M_COMPLETE: N_("All three rounds played"),
        M_ATTEMPTED: N_("Stories attempted"),
        M_SUCCEEDED: N_("Stories placed"),
        M_CHECKS: N_("Story checks rolled"),
        M_CHECKS_PASSED: N_("Story checks passed by the die"),
        M_HIDDEN: N_("Hidden successes"),
        M_HIDDEN_USED: N_("Used a hidden success"),
        M_MISSION_PREFIX: N_("Mission completed"),
        M_DECK_OUT: N_("Deck-out"),
        M_DECK_OUT_TURN: N_("Turn of the deck-out"),
        M_DECK_OUT_PENALTY: N_("Deck-out penalty"),
        M_SUBSTITUTED: N_("Played the substitute protagonist"),
        M_CANNOT_SUBSTITUTE: N_("Lost for want of a substitute"),
        M_TURN_LIMIT: N_("Stopped at the turn limit"),
        M_TURNS: N_("Turns played"),
        M_SEEN: N_("Cards seen"),
        M_END_DRAWS: N_("Cards drawn by the end phase's refill"),
        M_RESET_DRAWS: N_("Cards drawn at round resets"),
        M_USED: N_("Cards used from the hand in a turn"),
        M_DESTINY: N_("Protagonist's final destiny"),
    }

    def deck_problems(self, deck: SimDeck) -> list[str]:
        problems: list[str] = []
        heroes = deck.zones.get(PROTAGONIST_ZONE, ())
        if sum(n for _i, n in heroes) != 1:
            problems.append(N_("The deck needs exactly one protagonist."))
        if deck.size < 1:
            problems.append(N_("The deck has no cards to draw."))
        return problems

    def prepare(self, deck: SimDeck, params: dict[str, Any]) -> OukaPrepared:
        problems = self.deck_problems(deck)
        if problems:
            raise ValueError("; ".join(problems))
        values = self.params.clean(params)
        cards = deck.cards
        keywords: dict[str, int] = {}
        types: dict[str, int] = {}
        characters: dict[str, int] = {}
        codes: dict[str, int] = {}

        def mask(words: Any, table: dict[str, int]) -> int:
            bits = 0
            for word in _strings(words):
                bits |= 1 << table.setdefault(word, len(table))
            return bits

        def character_of(card: SimCard) -> int:
            name = str(card.attributes.get("character") or card.name or card.code)
            return characters.setdefault(name, len(characters))

        kind, uid, kw, pre, cond, target, ability, points, bonus, ctype = ([] for _ in range(10))
        character, destiny = [], []
        extra = bool(values["extra_bonus"])
        for card in cards:
            a = card.attributes
            k = K_OTHER
            if card.card_type == "character":
                k = K_CHARACTER
            elif card.card_type == "story":
                k = K_ACCIDENT if a.get("story_kind") == "accident" else K_STORY
            elif card.card_type == "climax":
                k = K_CLIMAX
            kind.append(k)
            uid.append(1 << codes.setdefault(card.code, len(codes)))
            kw.append(mask(a.get("keywords"), keywords) if k in (K_STORY, K_ACCIDENT) else 0)
            pre.append(mask(a.get("prerequisites"), keywords) if k == K_STORY else 0)
            cond.append(mask(a.get("conditions"), keywords) if k == K_CLIMAX else 0)
            target.append(_int(a.get("target")) if k == K_STORY else 0)
            name = str(a.get("ability") or "")
            ability.append(ABILITIES.index(name) if name in ABILITIES else ANY)
            points.append(_int(a.get("points")))
            bonus.append(_int(a.get("bonus")) + (_int(a.get("extra_bonus")) if extra else 0))
            climax_type = a.get("climax_type") if k == K_CLIMAX else None
            ctype.append(mask([climax_type], types) if climax_type else 0)
            is_person = card.card_type in ("character", "protagonist")
            character.append(character_of(card) if is_person else -1)
            destiny.append(min(max(_int(a.get("destiny")), 1), MAX_DESTINY) if is_person else 0)
        missions = tuple(
            (
                cards[i].name,
                mask(cards[i].attributes.get("climax_types"), types),
                _int(cards[i].attributes.get("bonus")),
            )
            for i, n in deck.zones.get(MISSIONS_ZONE, ())
            for _ in range(n)
        )

        def protagonist(index: int) -> Protagonist:
            a = cards[index].attributes
            table = [(0, 0, 0)]
            for d in range(1, MAX_DESTINY + 1):
                combat, exploration, negotiation = (_int(a.get(f"{k}_{d}")) for k in ABILITIES)
                table.append((combat, exploration, negotiation))
            return Protagonist(index, cards[index].name, character[index], tuple(table))

        (main_hero,) = (i for i, _n in deck.zones[PROTAGONIST_ZONE])
        heroes = [protagonist(main_hero)]
        substitutes = [i for i, _n in deck.zones.get(SUBSTITUTE_ZONE, ())]
        pile = tuple(deck.pile(deck.draw_zone))
        piles = [pile]
        swapped = 0
        if substitutes:
            heroes.append(protagonist(substitutes[0]))
            rebuilt, swapped = _rebuild(deck, pile, heroes[0], heroes[1], character, destiny)
            piles.append(rebuilt)

        def needs(hero: Protagonist, d: int) -> tuple[int, ...]:
            """The die face each story's check needs at destiny d: target - ability
            (ouka-fushin.md:62; "any": the best, seed:103)."""
            row = []
            for c in range(len(cards)):
                if kind[c] != K_STORY or not target[c]:
                    row.append(NO_CHECK)  # seed:131: no check
                    continue
                abilities = hero.abilities[d]
                value = max(abilities) if ability[c] == ANY else abilities[ability[c]]
                row.append(target[c] - value)
            return tuple(row)

        need = tuple(tuple(needs(hero, d) for d in range(MAX_DESTINY + 1)) for hero in heroes)
        policy = str(values["hidden_success"])

        def counted(need: int, card: int) -> int:
            if policy == HIDDEN_ALWAYS or (
                policy == HIDDEN_NET and points[card] > HIDDEN_SUCCESS_GIFT
            ):
                return hidden_faces(need)
            return plain_faces(need)

        faces = tuple(
            tuple(tuple(counted(n, c) for c, n in enumerate(row)) for row in rows) for rows in need
        )
        hidden = tuple(tuple(tuple(hidden_faces(n) for n in row) for row in rows) for rows in need)
        return OukaPrepared(
            deck=deck,
            names=tuple(c.name for c in cards),
            kind=tuple(kind),
            uid=tuple(uid),
            kw=tuple(kw),
            pre=tuple(pre),
            cond=tuple(cond),
            target=tuple(target),
            ability=tuple(ability),
            points=tuple(points),
            bonus=tuple(bonus),
            static_value=tuple(
                100 + points[c] if k == K_STORY else 400 + bonus[c] if k == K_CLIMAX else 0
                for c, k in enumerate(kind)
            ),
            ctype=tuple(ctype),
            character=tuple(character),
            destiny=tuple(destiny),
            keywords=tuple(keywords),
            climax_types=tuple(types),
            protagonists=tuple(heroes),
            piles=tuple(piles),
            swapped=swapped,
            need=need,
            faces=faces,
            hidden=hidden,
            missions=missions,
            hidden_policy=str(values["hidden_success"]),
            climax_min=int(values["climax_min_points"]),
            at_once=int(values["climaxes_at_once"]),
            stack=values["stacking"] == STACK_PREREQUISITE,
            reclaim=values["reclaim"] == RECLAIM_USEFUL,
            mirror=str(values["mirror_match"]),
            prereq_all=values["prerequisites"] == MATCH_ALL,
            mission_all=values["missions_need"] == MATCH_ALL,
            completed_score=bool(values["completed_stories_score"]),
            max_turns=int(values["max_turns"]),
            mission_keys=tuple(mission_key(i + 1) for i in range(len(missions))),
        )

    def new_game(
        self, prepared: OukaPrepared, params: dict[str, Any], rng: random.Random
    ) -> OukaState:
        return deal(prepared, rng)

    def choose(self, state: OukaState) -> Action:
        return state.policy()

    def record(self, state: OukaState, metrics: Metrics) -> None:
        """One finished game's measures; counts and sums are added even when 0, so every name
        is present in every run's metrics."""
        p = state.prepared
        counts, sums, squares = metrics.counts, metrics.sums, metrics.squares
        total = state.total()
        values = (
            *state.round_points,
            total,
            state.mission_points,
            SUBSTITUTE_BONUS if state.substitution == SUB_DONE else 0,
            state.opponent_points,
            total - state.opponent_points,
            state.climaxes,
            state.attempted,
            state.succeeded,
            state.checks,
            state.checks_passed,
            state.hidden_uses,
            state.deck_out_penalty,
            state.pos,
            state.end_draws,
            state.reset_draws,
        )
        for key, value in zip(SUM_KEYS, values, strict=True):
            sums[key] += value
            squares[key] += value * value
        for key, turn in zip(CLIMAX_TURN_KEYS, state.climax_turns, strict=True):
            if turn:
                metrics.observe(key, turn)
        metrics.observe(M_ROUNDS, state.rounds_scored)
        counts[M_COMPLETE] += state.climax_turns[ROUNDS - 1] > 0
        counts[M_HIDDEN_USED] += state.hidden_uses > 0
        for key, done in zip(p.mission_keys, state.mission_done, strict=True):
            counts[key] += done
        counts[M_DECK_OUT] += state.deck_out_turn > 0
        if state.deck_out_turn:
            metrics.observe(M_DECK_OUT_TURN, state.deck_out_turn)
        counts[M_SUBSTITUTED] += state.substitution == SUB_DONE
        counts[M_CANNOT_SUBSTITUTE] += state.substitution == SUB_CANNOT
        counts[M_TURN_LIMIT] += state.turn_limit
        metrics.observe(M_TURNS, state.turn)
        for used, n in enumerate(state.used_counts):
            if n:
                metrics.observe(M_USED, used, n)
        if state.substitution != SUB_CANNOT:
            metrics.observe(M_DESTINY, state.level)

    def play(
        self,
        prepared: OukaPrepared,
        params: dict[str, Any],
        rng: random.Random,
        metrics: Metrics,
        transcript: list[str] | None = None,
    ) -> None:
        """The policy's game: the same steps as ``apply`` without the legality check, and
        without building transcript lines unless asked for."""
        state = deal(prepared, rng)
        state.lines = transcript is not None
        step = state._step
        policy = state.policy
        hand = state.hand
        out = transcript.append if transcript is not None else None
        while not state.over:
            phase = state.phase
            # the two phases every turn passes through, called directly (``_step`` would
            # call the same methods; settling after them is needed only past the start)
            if phase == P_START:
                line = state._start()
                state.settle()
            elif phase == P_END:
                line = state._discard(worst_card(state)) if len(hand) > HAND_LIMIT else state._end()
            else:
                line = step(policy())
            if out is not None:
                out(line)
        self.record(state, metrics)


def _rebuild(
    deck: SimDeck,
    pile: tuple[int, ...],
    old: Protagonist,
    new: Protagonist,
    character: Sequence[int],
    destiny: Sequence[int],
) -> tuple[tuple[int, ...], int]:
    """The deck rebuilt for the substitute (ouka-fushin.md:44, seed:65): each character card
    of the old protagonist is swapped for a spare, the substitute's own first, lower destiny
    first, as far as the spares go (any number may be swapped; this swaps all it can)."""
    spares = sorted(
        deck.pile(SPARES_ZONE),
        key=lambda c: (character[c] != new.character, destiny[c], c),
    )
    old_cards = sorted(
        (i for i, c in enumerate(pile) if character[c] == old.character and c != old.card),
        key=lambda i: (destiny[pile[i]], i),
    )
    rebuilt = list(pile)
    swapped = 0
    for position, spare in zip(old_cards, spares, strict=False):
        rebuilt[position] = spare
        swapped += 1
    return tuple(rebuilt), swapped


# --- the test-hand page ----------------------------------------------------------------------


@dataclass(frozen=True)
class PlanStep:
    #: N_()-marked template with %(name)s placeholders
    text: str
    values: Mapping[str, object]
    #: card indexes into deck.cards
    cards: tuple[int, ...]


def hand_plan(deck: SimDeck, hand: Sequence[int], params: dict[str, Any]) -> list[PlanStep]:
    """What the policy would do first with this opening hand (card indexes into
    ``deck.cards``), before knowing turn 1's two draws: the immortal phase, the story (its
    odds), the climax it could reach, and the cards it can never use."""
    p = ENGINE.prepare(deck, params)
    state = OukaState(p, Dice(random.Random(0)), [], 0, SUB_NONE)
    state.hand = list(hand)
    state.turn = 1
    state.phase = P_IMMORTAL
    state.settle()
    steps = [
        PlanStep(
            N_(
                "Turn 1 starts by drawing 2 cards (the first player draws too); this plan uses "
                "the %(count)d cards of the opening hand."
            ),
            {"count": len(hand)},
            (),
        )
    ]
    hero = p.protagonists[0]
    if state.phase == P_IMMORTAL:
        kind, card = state.plan
        text = {
            "grow": N_("Grow %(protagonist)s to destiny %(level)d with %(card)s."),
            "grow_immortal": N_("Grow the immortal with %(card)s."),
            "place": N_("Place %(card)s as an immortal."),
        }[kind]
        values = {"protagonist": hero.name, "level": p.destiny[card], "card": p.names[card]}
        steps.append(PlanStep(text, values, (card,)))
        state._step((kind, card))
    else:
        steps.append(PlanStep(N_("No character card to use in the immortal phase."), {}, ()))
    if state.phase == P_STORY and state.plan[0] == "story":
        _kind, card, group = state.plan
        need = p.need[0][state.level][card]
        if need == NO_CHECK:
            steps.append(
                PlanStep(
                    N_("Play %(card)s: no check, %(points)d points."),
                    {"card": p.names[card], "points": p.points[card]},
                    (card,),
                )
            )
        else:
            steps.append(
                PlanStep(
                    N_(
                        "Play %(card)s: the die needs %(need)d or more, %(chance)d in 6 "
                        "(%(hidden)d in 6 with a hidden success), for %(points)d points."
                    ),
                    {
                        "card": p.names[card],
                        "need": max(need, 1),
                        "chance": plain_faces(need),
                        "hidden": hidden_faces(need),
                        "points": p.points[card],
                    },
                    (card,),
                )
            )
        state.hand.remove(card)
        state._place(card, group)
    else:
        steps.append(PlanStep(N_("No story can be played from this hand yet."), {}, ()))
    playable = state._playable()
    if playable:
        steps.append(
            PlanStep(
                N_("Then play the climax %(card)s: its keywords are on the field."),
                {"card": p.names[playable[0]]},
                (playable[0],),
            )
        )
    for c in sorted(set(hand)):
        if p.kind[c] == K_CLIMAX and c not in playable:
            missing = p.cond[c] & ~state.kw_open
            steps.append(
                PlanStep(
                    N_("The climax %(card)s still needs the keywords %(keywords)s."),
                    {"card": p.names[c], "keywords": _keywords(p, missing)},
                    (c,),
                )
            )
    dead = tuple(sorted({c for c in hand if card_value(state, c) == 0 and c in state.hand}))
    if dead:
        steps.append(
            PlanStep(
                N_("Never used by the goldfish: %(cards)s (discarded first)."),
                {"cards": _names(p, dead)},
                dead,
            )
        )
    return steps


ENGINE = OukaEngine()
