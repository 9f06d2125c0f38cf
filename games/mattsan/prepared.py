"""What every game of a Mattsan run shares: per-card integer tables and the cleaned
parameters, built once by ``MattsanEngine.prepare``, with the same tables as the compiled
kernel's numpy arrays (``kernel.KernelTables``), so a worker builds them once per run."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from games.mattsan import kernel
from games.mattsan.constants import DUMMY_SLOTS, K_OTHER, K_TRUMP, K_UNIT, TRUMP_TARGETS
from games.mattsan.metrics import (
    M_NO_UNIT_PREFIX,
    M_SOUL_PREFIX,
    M_TRUMP_PREFIX,
    M_TRUMPS_PREFIX,
    turn_key,
)
from simulator.engine.cards import SimDeck


@dataclass(frozen=True, slots=True)
class MattsanPrepared:
    """Per-card integer tables (indexed by card index) and the cleaned parameters."""

    deck: SimDeck
    pile: tuple[int, ...]
    names: tuple[str, ...]
    kind: tuple[int, ...]
    hp: tuple[int, ...]
    soul: tuple[int, ...]
    cost: tuple[int, ...]
    #: units: higher = placed sooner (distinct); 0 for other cards
    unit_rank: tuple[int, ...]
    #: trumps: higher = cast sooner (higher cost first; distinct); 0 for other cards
    trump_rank: tuple[int, ...]
    #: soul charge from hand: lower = charged sooner (distinct); 0 = never charged (units)
    charge_rank: tuple[int, ...]
    opening: int
    soul_charge: int
    charge_from_hand: bool
    soul_untaps: bool
    soul_draw: int
    attack_damage: int
    trump_damage: int
    trump_on_dummy: int
    trump_on_us: int
    dummy_line_up: tuple[int, ...]
    dummy_soul: int
    dummy_deck: int
    dummy_damage: int
    wait_for_unit: bool
    highest_first: bool
    fill_bench: bool
    replace_from_bench: bool
    max_turns: int
    no_unit_keys: tuple[str, ...]
    soul_keys: tuple[str, ...]
    trump_keys: tuple[str, ...]
    trumps_keys: tuple[str, ...]
    #: the same tables as the compiled kernel's arrays (not compared: numpy arrays)
    tables: kernel.KernelTables = field(compare=False, repr=False)


def _int(raw: Any) -> int:
    """An attribute as a whole number (absent or malformed: 0)."""
    try:
        return int(raw or 0)
    except (TypeError, ValueError):
        return 0


def _ranked(cards: Sequence[int], key: Any) -> dict[int, int]:
    """Card index -> its position (from 1) in ``key`` order: distinct ranks, so a max over a
    hand never depends on the hand's order."""
    return {card: position for position, card in enumerate(sorted(cards, key=key), start=1)}


def build_prepared(deck: SimDeck, v: dict[str, Any]) -> MattsanPrepared:
    """The tables of ``deck`` under the cleaned parameters ``v``."""
    cards = deck.cards
    kinds = tuple(
        K_UNIT if c.card_type == "unit" else K_TRUMP if c.card_type == "trump" else K_OTHER
        for c in cards
    )
    # a unit has at least 1 HP (catalog minimum); malformed data counts as 1
    hp = tuple(
        max(_int(c.attributes.get("hp")), 1) if k == K_UNIT else 0
        for c, k in zip(cards, kinds, strict=True)
    )
    soul = tuple(
        max(_int(c.attributes.get("soul")), 0) if k == K_UNIT else 0
        for c, k in zip(cards, kinds, strict=True)
    )
    cost = tuple(
        max(_int(c.attributes.get("cost")), 0) if k == K_TRUMP else 0
        for c, k in zip(cards, kinds, strict=True)
    )
    indexes = range(len(cards))
    units = [i for i in indexes if kinds[i] == K_UNIT]
    trumps = [i for i in indexes if kinds[i] == K_TRUMP]
    others = [i for i in indexes if kinds[i] == K_OTHER]
    sign = 1 if v["unit_order"] == "highest_hp" else -1
    # placed sooner: HP by the chosen order, then higher soul; the index makes ranks distinct
    unit_rank = _ranked(units, lambda i: (sign * hp[i], soul[i], -i))
    trump_rank = _ranked(trumps, lambda i: (cost[i], -i))
    # charged from hand sooner: traps/terrain, then trumps from the most expensive
    charge_order = [*others, *sorted(trumps, key=lambda i: (-cost[i], i))]
    charge_rank = {card: n for n, card in enumerate(charge_order, start=1)}
    on_dummy, on_us = TRUMP_TARGETS[v["trump_target"]]
    max_turns = int(v["max_turns"])
    turns = range(1, max_turns + 1)
    pile = tuple(deck.pile())
    ranks = {
        name: tuple(table.get(i, 0) for i in indexes)
        for name, table in (
            ("unit_rank", unit_rank),
            ("trump_rank", trump_rank),
            ("charge_rank", charge_rank),
        )
    }
    line_up = tuple(int(v[f"dummy_hp_{slot}"]) for slot in range(1, DUMMY_SLOTS + 1))
    settings = {
        kernel.S_OPENING: int(v["opening"]),
        kernel.S_SOUL_CHARGE: int(v["soul_charge"]),
        kernel.S_CHARGE_FROM_HAND: int(v["soul_charge_from"] == "hand"),
        kernel.S_SOUL_UNTAPS: int(bool(v["soul_untaps"])),
        kernel.S_SOUL_DRAW: int(v["soul_draw"]),
        kernel.S_ATTACK_DAMAGE: int(v["attack_damage"]),
        kernel.S_TRUMP_DAMAGE: int(v["trump_damage"]),
        kernel.S_TRUMP_ON_DUMMY: on_dummy,
        kernel.S_TRUMP_ON_US: on_us,
        kernel.S_DUMMY_SOUL: int(v["dummy_soul"]),
        kernel.S_DUMMY_DECK: int(v["dummy_deck"]),
        kernel.S_DUMMY_DAMAGE: int(v["dummy_damage"]),
        kernel.S_WAIT_FOR_UNIT: int(v["opening_without_unit"] == "wait"),
        kernel.S_FILL_BENCH: int(bool(v["fill_bench"])),
        kernel.S_REPLACE_FROM_BENCH: int(v["replace_from"] == "bench"),
        kernel.S_MAX_TURNS: max_turns,
    }
    setting = tuple(settings[k] for k in range(kernel.SETTINGS))
    return MattsanPrepared(
        deck=deck,
        pile=pile,
        names=tuple(c.name for c in cards),
        kind=kinds,
        hp=hp,
        soul=soul,
        cost=cost,
        unit_rank=ranks["unit_rank"],
        trump_rank=ranks["trump_rank"],
        charge_rank=ranks["charge_rank"],
        opening=setting[kernel.S_OPENING],
        soul_charge=setting[kernel.S_SOUL_CHARGE],
        charge_from_hand=bool(setting[kernel.S_CHARGE_FROM_HAND]),
        soul_untaps=bool(setting[kernel.S_SOUL_UNTAPS]),
        soul_draw=setting[kernel.S_SOUL_DRAW],
        attack_damage=setting[kernel.S_ATTACK_DAMAGE],
        trump_damage=setting[kernel.S_TRUMP_DAMAGE],
        trump_on_dummy=on_dummy,
        trump_on_us=on_us,
        dummy_line_up=line_up,
        dummy_soul=setting[kernel.S_DUMMY_SOUL],
        dummy_deck=setting[kernel.S_DUMMY_DECK],
        dummy_damage=setting[kernel.S_DUMMY_DAMAGE],
        wait_for_unit=bool(setting[kernel.S_WAIT_FOR_UNIT]),
        highest_first=sign > 0,
        fill_bench=bool(setting[kernel.S_FILL_BENCH]),
        replace_from_bench=bool(setting[kernel.S_REPLACE_FROM_BENCH]),
        max_turns=max_turns,
        no_unit_keys=tuple(turn_key(M_NO_UNIT_PREFIX, t) for t in turns),
        soul_keys=tuple(turn_key(M_SOUL_PREFIX, t) for t in turns),
        trump_keys=tuple(turn_key(M_TRUMP_PREFIX, t) for t in turns),
        trumps_keys=tuple(turn_key(M_TRUMPS_PREFIX, t) for t in turns),
        tables=kernel.build_tables(
            pile=pile,
            kind=kinds,
            hp=hp,
            soul=soul,
            cost=cost,
            unit_rank=ranks["unit_rank"],
            trump_rank=ranks["trump_rank"],
            charge_rank=ranks["charge_rank"],
            line_up=line_up,
            setting=setting,
        ),
    )
