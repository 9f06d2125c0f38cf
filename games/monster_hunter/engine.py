"""Monster Hunter TCG (Capcom, 2007): the goldfish engine (rules digest:
shared/rules/monster-hunter.md; the Japanese original shared/seeds/000_8f85e727828b31e6.txt,
cited as "seed NNN", wins where they differ).

What a game is here. Set-up: HR points, retreats and material points 0, an empty hand
(monster-hunter.md:38); no mulligan, cards are drawn from turn 1 (line 39). Every turn:

1. Hand (line 45): discard by ``discard_policy``, then draw back up to 6.
2. Placement (lines 46-48): at most one monster a turn, face down on our own sheet; the 2-player
   side holds one per area in 4 areas, the 3-4-player side up to 3 per area in 2 areas (line 47).
   On a full sheet a new monster may replace only a face-up monster without a main-target icon
   (line 48, seed 085-087). The goldfish opponent never hunts (line 68), so our monsters stay
   face down and a full sheet stays full. (Seed 223 has a 4th monster in a 3-4-player area
   replace one there; seed 085 allows replacing only on a full sheet. Monsters are placed in an
   area with room, so the two agree here; which area a monster sits in is not tracked.)
3. Move and 4. Hunt (lines 49-59), only in the training-ground mode (``lineup``): the opponent's
   sheet holds reference monsters (HP, attack, reach, rank) that our hunter hunts for HR; see
   "The training ground" below.
5. Equip (lines 60-61): weapons and armor from the hand, paid with material points.
6. Result (lines 63-65): the retirement check, +1 HR point for each face-down monster on our
   sheet, +1 in a 2-player game when the opponent's sheet has no monster; damage resets.

The game ends at 20 HR points (a win; line 41, at once, even in the middle of a hunt, seed 072),
at the retirement check after the 3rd retreat (line 41; the HR win beats it, line 42, see
``same_turn``), or after ``max_turns`` turns. An empty deck is a retreat (line 59, seed 054):
+1 retreat, the discard pile is shuffled into a new deck, the hunter goes back to camp.

The training ground. The hunter is the deck's hunter card (attack, movement, reach, item icons;
defence 0, no weapon; lines 15-16). An equipped weapon overrides attack, movement, reach, item
icons and weapon icon; equipped armor overrides defence (lines 20, 25, seed 235, 248). The map is
abstract (an assumption, ``approach``): from camp every area of the training sheet is
``approach`` areas away and its areas are one step apart, so a hunter on the sheet can reach any
of its areas. In the hunt (lines 51-58) the hunter and the face-up monsters of its area act in
reach order (``reach_ties`` breaks ties). Attacking a face-down monster flips it; a flipped
monster with a higher reach interrupts and attacks first, then the hunter's attack starts again
(line 53, seed 115-117). The hunter may discard weapon cards for +1 attack each, only with a
weapon icon matching the equipped weapon's, any weapon when none is equipped (line 21-22, seed
177-178, 240-241), and use items whose icons match its item icons (line 26). A monster with 0 HP
is slain: +rank HR points (line 55). A monster's attack hits the hunter: armor cards discarded
give +1 defence each for the turn (line 57, seed 254); damage beyond defence mills that many
cards from the deck (line 58).

The policy (every choice the digest leaves to the player is a parameter):
  * hand phase: ``discard_policy`` -- "dead" discards cards the engine can never use now (items
    whose icons do not match, weapons that can neither be discarded for attack nor upgrade the
    equipped one, monsters when the sheet is full); "none" keeps everything; "dig" keeps only
    monsters that can still be placed;
  * placement: the monster with the highest HP (then rank) whenever one can be placed;
  * move: to the area of the best monster the hunter can slay this turn (``hunt_policy``),
    else to the area with the least face-up attack;
  * hunt: attack that monster, spending just enough weapon cards (lowest attack first) and
    then usable items; with nothing to slay it holds when only face-down monsters are there
    (seed 111), else attacks the weakest face-up monster and spends nothing;
  * monster attacks: ``armor_policy`` "absorb" discards armor cards (lowest defence first)
    while damage remains; items add defence only with ``item_effect`` "defence";
  * equip: the affordable weapon with the highest attack above the current one, then the
    affordable armor with the highest defence above the current one (one of each a turn).

Measures (integers in Metrics; the results page reads these names, keep them stable):
  * ``hr_reached`` / ``hr_reached_turn``: games reaching 20 HR points and the turn they did;
    ``retired`` / ``retired_turn``; ``turn_limit``; ``hr_win_beat_retirement`` (the HR win in
    the turn of the 3rd retreat, line 42);
  * ``hr_by_turn:NN`` and ``monsters_by_turn:NN`` (sums): HR points and monsters placed by
    the end of turn NN, kept at their last value after the game ends;
  * ``matching_weapons_in_hand``, ``usable_items_in_hand``, ``dead_items_in_hand``
    (histograms, one entry a turn after the refill);
  * ``retreats``, ``cards_milled``, ``monsters_slain``, ``hr_from_hunts`` (sums per game);
    ``first_retreat_turn``, ``first_slay_turn``, ``weapon_equipped_turn``,
    ``armor_equipped_turn`` (histograms, games where it happened).

Speed: ``prepare`` turns the deck into integer tables; ``play`` drives the same state methods
as ``apply`` but without the legality check and without building transcript text, so both play
exactly the same games (the tests compare them seed by seed).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.monster_hunter import GAME
from games.monster_hunter.schedule import SCHEDULE
from simulator.engine.cards import SimDeck
from simulator.engine.engine import Engine, GameState
from simulator.engine.i18n import N_
from simulator.engine.metrics import Metrics
from simulator.engine.params import Param, ParamSpec

GAME_SLUG = GAME.slug
DIGEST = "monster-hunter.md"

HAND_SIZE = 6  # monster-hunter.md:45 (hand must end <= 6, then draw back up to 6)
TARGET_HR = 20  # monster-hunter.md:41
RETIRE_AT = 3  # monster-hunter.md:41: a player retires at the 3rd retreat
HUNTER_ZONE = "hunter"  # games/monster_hunter/deck.py: the hunter beside the deck

# Card kinds (catalog/games/monster_hunter.py card types).
MONSTER, WEAPON, ARMOR, ITEM, OTHER = 0, 1, 2, 3, 4
KIND_OF = {"monster": MONSTER, "weapon": WEAPON, "armor": ARMOR, "item": ITEM}
# monster-hunter.md:23-24 and 27-28: the nine weapon icons and the seven item icons (the
# catalog's codes, games/monster_hunter/catalog.py)
WEAPON_ICONS = (
    "great-sword",
    "long-sword",
    "sword-and-shield",
    "dual-blades",
    "hammer",
    "lance",
    "light-bowgun",
    "heavy-bowgun",
    "bow",
)
ITEM_ICONS = ("meat", "barrel-bomb", "ball", "ammo", "bottle", "monster-material", "medicine")

# Phases of a turn in the state API (the result phase runs inside "done" of the equip phase).
HAND, PLACE, MOVE, HUNT, EQUIP = range(5)
PHASE_NAMES = ("hand", "placement", "move", "hunt", "equip")

# Actions: (kind, card index / area / monster slot; -1 when none).
DISCARD, DRAW = "discard", "draw"
PLACE_MONSTER, SKIP = "place", "skip"
ADVANCE, MOVE_TO = "advance", "move"
ATTACK, HOLD = "attack", "hold"
EQUIP_CARD, DONE = "equip", "done"
Action = tuple[str, int]

# Outcomes.
WIN, RETIRED, LIMIT = "hr", "retired", "limit"

#: the reference line-ups of the training ground: (HP, attack, reach, rank) per monster, in
#: the ranges of the catalog's monsters (catalog/data: HP 1-14, attack 1-7, reach 0-5, rank 1-5)
LINEUPS: dict[str, tuple[tuple[int, int, int, int], ...]] = {
    "starter": ((1, 1, 3, 1), (2, 1, 0, 1), (2, 2, 1, 1), (3, 2, 3, 1)),
    "mixed": ((2, 2, 1, 1), (4, 2, 1, 2), (5, 3, 3, 2), (7, 4, 2, 3)),
    "elder": ((7, 4, 3, 3), (8, 4, 4, 4), (10, 5, 2, 4), (12, 6, 5, 5)),
}
NO_LINEUP = "none"
UNIFORM = "uniform"

# Metric names (the Django side reads them; keep them stable).
M_HR_PREFIX = "hr_by_turn:"
M_PLACED_PREFIX = "monsters_by_turn:"
M_REACHED = "hr_reached"
M_REACHED_TURN = "hr_reached_turn"
M_RETIRED = "retired"
M_RETIRED_TURN = "retired_turn"
M_LIMIT = "turn_limit"
M_WON_RETIRING = "hr_win_beat_retirement"
M_RETREATS = "retreats"
M_FIRST_RETREAT = "first_retreat_turn"
M_MILLED = "cards_milled"
M_WEAPONS = "matching_weapons_in_hand"
M_USABLE = "usable_items_in_hand"
M_DEAD_ITEMS = "dead_items_in_hand"
M_SLAIN = "monsters_slain"
M_HUNT_HR = "hr_from_hunts"
M_FIRST_SLAY = "first_slay_turn"
M_WEAPON_TURN = "weapon_equipped_turn"
M_ARMOR_TURN = "armor_equipped_turn"


def hr_key(turn: int) -> str:
    """``hr_by_turn:07``: zero-padded so the sorted names run in turn order."""
    return f"{M_HR_PREFIX}{turn:02d}"


def placed_key(turn: int) -> str:
    return f"{M_PLACED_PREFIX}{turn:02d}"


# --- what every game of a run shares -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MonsterHunterPrepared:
    """Integer tables by card index, the hunter's numbers and the cleaned parameters."""

    deck: SimDeck
    pile: tuple[int, ...]
    names: tuple[str, ...]
    kind: tuple[int, ...]
    #: weapons: icon (0-8; -1 for other cards), attack, movement, reach, item icon bit mask
    w_icon: tuple[int, ...]
    w_atk: tuple[int, ...]
    w_mov: tuple[int, ...]
    w_rch: tuple[int, ...]
    w_mask: tuple[int, ...]
    #: weapons and armor: cost in material points (monster-hunter.md:60)
    cost: tuple[int, ...]
    #: armor: defence (monster-hunter.md:25)
    a_def: tuple[int, ...]
    #: items: item icon bit mask (monster-hunter.md:26)
    i_mask: tuple[int, ...]
    #: monsters: HP, rank, main-target icon (monster-hunter.md:17-19)
    m_hp: tuple[int, ...]
    m_rank: tuple[int, ...]
    m_main: tuple[bool, ...]
    hunter_name: str
    h_atk: int
    h_mov: int
    h_rch: int
    h_mask: int
    # the sheets (monster-hunter.md:47)
    two_player: bool
    capacity: int
    areas: int
    # the training sheet: one entry per reference monster
    lineup: tuple[tuple[int, int, int, int], ...]
    lineup_area: tuple[int, ...]
    # parameters
    discard_policy: str
    hunt_rank_first: bool
    item_attack: bool
    item_defence: bool
    item_none: bool
    absorb: bool
    ties_to_monster: bool
    on_empty: bool
    hr_first: bool
    restock: str
    approach: int
    material: int
    max_turns: int
    hr_keys: tuple[str, ...]
    placed_keys: tuple[str, ...]


def _int(raw: Any) -> int:
    """An attribute as a whole number (absent or malformed: 0)."""
    try:
        return int(raw or 0)
    except (TypeError, ValueError):
        return 0


def _mask(raw: Any) -> int:
    """Item icons (a list of catalog codes, or one code) as a bit mask over ITEM_ICONS."""
    codes = [raw] if isinstance(raw, str) else list(raw or ())
    mask = 0
    for code in codes:
        if code in ITEM_ICONS:
            mask |= 1 << ITEM_ICONS.index(code)
    return mask


def lineup_of(values: Mapping[str, Any]) -> tuple[tuple[int, int, int, int], ...]:
    """The reference monsters of the cleaned parameters ((HP, attack, reach, rank) each),
    capped at the training sheet's slots (4 on the 2-player side, 6 on the 3-4-player side,
    monster-hunter.md:47)."""
    name = values["lineup"]
    if name == NO_LINEUP:
        return ()
    capacity = 4 if values["players"] == "2" else 6
    if name == UNIFORM:
        one = (
            int(values["lineup_hp"]),
            int(values["lineup_attack"]),
            int(values["lineup_reach"]),
            int(values["lineup_rank"]),
        )
        return (one,) * min(int(values["lineup_count"]), capacity)
    return LINEUPS[name][:capacity]


# --- the game ------------------------------------------------------------------------------


class MonsterHunterState(GameState):
    """One goldfish game, step by step (conformance tests, transcripts, test hands); the fast
    ``play`` drives the same ``step`` without the legality check."""

    def __init__(self, prepared: MonsterHunterPrepared, deck: list[int], seed: int) -> None:
        p = prepared
        self.prepared = p
        #: drawn from the end (``pop``); ``new_game`` reverses the shuffled pile so the first
        #: card of the shuffle is drawn first
        self.deck = deck
        #: reshuffles after a retreat draw from random.Random(seed + retreat number), so the
        #: state holds plain integers (copies and comparisons need no generator)
        self.seed = seed
        self.hand: list[int] = []  # monster-hunter.md:38: the hand starts empty
        self.discard: list[int] = []
        self.down: list[int] = []  # our face-down monsters
        self.up: list[int] = []  # our face-up monsters (never, against a goldfish)
        self.weapon = -1
        self.armor = -1
        self.bank = 0  # material cards, each worth ``material`` points
        self.hr = 0
        self.retreats = 0
        self.turn = 1
        self.phase = HAND
        self.over = False
        self.outcome = ""
        self.dist = p.approach  # areas to go before the training sheet; 0 = on it
        self.area = -1
        n = len(p.lineup)
        self.alive = [True] * n
        self.face_up = [False] * n
        self.acted = [False] * n
        self.def_bonus = 0  # armor discarded this turn: +1 defence each for the turn
        self.weapon_done = False
        self.armor_done = False
        # measures
        self.placed = 0
        self.hr_hist: list[int] = []
        self.placed_hist: list[int] = []
        self.obs_weapons: list[int] = []
        self.obs_usable: list[int] = []
        self.obs_dead: list[int] = []
        self.milled = 0
        self.slain = 0
        self.hunt_hr = 0
        self.first_slay = 0
        self.first_retreat = 0
        self.weapon_turn = 0
        self.armor_turn = 0
        self.end_turn = 0
        self.won_retiring = False

    def copy(self) -> MonsterHunterState:
        clone = object.__new__(MonsterHunterState)
        clone.__dict__.update(self.__dict__)
        for name in (
            "deck",
            "hand",
            "discard",
            "down",
            "up",
            "alive",
            "face_up",
            "acted",
            "hr_hist",
            "placed_hist",
            "obs_weapons",
            "obs_usable",
            "obs_dead",
        ):
            setattr(clone, name, list(getattr(self, name)))
        return clone

    # --- the hunter's current numbers (an equipped weapon overrides them, line 20) --------

    def attack(self) -> int:
        return self.prepared.w_atk[self.weapon] if self.weapon >= 0 else self.prepared.h_atk

    def movement(self) -> int:
        return self.prepared.w_mov[self.weapon] if self.weapon >= 0 else self.prepared.h_mov

    def reach(self) -> int:
        return self.prepared.w_rch[self.weapon] if self.weapon >= 0 else self.prepared.h_rch

    def item_mask(self) -> int:
        """The item icons items are checked against: the equipped weapon's, which override
        the hunter's (line 20, seed 235), else the hunter's (line 26, seed 199)."""
        return self.prepared.w_mask[self.weapon] if self.weapon >= 0 else self.prepared.h_mask

    def defence(self) -> int:
        """Equipped armor's defence, else the hunter's implicit 0 (lines 16, 25)."""
        return self.prepared.a_def[self.armor] if self.armor >= 0 else 0

    def matches(self, card: int) -> bool:
        """A weapon card the hunter may discard for +1 attack: its icon matches the equipped
        weapon's; any weapon card when none is equipped (lines 21-22, seed 177-178)."""
        p = self.prepared
        if p.kind[card] != WEAPON:
            return False
        return self.weapon < 0 or p.w_icon[card] == p.w_icon[self.weapon]

    def usable(self, card: int) -> bool:
        """An item with an icon matching the hunter's (or its weapon's) item icons (line 26)."""
        p = self.prepared
        return p.kind[card] == ITEM and bool(p.i_mask[card] & self.item_mask())

    # --- what the rules allow ----------------------------------------------------------------

    def is_over(self) -> bool:
        return self.over

    def sheet_full(self) -> bool:
        return len(self.down) + len(self.up) >= self.prepared.capacity

    def replaceable(self) -> int:
        """On a full sheet, the monster a new one would replace: a face-up one without a
        main-target icon (line 48, seed 087), the lowest rank first; -1 when there is none."""
        p = self.prepared
        best = -1
        for card in self.up:
            if not p.m_main[card] and (best < 0 or p.m_rank[card] < p.m_rank[best]):
                best = card
        return best

    def can_place(self) -> bool:
        return not self.sheet_full() or self.replaceable() >= 0

    def payable(self, card: int) -> int:
        """Material cards needed to equip ``card`` (-1: unaffordable). The trade-in of the
        equipped weapon counts only for a weapon with the same icon, any equipped armor for
        armor (line 61, seed 185-190); material cards are spent whole, the rest is lost
        (seed 057, 184)."""
        p = self.prepared
        if p.kind[card] == WEAPON:
            old = self.weapon
            trade = p.cost[old] if old >= 0 and p.w_icon[old] == p.w_icon[card] else 0
        else:
            old = self.armor
            trade = p.cost[old] if old >= 0 else 0
        rest = p.cost[card] - trade
        if rest <= 0:
            return 0
        if p.material <= 0:
            return -1
        needed = -(-rest // p.material)
        return needed if needed <= self.bank else -1

    def equippable(self, card: int) -> bool:
        kind = self.prepared.kind[card]
        if kind == WEAPON:
            return not self.weapon_done and self.payable(card) >= 0
        if kind == ARMOR:
            return not self.armor_done and self.payable(card) >= 0
        return False

    def here(self) -> list[int]:
        """The live reference monsters of the hunter's area (none off the training sheet)."""
        if self.dist:
            return []
        area, alive, where = self.area, self.alive, self.prepared.lineup_area
        return [s for s in range(len(alive)) if alive[s] and where[s] == area]

    def reachable(self) -> range | tuple[int]:
        """The training areas the hunter can be in after this move phase: any of them when
        arriving or with movement left (the assumed map: one step apart); only its own area
        with no movement (line 49)."""
        if self.dist == 0 and self.movement() <= 0:
            return (self.area,)
        return range(self.prepared.areas)

    def before_hunter(self, slot: int) -> bool:
        """Whether a face-up monster acts before the hunter: a higher reach (lines 51-52),
        or an equal one when ties go to monsters (``reach_ties``, an assumption)."""
        reach, mine = self.prepared.lineup[slot][2], self.reach()
        return reach > mine or (reach == mine and self.prepared.ties_to_monster)

    def legal_actions(self) -> list[Action]:
        if self.over:
            return []
        p = self.prepared
        phase = self.phase
        if phase == HAND:
            # line 45: discard any number of cards, then draw back up to 6
            return [*((DISCARD, c) for c in sorted(set(self.hand))), (DRAW, -1)]
        if phase == PLACE:
            placeable: list[Action] = []
            if self.can_place():  # lines 46-48
                placeable = [
                    (PLACE_MONSTER, c) for c in sorted(set(self.hand)) if p.kind[c] == MONSTER
                ]
            return [*placeable, (SKIP, -1)]
        if phase == MOVE:
            if self.dist > self.movement():
                return [(ADVANCE, -1)]  # line 49-50: on the way; camp must be left
            return [(MOVE_TO, a) for a in self.reachable()]
        if phase == HUNT:
            here = self.here()
            actions: list[Action] = [(ATTACK, s) for s in here]
            if not any(self.face_up[s] for s in here):
                actions.append((HOLD, -1))  # seed 111: attacking only face-down is optional
            return actions
        equips = [(EQUIP_CARD, c) for c in sorted(set(self.hand)) if self.equippable(c)]
        return [*equips, (DONE, -1)]

    def apply(self, action: Action) -> str:
        if action not in self.legal_actions():
            raise ValueError(f"not a legal action now: {action!r}")
        log: list[str] = []
        self.step(action, log)
        return "; ".join(log)

    # --- playing ----------------------------------------------------------------------------

    def step(self, action: Action, log: list[str] | None) -> None:
        """Play ``action`` (already known legal); transcript fragments go to ``log``."""
        kind, arg = action
        p = self.prepared
        t = self.turn
        if kind == DISCARD:
            self.hand.remove(arg)
            self.discard.append(arg)
            if log is not None:
                log.append(f"T{t} hand: discard {p.names[arg]}")
        elif kind == DRAW:
            self._refill(log)
        elif kind in (PLACE_MONSTER, SKIP):
            self._place(arg if kind == PLACE_MONSTER else -1, log)
        elif kind == ADVANCE:
            mov = self.movement()
            self.dist -= mov
            if log is not None:
                log.append(f"T{t} move: {mov} toward the training sheet ({self.dist} to go)")
            self._to_equip(log)
        elif kind == MOVE_TO:
            self._move(arg, log)
        elif kind == ATTACK:
            self._attack(arg, log)
        elif kind == HOLD:
            if log is not None:
                log.append(f"T{t} hunt: hold (only face-down monsters here)")
            self._to_equip(log)
        elif kind == EQUIP_CARD:
            self._equip(arg, log)
        else:
            self._result(log)

    def _take(self, log: list[str] | None) -> int:
        """The top card of the deck (-1: none). The deck running out is a retreat
        (line 59, seed 054, 137): when it becomes empty (``deck_out`` "on_empty") or when a
        card is wanted from it empty ("on_draw")."""
        deck = self.deck
        if not deck:
            if not self.prepared.on_empty:
                self._retreat(log)
                deck = self.deck
            if not deck:
                return -1
        card = deck.pop()
        if not deck and self.prepared.on_empty:
            self._retreat(log)
        return card

    def _retreat(self, log: list[str] | None) -> None:
        """Line 59 (seed 138-140): +1 retreat, the discard pile shuffled into a new deck, the
        hunter back to camp."""
        self.retreats += 1
        if not self.first_retreat:
            self.first_retreat = self.turn
        deck = self.discard
        random.Random(self.seed + self.retreats).shuffle(deck)
        self.deck = deck
        self.discard = []
        self.dist = self.prepared.approach
        self.area = -1
        if log is not None:
            log.append(
                f"deck out: retreat {self.retreats}, {len(deck)} cards reshuffled, "
                "hunter back to camp"
            )

    def _refill(self, log: list[str] | None) -> None:
        """Line 45: draw back up to 6; then the hand's measures."""
        hand = self.hand
        at = len(log) if log is not None else 0
        drawn: list[int] = []
        while len(hand) < HAND_SIZE:
            card = self._take(log)
            if card < 0:
                break
            hand.append(card)
            drawn.append(card)
        if log is not None:
            # the draw's own fragment goes before any retreat it caused
            names = ", ".join(self.prepared.names[c] for c in drawn) or "-"
            log.insert(at, f"T{self.turn} hand: draw {len(drawn)}: {names}")
        weapons = usable = items = 0
        kind = self.prepared.kind
        for card in hand:
            k = kind[card]
            if k == WEAPON:
                weapons += self.matches(card)
            elif k == ITEM:
                items += 1
                usable += self.usable(card)
        self.obs_weapons.append(weapons)
        self.obs_usable.append(usable)
        self.obs_dead.append(items - usable)
        self.phase = PLACE

    def _place(self, card: int, log: list[str] | None) -> None:
        """Lines 46-48: one monster a turn, face down; the opponent's placement (the restock
        of the training sheet) happens in the same phase."""
        p = self.prepared
        if card >= 0:
            text = ""
            if self.sheet_full():
                old = self.replaceable()  # line 48: a face-up one without main target
                self.up.remove(old)
                self.discard.append(old)
                text = f" (discards face-up {p.names[old]})"
            self.hand.remove(card)
            self.down.append(card)
            self.placed += 1
            if log is not None:
                on = len(self.down) + len(self.up)
                log.append(f"T{self.turn} place: {p.names[card]} face down{text} ({on} on sheet)")
        elif log is not None:
            log.append(f"T{self.turn} place: none")
        if p.restock != "none":
            self._restock(log)
        if p.lineup:
            self.phase = MOVE
        else:
            self._to_equip(log)

    def _restock(self, log: list[str] | None) -> None:
        """The training opponent places slain reference monsters back, face down, in their
        own slots: one a turn ("one", as a real opponent may, line 46) or all ("all")."""
        alive = self.alive
        for slot in range(len(alive)):
            if not alive[slot]:
                alive[slot] = True
                self.face_up[slot] = False
                if log is not None:
                    log.append(f"opponent places M{slot + 1} back face down")
                if self.prepared.restock == "one":
                    return

    def _move(self, area: int, log: list[str] | None) -> None:
        """Lines 49-50: the hunter arrives on (or moves within) the training sheet; then the
        hunt starts with the face-up monsters that act before the hunter (lines 51-52)."""
        t = self.turn
        if log is not None:
            if self.dist:
                log.append(f"T{t} move: arrive in area {area + 1}")
            elif area == self.area:
                log.append(f"T{t} move: stay in area {area + 1}")
            else:
                log.append(f"T{t} move: to area {area + 1}")
        self.dist = 0
        self.area = area
        here = self.here()
        if not here:
            self._to_equip(log)
            return
        lineup, face_up, acted = self.prepared.lineup, self.face_up, self.acted
        first = [s for s in here if face_up[s] and self.before_hunter(s)]
        first.sort(key=lambda s: -lineup[s][2])  # reach order; stable: slot order on ties
        for slot in first:
            if self.dist:  # the hunter retreated: nobody left to hit here
                break
            acted[slot] = True
            self._monster_attacks(slot, log)
        if self.dist:
            self._to_equip(log)
        else:
            self.phase = HUNT

    def _monster_attacks(self, slot: int, log: list[str] | None) -> None:
        """Lines 57-58: the monster hits the hunter; armor discards (+1 defence each for the
        turn, seed 254) and, with ``item_effect`` "defence", usable items absorb; the rest
        mills that many cards; an empty deck is a retreat (line 59)."""
        p = self.prepared
        attack = p.lineup[slot][1]
        damage = attack - self.defence() - self.def_bonus
        spent: list[str] | None = [] if log is not None else None
        if damage > 0 and (p.absorb or p.item_defence):
            hand, kind = self.hand, p.kind
            if p.absorb:
                armor = sorted((c for c in hand if kind[c] == ARMOR), key=_by_defence(p))
                for card in armor[:damage]:
                    hand.remove(card)
                    self.discard.append(card)
                    self.def_bonus += 1
                    damage -= 1
                    if spent is not None:
                        spent.append(p.names[card])
            if p.item_defence and damage > 0:
                items = sorted(c for c in hand if self.usable(c))
                for card in items[:damage]:
                    hand.remove(card)
                    self.discard.append(card)
                    self.def_bonus += 1
                    damage -= 1
                    if spent is not None:
                        spent.append(p.names[card])
        milled = 0
        at = len(log) if log is not None else 0
        while milled < max(damage, 0):
            if not self.deck:
                if not p.on_empty:
                    self._retreat(log)  # the rest of the damage is lost with the retreat
                break
            self.discard.append(self.deck.pop())
            milled += 1
            if not self.deck and p.on_empty:
                self._retreat(log)
                break
        self.milled += milled
        if log is not None and spent is not None:
            used = f", discards {', '.join(spent)} (+{len(spent)} defence)" if spent else ""
            log.insert(
                at,
                f"T{self.turn} hunt: M{slot + 1} attacks ({attack}){used} → mill {milled}",
            )

    def _attack(self, slot: int, log: list[str] | None) -> None:
        """Lines 53-56: the hunter's attack on the monster in ``slot``."""
        p = self.prepared
        t = self.turn
        hp, attack, reach, rank = p.lineup[slot]
        if not self.face_up[slot]:
            self.face_up[slot] = True
            mine = self.reach()
            if reach > mine:
                # line 53, seed 115-117: the hunter's attack is cut off, the monster attacks
                # first, and the hunter's attack starts again from the beginning
                if log is not None:
                    log.append(
                        f"T{t} hunt: flip M{slot + 1} (HP {hp}, attack {attack}, reach {reach},"
                        f" rank {rank}): reach {reach} > {mine}, it strikes first"
                    )
                self.acted[slot] = True
                self._monster_attacks(slot, log)
                if self.dist:
                    self._to_equip(log)
                return
            if self.before_hunter(slot):
                self.acted[slot] = True  # an equal reach sorted first: its turn has passed
            if log is not None:
                log.append(
                    f"T{t} hunt: flip M{slot + 1} (HP {hp}, attack {attack}, reach {reach},"
                    f" rank {rank})"
                )
        # line 54 (seed 119-120, 242): weapon cards and items from the hand, spent only when
        # they make the attack slay (lowest attack first, so the best weapon stays to equip)
        need = hp - self.attack()
        spent = self._spend(need) if need > 0 else []
        damage = self.attack() + len(spent)
        if log is not None:
            used = f" + {', '.join(p.names[c] for c in spent)}" if spent else ""
            log.append(f"T{t} hunt: attack M{slot + 1}{used} → {damage} damage")
        if damage >= hp:
            # line 55: slain; the hunter's player gains its rank in HR points
            self.alive[slot] = False
            self.hr += rank
            self.hunt_hr += rank
            self.slain += 1
            if not self.first_slay:
                self.first_slay = t
            if log is not None:
                log.append(f"M{slot + 1} slain: +{rank} HR → {self.hr}")
            if self.hr >= TARGET_HR:  # line 41: the game ends at once (seed 072)
                self._end(WIN, log)
                return
        # the face-up monsters that act after the hunter, in reach order (lines 51-52)
        lineup, face_up, acted = p.lineup, self.face_up, self.acted
        after = [s for s in self.here() if face_up[s] and not acted[s]]
        after = [s for s in after if not self.before_hunter(s)]
        after.sort(key=lambda s: -lineup[s][2])
        for other in after:
            if self.dist:
                break
            acted[other] = True
            self._monster_attacks(other, log)
        self._to_equip(log)

    def spend_plan(self, need: int) -> list[int]:
        """The cards the policy discards for +1 attack each to deal ``need`` more damage:
        matching weapons (lowest attack first, so the best one stays to equip), then usable
        items with ``item_effect`` "attack"; none when even all of them are not enough."""
        p = self.prepared
        hand = self.hand
        weapons = sorted((c for c in hand if self.matches(c)), key=_by_attack(p))
        items = sorted(c for c in hand if self.usable(c)) if p.item_attack else []
        cards = (weapons + items)[:need]
        return cards if len(cards) == need else []

    def _spend(self, need: int) -> list[int]:
        cards = self.spend_plan(need)
        for card in cards:
            self.hand.remove(card)
            self.discard.append(card)
        return cards

    def _to_equip(self, log: list[str] | None) -> None:
        """The equip phase starts; ``material_per_turn`` banks one material card first."""
        if self.prepared.material > 0:
            self.bank += 1
        self.weapon_done = self.armor_done = False
        self.phase = EQUIP

    def _equip(self, card: int, log: list[str] | None) -> None:
        """Line 60: equip, paying material cards; the previous card goes to the discard pile
        (traded in or not, seed 186)."""
        p = self.prepared
        needed = self.payable(card)
        self.bank -= needed
        self.hand.remove(card)
        if p.kind[card] == WEAPON:
            old, self.weapon, self.weapon_done = self.weapon, card, True
            if not self.weapon_turn:
                self.weapon_turn = self.turn
        else:
            old, self.armor, self.armor_done = self.armor, card, True
            if not self.armor_turn:
                self.armor_turn = self.turn
        if old >= 0:
            self.discard.append(old)
        if log is not None:
            was = f", {p.names[old]} discarded" if old >= 0 else ""
            log.append(
                f"T{self.turn} equip: {p.names[card]} (cost {p.cost[card]}: "
                f"{needed} material cards{was})"
            )

    def _result(self, log: list[str] | None) -> None:
        """Lines 63-65: the retirement check, +1 HR per face-down monster on our sheet, +1 in
        a 2-player game when the opponent's sheet has no monster; damage resets."""
        p = self.prepared
        if not p.hr_first and self.retreats >= RETIRE_AT:
            # ``same_turn`` "retire_first": the seed's order (line 148 before 149-150)
            self._end(RETIRED, log)
            return
        down = len(self.down)
        empty = p.two_player and not any(self.alive)
        self.hr += down + empty
        if log is not None:
            bonus = " +1 (opponent's sheet empty)" if empty else ""
            log.append(f"T{self.turn} result: +{down} ({down} face down){bonus} → HR {self.hr}")
        if self.hr >= TARGET_HR:  # line 42: the HR win beats retirement
            self._end(WIN, log)
            return
        if self.retreats >= RETIRE_AT:
            self._end(RETIRED, log)
            return
        # line 65: damage and HP reset; the armor bonus lasted the turn (seed 254)
        self.def_bonus = 0
        self.acted = [False] * len(self.acted)
        self.hr_hist.append(self.hr)
        self.placed_hist.append(self.placed)
        if self.turn >= p.max_turns:
            self._end(LIMIT, log)
            return
        self.turn += 1
        self.phase = HAND

    def _end(self, outcome: str, log: list[str] | None) -> None:
        self.over = True
        self.outcome = outcome
        self.end_turn = self.turn
        # alive with 3 retreats: the 3rd came this turn, and the HR win beats it (line 42)
        self.won_retiring = outcome == WIN and self.retreats >= RETIRE_AT
        if len(self.hr_hist) < self.turn:
            self.hr_hist.append(self.hr)
            self.placed_hist.append(self.placed)
        if log is not None:
            text = {
                WIN: f"{TARGET_HR}+ HR points: the hunt is won",
                RETIRED: f"{self.retreats} retreats: retired",
                LIMIT: "turn limit",
            }[outcome]
            log.append(f"game over on turn {self.turn}: {text}")


def _by_defence(p: MonsterHunterPrepared) -> Callable[[int], tuple[int, int]]:
    return lambda c: (p.a_def[c], c)


def _by_attack(p: MonsterHunterPrepared) -> Callable[[int], tuple[int, int]]:
    return lambda c: (p.w_atk[c], c)


# --- the policy --------------------------------------------------------------------------------


def dead_card(state: MonsterHunterState) -> int:
    """The first card of the hand that ``discard_policy`` discards in the hand phase, or -1.

    "dead": monsters when the sheet is full (our monsters are never flipped, so it stays full),
    items whose icons match none of the hunter's (line 26; every item when ``item_effect`` is
    "none"), weapons that neither match the equipped weapon's icon (line 21-22) nor have a
    higher attack than it. "dig": every card but monsters that can still be placed.
    "none": nothing. Armor is never dead: it can always be discarded for defence (line 25)."""
    p = state.prepared
    policy = p.discard_policy
    if policy == "none":
        return -1
    full = not state.can_place()
    kind = p.kind
    for card in state.hand:
        k = kind[card]
        if k == MONSTER:
            if full:
                return card
        elif policy == "dig" or k == OTHER:
            return card
        elif k == ITEM:
            if p.item_none or not state.usable(card):
                return card
        elif k == WEAPON and not state.matches(card) and p.w_atk[card] <= state.attack():
            return card
    return -1


def best_target(state: MonsterHunterState, area: int | None = None) -> tuple[int, int]:
    """The reference monster the hunter can slay this turn that ``hunt_policy`` prefers, and
    the cards it costs: (slot, cards); (-1, 0) when none can be slain. ``area``: only there.
    The attack counted is the hunter's (or weapon's) plus one per matching weapon card and,
    with ``item_effect`` "attack", per usable item in hand (lines 54-55)."""
    p = state.prepared
    base = state.attack()
    spare = 0
    for card in state.hand:
        spare += state.matches(card) or (p.item_attack and state.usable(card))
    best, best_cost, best_key = -1, 0, (0, 0, 0)
    for slot, (hp, _atk, _reach, rank) in enumerate(p.lineup):
        if not state.alive[slot] or (area is not None and p.lineup_area[slot] != area):
            continue
        cost = hp - base if hp > base else 0
        if cost > spare:
            continue
        key = (rank, -cost, -slot) if p.hunt_rank_first else (-cost, rank, -slot)
        if best < 0 or key > best_key:
            best, best_cost, best_key = slot, cost, key
    return best, best_cost


def best_equip(state: MonsterHunterState, kind: int) -> int:
    """The card the equip policy takes of ``kind`` (WEAPON or ARMOR), or -1: the affordable
    one with the highest attack (then reach, then lower cost) above the current attack, or
    the highest defence (then lower cost) above the current defence."""
    p = state.prepared
    best, best_key = -1, (0, 0, 0, 0)
    if kind == WEAPON:
        if state.weapon_done:
            return -1
        floor = state.attack()
        for card in state.hand:
            if p.kind[card] == WEAPON and p.w_atk[card] > floor and state.payable(card) >= 0:
                key = (p.w_atk[card], p.w_rch[card], -p.cost[card], -card)
                if best < 0 or key > best_key:
                    best, best_key = card, key
        return best
    if state.armor_done:
        return -1
    floor = state.defence()
    for card in state.hand:
        if p.kind[card] == ARMOR and p.a_def[card] > floor and state.payable(card) >= 0:
            key = (p.a_def[card], -p.cost[card], -card, 0)
            if best < 0 or key > best_key:
                best, best_key = card, key
    return best


def best_monster(state: MonsterHunterState) -> int:
    """The monster the policy places: the highest HP, then rank (a sturdier monster is the
    better one to leave on a sheet real hunters visit); -1 when none can be placed."""
    if not state.can_place():
        return -1
    p = state.prepared
    best = -1
    for card in state.hand:
        if p.kind[card] == MONSTER and (
            best < 0
            or (p.m_hp[card], p.m_rank[card], -card) > (p.m_hp[best], p.m_rank[best], -best)
        ):
            best = card
    return best


def safest_area(state: MonsterHunterState) -> int:
    """With nothing to slay: the area with the least face-up attack (staying put on ties,
    then the lowest area), so the hunter holds instead of being hit."""
    p = state.prepared
    threat = [0] * p.areas
    for slot, (_hp, attack, _reach, _rank) in enumerate(p.lineup):
        if state.alive[slot] and state.face_up[slot]:
            threat[p.lineup_area[slot]] += attack
    return min(state.reachable(), key=lambda a: (threat[a], a != state.area, a))


def policy_action(state: MonsterHunterState) -> Action:
    """The goldfish policy's action in ``state`` (see the module docstring)."""
    phase = state.phase
    if phase == HAND:
        card = dead_card(state)
        return (DISCARD, card) if card >= 0 else (DRAW, -1)
    if phase == PLACE:
        card = best_monster(state)
        return (PLACE_MONSTER, card) if card >= 0 else (SKIP, -1)
    if phase == MOVE:
        if state.dist > state.movement():
            return (ADVANCE, -1)
        slot, _cost = best_target(state)
        if slot >= 0 and state.prepared.lineup_area[slot] in state.reachable():
            return (MOVE_TO, state.prepared.lineup_area[slot])
        return (MOVE_TO, safest_area(state))
    if phase == HUNT:
        slot, _cost = best_target(state, state.area)
        if slot >= 0:
            return (ATTACK, slot)
        here = state.here()
        shown = [s for s in here if state.face_up[s]]
        if not shown:
            return (HOLD, -1)
        # a face-up monster is here, so the hunter must attack (seed 111): the weakest one
        return (ATTACK, min(shown, key=lambda s: (state.prepared.lineup[s][0], s)))
    for kind in (WEAPON, ARMOR):
        card = best_equip(state, kind)
        if card >= 0:
            return (EQUIP_CARD, card)
    return (DONE, -1)


# --- measures ------------------------------------------------------------------------------


def _record(state: MonsterHunterState, metrics: Metrics) -> None:
    """One finished game's measures; counts and sums are added even when 0, so every name is
    present in every run's metrics."""
    p = state.prepared
    counts, sums, squares = metrics.counts, metrics.sums, metrics.squares
    outcome = state.outcome
    counts[M_REACHED] += outcome == WIN
    counts[M_RETIRED] += outcome == RETIRED
    counts[M_LIMIT] += outcome == LIMIT
    counts[M_WON_RETIRING] += state.won_retiring
    if outcome == WIN:
        metrics.observe(M_REACHED_TURN, state.end_turn)
    elif outcome == RETIRED:
        metrics.observe(M_RETIRED_TURN, state.end_turn)
    for name, value in (
        (M_RETREATS, state.retreats),
        (M_MILLED, state.milled),
        (M_SLAIN, state.slain),
        (M_HUNT_HR, state.hunt_hr),
    ):
        sums[name] += value
        squares[name] += value * value
    if state.first_retreat:
        metrics.observe(M_FIRST_RETREAT, state.first_retreat)
    if state.first_slay:
        metrics.observe(M_FIRST_SLAY, state.first_slay)
    if state.weapon_turn:
        metrics.observe(M_WEAPON_TURN, state.weapon_turn)
    if state.armor_turn:
        metrics.observe(M_ARMOR_TURN, state.armor_turn)
    histograms = metrics.histograms
    for name, values in (
        (M_WEAPONS, state.obs_weapons),
        (M_USABLE, state.obs_usable),
        (M_DEAD_ITEMS, state.obs_dead),
    ):
        histogram = histograms.get(name)
        if histogram is None:
            histogram = histograms[name] = Counter()
        for value in values:
            histogram[value] += 1
    # by turn: after the game ends each series keeps its last value, so every game counts in
    # every turn's mean
    for keys, series in ((p.hr_keys, state.hr_hist), (p.placed_keys, state.placed_hist)):
        for key, value in zip(keys, series, strict=False):
            sums[key] += value
            squares[key] += value * value
        last = series[-1] if series else 0
        last_squared = last * last
        for key in keys[len(series) :]:
            sums[key] += last
            squares[key] += last_squared


# --- the engine ------------------------------------------------------------------------------

#: every digest line the engine applies: the card types, the start, the win, and the turn
#: (lines 44-65) line by line -- but 56 and 62 (the slain monster's owner banks it; the
#: uniqueness checks), which a goldfish never meets
CITED_LINES = (*range(15, 19), 20, 21, 22, 25, 26, 38, 39, 41, 42, *range(45, 56), 57, 58)
CITED_LINES += (59, 60, 61, 63, 64, 65, 68)


class MonsterHunterEngine(Engine[MonsterHunterPrepared, MonsterHunterState]):
    slug = GAME_SLUG
    version = 1
    schedule = SCHEDULE
    max_turns = 60
    params = ParamSpec(
        (
            Param(
                "players",
                N_("Play sheet side"),
                "choice",
                "2",
                choices=(("2", N_("2 players")), ("3-4", N_("3-4 players"))),
                help=N_(
                    "2 players: one monster per area, 4 areas, and +1 HR point when the "
                    "opponent's sheet is empty; 3-4 players: up to 3 per area, 2 areas."
                ),
            ),
            Param(
                "discard_policy",
                N_("Hand phase discards"),
                "choice",
                "dead",
                choices=(
                    ("dead", N_("Dead cards")),
                    ("none", N_("Nothing")),
                    ("dig", N_("All but placeable monsters")),
                ),
                help=N_(
                    "Which cards to discard before drawing back up to 6: dead cards (items "
                    "the hunter cannot use, weapons it can neither discard nor upgrade to, "
                    "monsters when the sheet is full), nothing, or everything except "
                    "monsters that can still be placed. Discarding digs deeper but brings "
                    "the deck-out (a retreat) sooner."
                ),
            ),
            Param(
                "lineup",
                N_("Training ground line-up"),
                "choice",
                NO_LINEUP,
                choices=(
                    (NO_LINEUP, N_("None: the opponent's sheet stays empty")),
                    ("starter", N_("Starter: four small monsters")),
                    ("mixed", N_("Mixed: small to rank 3")),
                    ("elder", N_("Elder: ranks 3 to 5")),
                    (UNIFORM, N_("Uniform: the numbers below")),
                ),
                help=N_(
                    "Reference monsters on the opponent's sheet that your hunter hunts for "
                    "HR points. None is the plain goldfish: the opponent never places a "
                    "monster."
                ),
            ),
            Param(
                "lineup_count",
                N_("Uniform line-up: monsters"),
                "int",
                4,
                minimum=1,
                maximum=6,
                help=N_("Used by the uniform line-up; at most 4 fit the 2-player sheet."),
            ),
            Param(
                "lineup_hp",
                N_("Uniform line-up: HP"),
                "int",
                4,
                minimum=1,
                maximum=20,
                help=N_("Used by the uniform line-up."),
            ),
            Param(
                "lineup_attack",
                N_("Uniform line-up: attack"),
                "int",
                2,
                minimum=0,
                maximum=10,
                help=N_("Used by the uniform line-up."),
            ),
            Param(
                "lineup_reach",
                N_("Uniform line-up: reach"),
                "int",
                2,
                minimum=0,
                maximum=6,
                help=N_("Used by the uniform line-up."),
            ),
            Param(
                "lineup_rank",
                N_("Uniform line-up: rank"),
                "int",
                2,
                minimum=0,
                maximum=5,
                help=N_("Used by the uniform line-up: HR points for slaying one."),
            ),
            Param(
                "restock",
                N_("Slain reference monsters return"),
                "choice",
                "one",
                choices=(
                    ("one", N_("One a turn")),
                    ("all", N_("All at once")),
                    ("none", N_("Never")),
                ),
                help=N_(
                    "An assumption: the training opponent places slain monsters back, face "
                    "down, in the placement phase (a real opponent places one a turn)."
                ),
            ),
            Param(
                "approach",
                N_("Areas from camp to the training sheet"),
                "int",
                2,
                minimum=1,
                maximum=6,
                help=N_(
                    "An assumption, as the map is not modelled: every area of the training "
                    "sheet is this many moves from your camp, and one move from each other."
                ),
            ),
            Param(
                "hunt_policy",
                N_("Hunt target"),
                "choice",
                "rank",
                choices=(
                    ("rank", N_("Highest rank it can slay")),
                    ("cheap", N_("Fewest cards spent")),
                ),
                help=N_(
                    "Which monster the hunter goes for among those it can slay this turn: "
                    "the highest rank, or the one costing the fewest discarded cards."
                ),
            ),
            Param(
                "item_effect",
                N_("Item effect"),
                "choice",
                "attack",
                choices=(
                    ("attack", N_("+1 attack")),
                    ("defence", N_("+1 defence")),
                    ("none", N_("None (only counted)")),
                ),
                help=N_(
                    "An assumption: item effects vary by card and are not in the catalog, so "
                    "a usable item counts as +1 attack, +1 defence, or nothing."
                ),
            ),
            Param(
                "armor_policy",
                N_("Armor cards in hand"),
                "choice",
                "absorb",
                choices=(
                    ("absorb", N_("Discard to absorb hits")),
                    ("never", N_("Keep them")),
                ),
                help=N_(
                    "Whether armor cards in hand are discarded for +1 defence each when a "
                    "monster hits (each saves one milled card)."
                ),
            ),
            Param(
                "reach_ties",
                N_("Equal reach acts first"),
                "choice",
                "hunter",
                choices=(("hunter", N_("The hunter")), ("monster", N_("The monster"))),
                help=N_(
                    "An assumption: the rules order the hunt by reach but do not say who "
                    "acts first on a tie. A flipped monster interrupts only with a higher "
                    "reach, as the rules say."
                ),
            ),
            Param(
                "deck_out",
                N_("Retreat when"),
                "choice",
                "on_empty",
                choices=(
                    ("on_empty", N_("The deck becomes empty")),
                    ("on_draw", N_("A card is needed from an empty deck")),
                ),
                help=N_(
                    "An assumption: the rules say a player whose deck has run out retreats. "
                    "Damage left when the retreat happens is lost."
                ),
            ),
            Param(
                "same_turn",
                N_("HR win and retirement in one turn"),
                "choice",
                "hr_first",
                choices=(
                    ("hr_first", N_("HR points first")),
                    ("retire_first", N_("Retirement check first")),
                ),
                help=N_(
                    "The rules say the HR win beats retirement, but list the retirement "
                    "check before the result phase's HR points. HR first: a player at the 3rd "
                    "retreat still scores those points and wins at 20. Retirement first: the "
                    "check comes before them."
                ),
            ),
            Param(
                "material_per_turn",
                N_("Material points a turn"),
                "int",
                0,
                minimum=0,
                maximum=10,
                help=N_(
                    "An assumption: material comes from your monsters that opponents slay, "
                    "which a goldfish never does, so only trade-ins pay for equipment. This "
                    "banks one material card worth this much each turn, as a stand-in."
                ),
            ),
            Param(
                "max_turns",
                N_("Turns at most"),
                "int",
                30,
                minimum=1,
                maximum=60,
                help=N_("A game still going after this many turns ends at the turn limit."),
            ),
        )
    )
    not_modelled = (
        N_("The opponent's hunter: it never hunts your monsters, so they stay face down."),
        N_("The map: roads and camps are replaced by a fixed distance to the training sheet."),
        N_("Other hunters in the training ground and the order of areas between hunters."),
        N_("Card text: item effects are one assumed +1; weak points are ignored."),
        N_(
            "Uniqueness checks: your monsters stay face down and reference monsters carry "
            "no main-target or one-per-field icons."
        ),
        N_("The parent (first player) and who becomes the next parent."),
        N_("Material points from your own slain monsters (see the material parameter)."),
    )
    cites = tuple(f"{DIGEST}:{line}" for line in CITED_LINES)
    metric_labels = {
        M_HR_PREFIX: N_("HR points by turn"),
        M_PLACED_PREFIX: N_("Monsters placed by turn"),
        M_REACHED: N_("Reached 20 HR points"),
        M_REACHED_TURN: N_("Turn 20 HR points were reached"),
        M_RETIRED: N_("Retired (3 retreats)"),
        M_RETIRED_TURN: N_("Turn of retirement"),
        M_LIMIT: N_("Turn limit reached"),
        M_WON_RETIRING: N_("HR win in the turn of the 3rd retreat"),
        M_RETREATS: N_("Retreats"),
        M_FIRST_RETREAT: N_("Turn of the first retreat"),
        M_MILLED: N_("Cards milled by monster damage"),
        M_WEAPONS: N_("Matching weapons in hand"),
        M_USABLE: N_("Usable items in hand"),
        M_DEAD_ITEMS: N_("Dead items in hand"),
        M_SLAIN: N_("Reference monsters slain"),
        M_HUNT_HR: N_("HR points from hunts"),
        M_FIRST_SLAY: N_("Turn of the first slain monster"),
        M_WEAPON_TURN: N_("Turn a weapon was first equipped"),
        M_ARMOR_TURN: N_("Turn armor was first equipped"),
    }

    def deck_problems(self, deck: SimDeck) -> list[str]:
        problems = []
        hunters = deck.in_zone(HUNTER_ZONE)
        if not hunters:
            problems.append(N_("The deck has no hunter card (it goes beside the deck)."))
        elif len(hunters) > 1 or sum(n for _i, n in deck.zones.get(HUNTER_ZONE, ())) > 1:
            problems.append(N_("The deck has more than one hunter card."))
        if deck.size < 1:
            problems.append(N_("The deck has no cards to draw."))
        return problems

    def prepare(self, deck: SimDeck, params: dict[str, Any]) -> MonsterHunterPrepared:
        problems = self.deck_problems(deck)
        if problems:
            raise ValueError("; ".join(problems))
        values = self.params.clean(params)
        (hunter,) = deck.in_zone(HUNTER_ZONE)
        cards = deck.cards
        attrs = [c.attributes for c in cards]
        kind = tuple(KIND_OF.get(c.card_type, OTHER) for c in cards)

        def weapon(i: int, key: str) -> int:
            return _int(attrs[i].get(key)) if kind[i] == WEAPON else 0

        def icon(i: int) -> int:
            code = attrs[i].get("weapon_icon")
            if kind[i] != WEAPON:
                return -1
            # an unknown icon still matches its own kind: one past the nine known ones
            return WEAPON_ICONS.index(code) if code in WEAPON_ICONS else len(WEAPON_ICONS)

        two = values["players"] == "2"
        areas = 4 if two else 2
        lineup = lineup_of(values)
        max_turns = int(values["max_turns"])
        item = values["item_effect"]
        n = range(len(cards))
        return MonsterHunterPrepared(
            deck=deck,
            pile=tuple(deck.pile()),
            names=tuple(c.name for c in cards),
            kind=kind,
            w_icon=tuple(icon(i) for i in n),
            w_atk=tuple(weapon(i, "attack") for i in n),
            w_mov=tuple(weapon(i, "movement") for i in n),
            w_rch=tuple(weapon(i, "reach") for i in n),
            w_mask=tuple(_mask(attrs[i].get("item_icons")) if kind[i] == WEAPON else 0 for i in n),
            cost=tuple(_int(attrs[i].get("cost")) for i in n),
            a_def=tuple(_int(attrs[i].get("defence")) if kind[i] == ARMOR else 0 for i in n),
            i_mask=tuple(_mask(attrs[i].get("item_icons")) if kind[i] == ITEM else 0 for i in n),
            m_hp=tuple(_int(attrs[i].get("hp")) if kind[i] == MONSTER else 0 for i in n),
            m_rank=tuple(_int(attrs[i].get("rank")) if kind[i] == MONSTER else 0 for i in n),
            m_main=tuple(kind[i] == MONSTER and bool(attrs[i].get("main_target")) for i in n),
            hunter_name=hunter.name,
            h_atk=_int(hunter.attributes.get("attack")),
            h_mov=_int(hunter.attributes.get("movement")),
            h_rch=_int(hunter.attributes.get("reach")),
            h_mask=_mask(hunter.attributes.get("item_icons")),
            two_player=two,
            capacity=4 if two else 6,  # line 47: 4 areas x 1, or 2 areas x 3
            areas=areas,
            lineup=lineup,
            # one per area on the 2-player side; round the two areas on the 3-4-player side
            lineup_area=tuple(i % areas for i in range(len(lineup))),
            discard_policy=str(values["discard_policy"]),
            hunt_rank_first=values["hunt_policy"] == "rank",
            item_attack=item == "attack",
            item_defence=item == "defence",
            item_none=item == "none",
            absorb=values["armor_policy"] == "absorb",
            ties_to_monster=values["reach_ties"] == "monster",
            on_empty=values["deck_out"] == "on_empty",
            hr_first=values["same_turn"] == "hr_first",
            restock=str(values["restock"]),
            approach=int(values["approach"]),
            material=int(values["material_per_turn"]),
            max_turns=max_turns,
            hr_keys=tuple(hr_key(t) for t in range(1, max_turns + 1)),
            placed_keys=tuple(placed_key(t) for t in range(1, max_turns + 1)),
        )

    def new_game(
        self, prepared: MonsterHunterPrepared, params: dict[str, Any], rng: random.Random
    ) -> MonsterHunterState:
        deck = list(prepared.pile)
        rng.shuffle(deck)  # the game's chance step; retreats reshuffle from ``seed``
        deck.reverse()  # drawn from the end: the shuffle's first card comes first
        return MonsterHunterState(prepared, deck, rng.getrandbits(62))

    def choose(self, state: MonsterHunterState) -> Action:
        return policy_action(state)

    def record(self, state: MonsterHunterState, metrics: Metrics) -> None:
        _record(state, metrics)

    def play(
        self,
        prepared: MonsterHunterPrepared,
        params: dict[str, Any],
        rng: random.Random,
        metrics: Metrics,
        transcript: list[str] | None = None,
    ) -> None:
        """The policy's game through ``step`` without the legality check, and without text
        unless a transcript is wanted: the same game as ``choose`` + ``apply``."""
        state = self.new_game(prepared, params, rng)
        step = state.step
        if transcript is None:
            while not state.over:
                step(policy_action(state), None)
        else:
            while not state.over:
                log: list[str] = []
                step(policy_action(state), log)
                transcript.append("; ".join(log))
        _record(state, metrics)


ENGINE = MonsterHunterEngine()


# --- the test-hand page: what the policy does first with an opening hand ---------------------


@dataclass(frozen=True)
class PlanStep:
    """One step of ``hand_plan``: ``text`` is an N_()-marked template with %(name)s
    placeholders filled from ``values``; ``cards`` are card indexes into ``deck.cards``."""

    text: str
    values: Mapping[str, object]
    cards: tuple[int, ...]


def hand_plan(deck: SimDeck, hand: Sequence[int], params: dict[str, Any]) -> list[PlanStep]:
    """What the engine's policy does first with this opening hand (the first turn after the
    hand phase's draw): what it places, where the hunter heads and what it would spend, what
    it equips, and what it would discard in the next hand phase."""
    p = ENGINE.prepare(deck, params)
    rest = list(p.pile)
    for card in hand:
        if card in rest:
            rest.remove(card)
    state = MonsterHunterState(p, rest[::-1], 0)
    state.hand = list(hand)
    state.phase = PLACE
    steps: list[PlanStep] = []
    names = p.names
    weapons = [c for c in hand if state.matches(c)]
    items = [c for c in hand if p.kind[c] == ITEM]
    usable = [c for c in items if state.usable(c)]
    steps.append(
        PlanStep(
            N_(
                "%(weapons)d weapon cards can be discarded for +1 attack each; %(usable)d "
                "of %(items)d items match %(hunter)s's item icons."
            ),
            {
                "weapons": len(weapons),
                "usable": len(usable),
                "items": len(items),
                "hunter": p.hunter_name,
            },
            tuple(weapons + usable),
        )
    )
    monster = best_monster(state)
    if monster >= 0:
        steps.append(
            PlanStep(
                N_(
                    "Places %(card)s face down: every face-down monster on your sheet scores "
                    "+1 HR point in each result phase."
                ),
                {"card": names[monster]},
                (monster,),
            )
        )
        state.step((PLACE_MONSTER, monster), None)
    else:
        steps.append(PlanStep(N_("No monster in hand: nothing is placed this turn."), {}, ()))
        state.step((SKIP, -1), None)
    if p.lineup:
        steps.append(_hunt_step(state))
        # the turn's move and hunt as the policy plays them, so the equip phase below sees
        # the hand the hunt leaves
        while not state.over and state.phase in (MOVE, HUNT):
            state.step(policy_action(state), None)
    if state.over:  # never on turn 1 (HR and retreats start at 0), but kept safe
        return steps
    for kind in (WEAPON, ARMOR):
        card = best_equip(state, kind)
        if card >= 0:
            steps.append(
                PlanStep(
                    N_("Equips %(card)s (cost %(cost)d material points)."),
                    {"card": names[card], "cost": p.cost[card]},
                    (card,),
                )
            )
            state.step((EQUIP_CARD, card), None)
    dead: list[int] = []
    state.phase = HAND
    while True:
        card = dead_card(state)
        if card < 0:
            break
        dead.append(card)
        state.hand.remove(card)
    if dead:
        steps.append(
            PlanStep(
                N_("Next hand phase it discards %(cards)s before drawing back up to 6."),
                {"cards": ", ".join(names[c] for c in dead)},
                tuple(dead),
            )
        )
    return steps


def _hunt_step(state: MonsterHunterState) -> PlanStep:
    """Where the hunter goes on the first turn and what it would spend there."""
    if state.dist > state.movement():
        return PlanStep(
            N_(
                "The hunter walks toward the training sheet: %(left)d more areas to go "
                "before it can hunt."
            ),
            {"left": state.dist - state.movement()},
            (),
        )
    slot, cost = best_target(state)
    if slot < 0:
        return PlanStep(
            N_(
                "No reference monster can be slain with this hand: the hunter waits where no "
                "face-up monster can hit it."
            ),
            {},
            (),
        )
    hp, _attack, _reach, rank = state.prepared.lineup[slot]
    spent = state.spend_plan(cost) if cost else []
    return PlanStep(
        N_(
            "The hunter heads for reference monster %(slot)d (HP %(hp)d, rank %(rank)d): "
            "attack %(attack)d plus %(cost)d discarded cards slays it."
        ),
        {"slot": slot + 1, "hp": hp, "rank": rank, "attack": state.attack(), "cost": cost},
        tuple(spent),
    )
