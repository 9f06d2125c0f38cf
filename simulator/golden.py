"""Golden seeded transcripts (python-chess's perft files, OpenSpiel's playthroughs): one fixed
deck per engine and a few games of it, whose move-by-move transcripts are kept in
tests/simulator/golden/<game>_<label>.txt. A change in how an engine plays shows up there as a
diff; when the change is meant, ``manage.py regenerate_golden [GAME]`` rewrites the files.

Pure Python like the engines (the conformance tests also take their fixed decks from here).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simulator.engine.cards import SimCard, SimDeck
from simulator.engine.engine import Engine, transcript_of

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "tests" / "simulator" / "golden"
#: the run seed of every golden game; changing it rewrites every golden file
GOLDEN_RUN_SEED = 20250601


@dataclass(frozen=True)
class GoldenGame:
    #: the file is <game slug>_<label>.txt
    label: str
    #: the game's index in the golden run (its seed is game_seed(GOLDEN_RUN_SEED, index))
    index: int
    #: parameters over the engine's defaults
    params: Mapping[str, Any] = field(default_factory=dict)


#: the games recorded for an engine that lists none in GOLDEN_GAMES
DEFAULT_GAMES = (GoldenGame("game0", 0), GoldenGame("game1", 1), GoldenGame("game2", 2))


def _unmatched_deck() -> SimDeck:
    """A hand-made hero deck that reaches every rule the engine plays: the hero's, the
    sidekick's and anyone's cards, defense and scheme cards, a value-0 attack and another
    hero's cards (dead in hand), so long games meet the hand limit and exhaustion."""
    hero = SimCard(
        0,
        "character-medusa",
        "Medusa",
        "character",
        {"hp": 16, "move": 3, "ranged": True, "sidekick": "Harpies", "sidekick_hp": 1},
    )
    # (name, type, value or None, fighter, boost, copies)
    actions = (
        ("Stone Stare", "attack", 4, "Medusa", 2, 2),
        ("Venom Shot", "attack", 3, "Medusa", 1, 3),
        ("Talon Rake", "versatile", 3, "Harpy", 2, 3),
        ("Swoop", "attack", 2, "Harpies", 3, 2),
        ("Quick Jab", "versatile", 2, "any", 1, 2),
        ("Glancing Blow", "versatile", 1, "any", 2, 2),
        ("Hold Fast", "defense", 4, "Medusa", 3, 4),
        ("Sidestep", "defense", 2, "any", 1, 4),
        ("Dark Bargain", "scheme", None, "Medusa", 4, 2),
        ("Rally Call", "scheme", None, "any", 2, 2),
        ("Spear of Troy", "attack", 5, "Achilles", 2, 2),
        ("Empty Feint", "attack", 0, "any", 1, 2),
    )
    cards = [hero]
    deck = []
    for index, (name, card_type, value, fighter, boost, copies) in enumerate(actions, start=1):
        attributes: dict[str, Any] = {"fighter": fighter, "boost": boost}
        if value is not None:
            attributes["value"] = value
        code = "um-" + name.lower().replace(" ", "-")
        cards.append(SimCard(index, code, name, card_type, attributes))
        deck.append((index, copies))
    return SimDeck(
        game="unmatched",
        cards=tuple(cards),
        zones={"hero": ((0, 1),), "deck": tuple(deck)},
        draw_zone="deck",
    )


def _recharge_deck() -> SimDeck:
    """Twenty-five demo-set Recharge cards (catalog/data/recharge.json, copied so the file
    stays fixed): one- and two-colour edges on every kind, teamwork that leads to no hero,
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


#: one fixed deck per engine (also used by tests/simulator/test_conformance.py)
GOLDEN_DECKS: dict[str, SimDeck] = {
    "unmatched": _unmatched_deck(),
    "recharge": _recharge_deck(),
}

#: the games kept per engine (default: DEFAULT_GAMES)
GOLDEN_GAMES: dict[str, tuple[GoldenGame, ...]] = {
    "unmatched": (
        *DEFAULT_GAMES,
        # a long game that meets the hand limit
        GoldenGame("opponent30_game3", 3, {"opponent_hp": 30}),
        # more HP than the deck has damage: the deck runs out and exhaustion defeats our hero
        GoldenGame("opponent40_game4", 4, {"opponent_hp": 40}),
        # the turn limit ends the game before the opponent falls
        GoldenGame("two_turns_game5", 5, {"max_turns": 2}),
    ),
    "recharge": (
        *DEFAULT_GAMES,
        # the optional rule: power cards chain outward from power cards (recharge.md:19-20)
        GoldenGame("chain_game3", 3, {"chain_power_cards": True}),
        # a high bar to open and a short game
        GoldenGame("threshold100_turns6_game4", 4, {"open_threshold": 100, "turns": 6}),
    ),
}


def golden_games(slug: str) -> tuple[GoldenGame, ...]:
    return GOLDEN_GAMES.get(slug, DEFAULT_GAMES)


def golden_path(slug: str, game: GoldenGame, directory: Path | None = None) -> Path:
    return (directory or GOLDEN_DIR) / f"{slug}_{game.label}.txt"


def golden_text(engine: Engine[Any, Any], deck: SimDeck, game: GoldenGame) -> str:
    """One golden file: a header saying how to replay it, then the transcript."""
    params = engine.params.clean(dict(game.params))
    lines = transcript_of(engine, deck, params, run_seed=GOLDEN_RUN_SEED, index=game.index)
    shown = ", ".join(f"{k}={v}" for k, v in sorted(params.items())) or "none"
    header = [
        f"# {engine.slug} golden game {game.label!r} (engine version {engine.version})",
        f"# run seed {GOLDEN_RUN_SEED}, game {game.index}; params: {shown}",
        f"# deck: simulator/golden.py GOLDEN_DECKS[{engine.slug!r}]",
        f"# regenerate (only when the change is meant): manage.py regenerate_golden {engine.slug}",
    ]
    return "\n".join([*header, *lines]) + "\n"


def golden_files(
    slug: str, engine: Engine[Any, Any], directory: Path | None = None
) -> dict[Path, str]:
    """Every golden file of ``slug`` and its expected text. KeyError: no fixed deck here."""
    deck = GOLDEN_DECKS[slug]
    return {
        golden_path(slug, game, directory): golden_text(engine, deck, game)
        for game in golden_games(slug)
    }
