"""Monster Hunter's golden games: a fixed deck and the games whose transcripts are kept in
``golden/`` (``manage.py regenerate_golden monster-hunter`` rewrites them when a change is
meant). Pure data: the conformance tests take their fixed deck from here too."""

from __future__ import annotations

from typing import Any

from simulator.engine.cards import SimCard, SimDeck


def _deck() -> SimDeck:
    """A hand-made 40-card deck and its hunter (numbers after the catalog's demo cards) that
    reaches every rule the engine plays: monsters with and without a main-target icon, weapons
    of three icons (so some match the equipped one and some do not) at costs 1-2, armor for
    absorbing hits and for equipping, and items whose icons the hunter can and cannot use."""
    hunter = SimCard(
        0,
        "golden-hunter",
        "Wandering Hunter",
        "hunter",
        {"attack": 2, "movement": 2, "reach": 2, "item_icons": ["meat", "barrel-bomb"]},
    )
    # (name, type, attributes, copies)
    rows: tuple[tuple[str, str, dict[str, Any], int], ...] = (
        (
            "Reedskipper",
            "monster",
            {"attack": 1, "movement": 2, "reach": 3, "hp": 1, "rank": 1, "material_points": 1},
            4,
        ),
        (
            "Bramble Boar",
            "monster",
            {"attack": 2, "movement": 2, "reach": 1, "hp": 2, "rank": 1, "material_points": 1},
            3,
        ),
        (
            "Dune Prowler",
            "monster",
            {"attack": 3, "movement": 2, "reach": 2, "hp": 4, "rank": 2, "material_points": 3},
            3,
        ),
        (
            "Emberjaw",
            "monster",
            {
                "attack": 4,
                "movement": 2,
                "reach": 2,
                "hp": 7,
                "rank": 3,
                "material_points": 4,
                "main_target": True,
            },
            2,
        ),
        (
            "Ashen Sovereign",
            "monster",
            {
                "attack": 6,
                "movement": 2,
                "reach": 5,
                "hp": 12,
                "rank": 5,
                "material_points": 6,
                "main_target": True,
                "one_per_field": True,
            },
            2,
        ),
        (
            "Slab Cleaver",
            "weapon",
            {
                "weapon_icon": "great-sword",
                "attack": 4,
                "movement": 1,
                "reach": 1,
                "item_icons": ["meat"],
                "cost": 2,
            },
            3,
        ),
        (
            "Boulder Maul",
            "weapon",
            {
                "weapon_icon": "hammer",
                "attack": 4,
                "movement": 2,
                "reach": 1,
                "item_icons": ["meat", "barrel-bomb"],
                "cost": 2,
            },
            2,
        ),
        (
            "Scout's Shortsword",
            "weapon",
            {
                "weapon_icon": "sword-and-shield",
                "attack": 3,
                "movement": 3,
                "reach": 2,
                "item_icons": ["ball", "bottle"],
                "cost": 1,
            },
            3,
        ),
        (
            "Marsh Fang",
            "weapon",
            {
                "weapon_icon": "sword-and-shield",
                "attack": 4,
                "movement": 3,
                "reach": 3,
                "item_icons": ["medicine", "bottle"],
                "cost": 1,
            },
            2,
        ),
        ("Patchwork Jerkin", "armor", {"defence": 1, "cost": 1}, 3),
        ("Thornhide Mail", "armor", {"defence": 2, "cost": 2}, 3),
        ("Smoked Haunch", "item", {"item_icons": ["meat"]}, 3),
        ("Blast Keg", "item", {"item_icons": ["barrel-bomb"]}, 2),
        ("Dazzle Orb", "item", {"item_icons": ["ball"]}, 3),
        ("Herbal Tonic", "item", {"item_icons": ["medicine"]}, 2),
    )
    cards = [hunter]
    main = []
    for index, (name, card_type, attributes, copies) in enumerate(rows, start=1):
        code = "golden-" + name.lower().replace(" ", "-").replace("'", "")
        cards.append(SimCard(index, code, name, card_type, attributes))
        main.append((index, copies))
    return SimDeck(
        game="monster-hunter",
        cards=tuple(cards),
        zones={"hunter": ((0, 1),), "main": tuple(main)},
        draw_zone="main",
    )


GOLDEN_DECK = _deck()
_HARD_HITS: dict[str, Any] = {
    "lineup": "uniform",
    "lineup_count": 4,
    "lineup_hp": 1,
    "lineup_attack": 10,
    "lineup_reach": 6,
    "lineup_rank": 0,
    "restock": "all",
    "armor_policy": "never",
    "discard_policy": "dig",
}
GOLDEN_GAMES: tuple[tuple[str, int, dict[str, Any]], ...] = (
    # the plain goldfish: face-down monsters and the empty opponent's sheet score the HR
    ("game0", 0, {}),
    # the training ground with material: armor and weapons equipped (a trade-in too), a
    # monster with a higher reach striking first, armor absorbing, items spent for attack
    (
        "elder_game0",
        0,
        {"lineup": "elder", "restock": "all", "deck_out": "on_draw", "material_per_turn": 3},
    ),
    # the 3-4-player side: the hunter walks 3 areas, items as defence, the turn limit
    (
        "uniform_3p_game4",
        4,
        {
            "players": "3-4",
            "lineup": "uniform",
            "lineup_count": 6,
            "lineup_hp": 3,
            "lineup_attack": 3,
            "lineup_reach": 3,
            "item_effect": "defence",
            "reach_ties": "monster",
            "max_turns": 5,
            "approach": 3,
            "restock": "none",
        },
    ),
    # equal reach with ties to monsters: a flipped monster that does not interrupt
    (
        "uniform_3p_ties_game7",
        7,
        {
            "players": "3-4",
            "lineup": "uniform",
            "lineup_count": 6,
            "lineup_hp": 4,
            "lineup_attack": 4,
            "lineup_reach": 2,
            "reach_ties": "monster",
            "deck_out": "on_draw",
            "discard_policy": "none",
            "max_turns": 8,
        },
    ),
    # hits of 10 from monsters that always strike first: three retreats, and in the turn of
    # the third the HR win beats retirement (monster-hunter.md:42) ...
    ("hard_hits_game22", 22, _HARD_HITS),
    # ... or, checking retirement first as the seed lists it, the same game is retired
    ("hard_hits_retire_first_game22", 22, {**_HARD_HITS, "same_turn": "retire_first"}),
)
