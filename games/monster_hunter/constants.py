"""The names the Monster Hunter engine's modules share: the rules' numbers, card kinds and
icons, phases, actions, outcomes and the training ground's line-ups (pure Python). The engine
is explained in ``games/monster_hunter/engine.py``."""

from __future__ import annotations

HAND_SIZE = 6  # monster-hunter.md:45 (hand must end <= 6, then draw back up to 6)
TARGET_HR = 20  # monster-hunter.md:41
RETIRE_AT = 3  # monster-hunter.md:41: a player retires at the 3rd retreat
#: a retreat's reshuffle is dealt as game ``index + retreat * RESHUFFLE_STRIDE`` of the run
#: (simulator/engine/deal.py): an index no run reaches (runs have at most 10**6 games), so
#: reshuffles never repeat a game's deal and the Python path and the kernel deal them alike
RESHUFFLE_STRIDE = 1 << 40
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
