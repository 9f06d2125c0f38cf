"""The Monster Hunter goldfish policy: the action it takes in a state, and the choices it is
made of (pure Python; the engine's docstring describes the policy)."""

from __future__ import annotations

from games.monster_hunter.constants import (
    ADVANCE,
    ARMOR,
    ATTACK,
    DISCARD,
    DONE,
    DRAW,
    EQUIP_CARD,
    HAND,
    HOLD,
    HUNT,
    ITEM,
    MONSTER,
    MOVE,
    MOVE_TO,
    PLACE,
    PLACE_MONSTER,
    SKIP,
    WEAPON,
    Action,
)
from games.monster_hunter.state import MonsterHunterState


def monster_room(state: MonsterHunterState) -> int:
    """How many more monsters can ever be placed in this game: the free slots of our sheet
    (monster-hunter.md:47) plus the face-up monsters a new one may replace (line 48). Ours
    never leave the sheet: the goldfish opponent never hunts (line 68), so they stay face
    down and a slot once taken stays taken."""
    p = state.prepared
    replaceable = sum(1 for card in state.up if not p.m_main[card])
    return p.capacity - len(state.down) - len(state.up) + replaceable


def placeable_monsters(state: MonsterHunterState) -> list[int]:
    """The monsters of the hand that can still be placed: the ``monster_room`` ones the
    placement would take first (``best_monster``'s order: highest HP, then rank); any
    other monster in hand can never be placed (one a turn, line 46)."""
    p = state.prepared
    monsters = [card for card in state.hand if p.kind[card] == MONSTER]
    monsters.sort(key=lambda c: (p.m_hp[c], p.m_rank[c], -c), reverse=True)
    return monsters[: max(monster_room(state), 0)]


def affordable(state: MonsterHunterState, card: int) -> bool:
    """Whether equipping ``card`` can be paid for now or on a later turn (line 60). With
    ``material_per_turn`` the bank grows every turn, so some day; without, the bank stays
    at 0 (line 38; the material of slain monsters goes to their owner, lines 55-56, and
    ours are never slain), only trade-ins pay (line 61), and every card ever equipped was
    paid by a trade-in, so what ``payable`` refuses now it refuses for good."""
    return state.prepared.material > 0 or state.payable(card) >= 0


def of_use(state: MonsterHunterState, card: int) -> bool:
    """Whether the hunter can still use ``card`` (not a monster) in this game, as the rules
    allow and the policy plays. Only in the training ground (``lineup``) is there a hunt:
    the hunt is on monsters on the opponent's sheet (lines 51-53), which a goldfish
    opponent never places (line 68). Items are used only in the hunt (line 26), when their
    icons match and they have an effect (``item_effect``); weapon cards are discarded for
    attack only in the hunt and only when matching (lines 21-22, 54), or equipped when
    better and payable (lines 20, 60); armor cards absorb hits only in the hunt when the
    ``armor_policy`` discards them (lines 25, 57), or are equipped when better and payable
    (lines 25, 60)."""
    p = state.prepared
    hunting = bool(p.lineup)
    kind = p.kind[card]
    if kind == ITEM:
        return hunting and not p.item_none and state.usable(card)
    if kind == WEAPON:
        if hunting and state.matches(card):
            return True
        return p.w_atk[card] > state.attack() and affordable(state, card)
    if kind == ARMOR:
        if hunting and p.absorb:
            return True
        return p.a_def[card] > state.defence() and affordable(state, card)
    return False


def dead_card(state: MonsterHunterState) -> int:
    """The first card of the hand that ``discard_policy`` discards in the hand phase, or -1.

    "dead": every card the hunter can never use in this game: monsters beyond those that
    can still be placed (``placeable_monsters``), and any other card not ``of_use`` (in the
    plain goldfish, with no line-up and no material, every card but monsters). "dig": every
    card but the monsters that can still be placed. "none": nothing. Of several copies of a
    monster the first ones in hand are the kept ones."""
    p = state.prepared
    policy = p.discard_policy
    if policy == "none":
        return -1
    kept = placeable_monsters(state)
    kind = p.kind
    for card in state.hand:
        if kind[card] == MONSTER:
            if card in kept:
                kept.remove(card)
            else:
                return card
        elif policy == "dig" or not of_use(state, card):
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
    """The goldfish policy's action in ``state`` (see the engine's module docstring)."""
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
