"""Mattsan's golden games: a fixed deck and the games whose transcripts are kept in ``golden/``
(``manage.py regenerate_golden mattsan`` rewrites them when a change is meant). Pure data: the
conformance tests take their fixed deck from here too."""

from __future__ import annotations

from typing import Any

from simulator.engine.cards import SimCard, SimDeck


def _deck() -> SimDeck:
    """A hand-made 30-card deck (mattsan.md:8) of demo-set cards (games/mattsan/catalog.json,
    copied so the file stays fixed) that reaches every rule the engine plays: units from 1 to
    15 HP, with soul 0 (no soul draw) to 6, trumps costing 0 to 6 soul charge, and traps and
    terrain that the goldfish never plays (the soul charge from hand spends them first)."""
    # (code, name, type, attributes, copies)
    lines: tuple[tuple[str, str, str, dict[str, Any], int], ...] = (
        ("MTD-020", "Sleeping Giant", "unit", {"hp": 15, "soul": 6}, 1),
        ("MTD-008", "Iron-Arm Junker", "unit", {"hp": 7, "soul": 2, "family": "ロボ"}, 2),
        ("MTD-001", "Greengrocer Boss", "unit", {"hp": 6, "soul": 2, "family": "商店街"}, 3),
        ("MTD-003", "Croquette Chief", "unit", {"hp": 4, "soul": 1, "family": "商店街"}, 3),
        ("MTD-007", "Cleaning Bot Pika", "unit", {"hp": 3, "soul": 1, "family": "ロボ"}, 3),
        ("MTD-006", "Tiny Screw Trooper", "unit", {"hp": 1, "soul": 0, "family": "ロボ"}, 3),
        ("MTD-034", "Seconds, Please", "trump", {"cost": 0}, 2),
        ("MTD-027", "All-Out Dash", "trump", {"cost": 1}, 2),
        ("MTD-028", "Bargain Sale", "trump", {"cost": 2}, 2),
        ("MTD-031", "Meteor Kick", "trump", {"cost": 3}, 1),
        ("MTD-029", "Giant-Growth Ray", "trump", {"cost": 4}, 1),
        ("MTD-032", "Grand Reversal", "trump", {"cost": 6}, 1),
        ("MTD-035", "Banana Peel", "trap", {}, 2),
        ("MTD-036", "Decoy Doll", "trap", {}, 1),
        ("MTD-041", "Secret Base", "terrain", {"sideways": True}, 1),
        ("MTD-040", "Shopping Arcade", "terrain", {"sideways": False}, 2),
    )
    cards = tuple(
        SimCard(index, code, name, card_type, {**attributes, "rarity": 1})
        for index, (code, name, card_type, attributes, _copies) in enumerate(lines)
    )
    return SimDeck(
        game="mattsan",
        cards=cards,
        zones={"main": tuple((index, line[4]) for index, line in enumerate(lines))},
        draw_zone="main",
    )


GOLDEN_DECK = _deck()
#: (label, game index in the golden run, parameters over the defaults); the indexes are games
#: of engine version 2's counter-based deals that reach the rule each file is kept for
GOLDEN_GAMES: tuple[tuple[str, int, dict[str, Any]], ...] = (
    ("game0", 0, {}),
    # no bench reserves and a dummy that hits back: re-placing from the hand, until no unit
    # can be put on the battlefield
    (
        "no_bench_game1",
        78,
        {"fill_bench": False, "replace_from": "hand", "dummy_damage": 5, "unit_order": "lowest_hp"},
    ),
    # soul charge from the hand (traps and terrain first), spent soul stays spent, and an
    # opening that waits for its first unit
    (
        "hand_charge_wait_game2",
        236,
        {"soul_charge_from": "hand", "soul_untaps": False, "opening_without_unit": "wait"},
    ),
    # a dummy that hits back against a tough line-up: our units fall, we soul-draw and re-place
    # until our deck runs out
    (
        "dummy_attacks_game3",
        5,
        {
            "dummy_damage": 7,
            "soul_draw": 2,
            "dummy_hp_1": 40,
            "dummy_hp_2": 40,
            "dummy_hp_3": 40,
            "dummy_hp_4": 40,
            "dummy_deck": 60,
        },
    ),
    # trumps that hit every unit on both fields: simultaneous defeats in the seed's order
    # (enemy battlefield, own battlefield, benches alternating), soul draws, and both players
    # meeting a loss condition at once, so the originator (we) loses
    (
        "whole_field_game4",
        832,
        {"trump_damage": 4, "trump_target": "whole_field", "dummy_hp_4": 6},
    ),
    # a dummy with a thin deck and a big soul: its soul draws run it out
    (
        "dummy_deck_out_game5",
        7,
        {"dummy_deck": 3, "dummy_soul": 3, "trump_damage": 2, "trump_target": "enemy_field"},
    ),
)
