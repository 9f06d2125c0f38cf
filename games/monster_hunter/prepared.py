"""What every game of a Monster Hunter run shares: integer tables by card index, the hunter's
numbers and the cleaned parameters, built once by ``MonsterHunterEngine.prepare`` (pure
Python)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.monster_hunter import kernel
from games.monster_hunter.constants import (
    ARMOR,
    HUNTER_ZONE,
    ITEM,
    ITEM_ICONS,
    KIND_OF,
    LINEUPS,
    MONSTER,
    NO_LINEUP,
    OTHER,
    UNIFORM,
    WEAPON,
    WEAPON_ICONS,
)
from games.monster_hunter.metrics import hr_key, placed_key
from simulator.engine.cards import SimDeck


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
    #: the same tables as the compiled kernel's arrays (not compared: numpy arrays)
    tables: kernel.KernelTables = field(compare=False, repr=False)


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


def build_prepared(deck: SimDeck, values: dict[str, Any]) -> MonsterHunterPrepared:
    """The tables of ``deck`` (which has one hunter) under the cleaned parameters ``values``."""
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
    capacity = 4 if two else 6  # line 47: 4 areas x 1, or 2 areas x 3
    lineup = lineup_of(values)
    # one per area on the 2-player side; round the two areas on the 3-4-player side
    lineup_area = tuple(i % areas for i in range(len(lineup)))
    max_turns = int(values["max_turns"])
    item = values["item_effect"]
    n = range(len(cards))
    pile = tuple(deck.pile())
    w_icon = tuple(icon(i) for i in n)
    w_atk = tuple(weapon(i, "attack") for i in n)
    w_mov = tuple(weapon(i, "movement") for i in n)
    w_rch = tuple(weapon(i, "reach") for i in n)
    w_mask = tuple(_mask(attrs[i].get("item_icons")) if kind[i] == WEAPON else 0 for i in n)
    cost = tuple(_int(attrs[i].get("cost")) for i in n)
    a_def = tuple(_int(attrs[i].get("defence")) if kind[i] == ARMOR else 0 for i in n)
    i_mask = tuple(_mask(attrs[i].get("item_icons")) if kind[i] == ITEM else 0 for i in n)
    m_hp = tuple(_int(attrs[i].get("hp")) if kind[i] == MONSTER else 0 for i in n)
    m_rank = tuple(_int(attrs[i].get("rank")) if kind[i] == MONSTER else 0 for i in n)
    hunter_numbers = (
        _int(hunter.attributes.get("attack")),
        _int(hunter.attributes.get("movement")),
        _int(hunter.attributes.get("reach")),
        _mask(hunter.attributes.get("item_icons")),
    )
    policy = str(values["discard_policy"])
    restock = str(values["restock"])
    flags = {
        "hunt_rank_first": values["hunt_policy"] == "rank",
        "item_attack": item == "attack",
        "item_defence": item == "defence",
        "item_none": item == "none",
        "absorb": values["armor_policy"] == "absorb",
        "ties_to_monster": values["reach_ties"] == "monster",
        "on_empty": values["deck_out"] == "on_empty",
        "hr_first": values["same_turn"] == "hr_first",
    }
    approach = int(values["approach"])
    material = int(values["material_per_turn"])
    tables = kernel.build_tables(
        pile=pile,
        columns=(kind, w_icon, w_atk, w_mov, w_rch, w_mask, cost, a_def, i_mask, m_hp, m_rank),
        lineup=lineup,
        lineup_area=lineup_area,
        setting=(
            *hunter_numbers,
            int(two),
            capacity,
            areas,
            ("none", "dead", "dig").index(policy),
            *(int(flag) for flag in flags.values()),
            ("none", "one", "all").index(restock),
            approach,
            material,
            max_turns,
        ),
    )
    return MonsterHunterPrepared(
        deck=deck,
        pile=pile,
        names=tuple(c.name for c in cards),
        kind=kind,
        w_icon=w_icon,
        w_atk=w_atk,
        w_mov=w_mov,
        w_rch=w_rch,
        w_mask=w_mask,
        cost=cost,
        a_def=a_def,
        i_mask=i_mask,
        m_hp=m_hp,
        m_rank=m_rank,
        m_main=tuple(kind[i] == MONSTER and bool(attrs[i].get("main_target")) for i in n),
        hunter_name=hunter.name,
        h_atk=hunter_numbers[0],
        h_mov=hunter_numbers[1],
        h_rch=hunter_numbers[2],
        h_mask=hunter_numbers[3],
        two_player=two,
        capacity=capacity,
        areas=areas,
        lineup=lineup,
        lineup_area=lineup_area,
        discard_policy=policy,
        restock=restock,
        approach=approach,
        material=material,
        max_turns=max_turns,
        hr_keys=tuple(hr_key(t) for t in range(1, max_turns + 1)),
        placed_keys=tuple(placed_key(t) for t in range(1, max_turns + 1)),
        hunt_rank_first=flags["hunt_rank_first"],
        item_attack=flags["item_attack"],
        item_defence=flags["item_defence"],
        item_none=flags["item_none"],
        absorb=flags["absorb"],
        ties_to_monster=flags["ties_to_monster"],
        on_empty=flags["on_empty"],
        hr_first=flags["hr_first"],
        tables=tables,
    )
