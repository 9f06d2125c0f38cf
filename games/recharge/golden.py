"""Recharge's golden games: a fixed deck and the games whose transcripts are kept in
``golden/`` (``manage.py regenerate_golden recharge`` rewrites them when a change is meant).
Pure data: the conformance tests take their fixed deck from here too."""

from __future__ import annotations

from typing import Any

from simulator.engine.cards import SimCard, SimDeck
from simulator.engine.golden import DEFAULT_GAMES, GoldenGame


def _deck() -> SimDeck:
    """Twenty-five demo-set Recharge cards (games/recharge/catalog.json, copied so this
    file stays fixed): one- and two-colour edges on every kind, teamwork that leads to no hero,
    power cards whose sides differ, special cards and Power Plus copies (one beside its
    normal version, as the tournament rules allow, recharge.md:25)."""
    # heroes and teamwork: (code, name, type, power, left, right, flag); "+" joins colours
    fighters = (
        ("RCD-001", "Captain Meridian", "hero", 45, "red", "red", ""),
        ("RCD-001", "Captain Meridian", "hero", 45, "red", "red", "power-plus"),
        ("RCD-002", "Silver Kestrel", "hero", 30, "red+yellow", "red", ""),
        ("RCD-004", "Tidebreaker", "hero", 35, "blue", "red+blue", ""),
        ("RCD-007", "Static Queen", "hero", 40, "yellow+blue", "blue", ""),
        ("RCD-009", "Paragon Prime", "hero", 60, "red", "red", "special"),
        ("RCD-019", "Hex Mistress", "hero", 30, "green+yellow", "green+yellow", ""),
        ("RCD-022", "Ferroline", "hero", 40, "green+blue", "green", ""),
        ("RCD-029", "Halcyon", "hero", 40, "red+blue", "red+blue", "power-plus"),
        ("RCD-032", "Kid Voltage", "hero", 10, "red", "blue", ""),
        ("RCD-033", "Shoulder to Shoulder", "teamwork", 10, "red", "red", "power-plus"),
        ("RCD-039", "Tag-Team Takedown", "teamwork", 20, "red", "red+blue", ""),
        ("RCD-044", "Double Cross", "teamwork", 30, "green", "green+yellow", "special"),
        ("RCD-045", "Psychic Link", "teamwork", 20, "blue", "yellow+blue", ""),
        ("RCD-048", "Rescue Run", "teamwork", 10, "yellow", "red", ""),
        ("RCD-049", "Crossfire", "teamwork", 20, "red+blue", "green+yellow", ""),
        ("RCD-056", "Storm Front", "teamwork", 15, "yellow+blue", "green+blue", ""),
    )
    # power cards: (code, name, left, left power, right, right power, flag)
    powers = (
        ("RCD-057", "Kinetic Surge", "red", 20, "blue", 10, ""),
        ("RCD-060", "Solar Flare", "red", 25, "yellow", 15, ""),
        ("RCD-064", "Force Field", "yellow", 20, "blue", 20, "power-plus"),
        ("RCD-066", "Cosmic Charge", "red+blue", 30, "yellow", 5, ""),
        ("RCD-067", "Elemental Fury", "yellow+blue", 25, "green+blue", 20, ""),
        ("RCD-075", "Dark Bargain", "green", 40, "green", 5, "special"),
        ("RCD-080", "Plasma Burst", "blue", 25, "green", 25, ""),
        ("RCD-083", "Echo Strike", "red+yellow", 15, "blue", 5, ""),
    )
    cards: list[SimCard] = []

    def add(code: str, name: str, card_type: str, attributes: dict[str, Any], flag: str) -> None:
        if flag == "special":
            attributes["special"] = True
        variant = flag if flag == "power-plus" else ""
        cards.append(SimCard(len(cards), code, name, card_type, attributes, variant))

    for code, name, card_type, power, left, right, flag in fighters:
        attributes = {"power": power, "left": left.split("+"), "right": right.split("+")}
        add(code, name, card_type, attributes, flag)
    for code, name, left, left_power, right, right_power, flag in powers:
        attributes = {
            "left": left.split("+"),
            "left_power": left_power,
            "right": right.split("+"),
            "right_power": right_power,
        }
        add(code, name, "power", attributes, flag)
    return SimDeck(
        game="recharge",
        cards=tuple(cards),
        zones={"main": tuple((card.index, 1) for card in cards)},
        draw_zone="main",
    )


GOLDEN_DECK = _deck()
GOLDEN_GAMES = (
    *DEFAULT_GAMES,
    # the optional rule: power cards chain outward from power cards (recharge.md:19-20)
    GoldenGame("chain_game3", 3, {"chain_power_cards": True}),
    # a high bar to open and a short game
    GoldenGame("threshold100_turns6_game4", 4, {"open_threshold": 100, "turns": 6}),
)
