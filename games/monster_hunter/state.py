"""The Monster Hunter goldfish game's state: what the rules allow (the state API) and how each
action plays (``step``), which the state API and the fast ``play`` share (pure Python)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from games.monster_hunter.constants import (
    ADVANCE,
    ARMOR,
    ATTACK,
    DISCARD,
    DONE,
    DRAW,
    EQUIP,
    EQUIP_CARD,
    HAND,
    HAND_SIZE,
    HOLD,
    HUNT,
    ITEM,
    LIMIT,
    MONSTER,
    MOVE,
    MOVE_TO,
    PLACE,
    PLACE_MONSTER,
    RESHUFFLE_STRIDE,
    RETIRE_AT,
    RETIRED,
    SKIP,
    TARGET_HR,
    WEAPON,
    WIN,
    Action,
)
from simulator.engine.deal import deal_orders
from simulator.engine.engine import GameState

if TYPE_CHECKING:
    from games.monster_hunter.prepared import MonsterHunterPrepared


class MonsterHunterState(GameState):
    """One goldfish game, step by step (conformance tests, transcripts, test hands); the fast
    ``play`` drives the same ``step`` without the legality check."""

    def __init__(
        self, prepared: MonsterHunterPrepared, deck: list[int], run_seed: int, index: int = 0
    ) -> None:
        p = prepared
        self.prepared = p
        #: drawn from the end (``pop``); ``new_game`` reverses the dealt pile so the first
        #: card of the deal is drawn first
        self.deck = deck
        #: the game's run seed and index: the reshuffle after a retreat is dealt from them
        #: (``_retreat``), so the state holds plain integers (copies and comparisons need no
        #: generator) and the compiled kernel deals the same reshuffles
        self.run_seed = run_seed
        self.index = index
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
        pile = self.discard
        # the counter-based deal (simulator/engine/deal.py) of a game index no run reaches:
        # the r-th reshuffle of game i is dealt as game i + r * RESHUFFLE_STRIDE; drawn from
        # the end, so reversed
        index = self.index + self.retreats * RESHUFFLE_STRIDE
        order = deal_orders(self.run_seed, index, 1, len(pile))[0].tolist()
        deck = [pile[i] for i in reversed(order)]
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
