"""The names the 央華封神 engine's modules share: the rules' numbers, deck zones, card kinds,
phases, parameter choices and how a game began (pure Python). The engine is explained in
``games/ouka_fushin/engine.py``."""

from __future__ import annotations

from typing import Any

OPENING_HAND = 6  # ouka-fushin.md:45
HAND_LIMIT = 6  # ouka-fushin.md:45, 68
DRAW_PER_TURN = 2  # ouka-fushin.md:56
STORY_SLOTS = 5  # ouka-fushin.md:47
IMMORTAL_SLOTS = 4  # ouka-fushin.md:47: 5 character slots, one the protagonist's (seed:215)
MAX_DESTINY = 3  # ouka-fushin.md:16
ROUNDS = 3  # ouka-fushin.md:50
HIDDEN_SUCCESS_GIFT = 10  # ouka-fushin.md:63-64
SUBSTITUTE_BONUS = 50  # ouka-fushin.md:44
DECK_OUT_PENALTY = 10  # x d6, ouka-fushin.md:72

MAIN_ZONE = "main"
PROTAGONIST_ZONE = "protagonist"
SUBSTITUTE_ZONE = "substitute"
SPARES_ZONE = "spares"
MISSIONS_ZONE = "missions"

# Card kinds in the tables.
K_OTHER, K_CHARACTER, K_STORY, K_CLIMAX, K_ACCIDENT = range(5)
# Abilities (catalog/games/ouka_fushin.py ABILITIES); ANY: the player picks (seed:103).
ABILITIES = ("combat", "exploration", "negotiation")
ANY = 3
NO_CHECK = -100  # the "need" of a story without a target: every face succeeds, no roll

# Phases of the state API.
P_START, P_IMMORTAL, P_STORY, P_HIDDEN, P_CLIMAX, P_END, P_RESET, P_RESET_DISCARD, P_OVER = range(9)

CHARACTER_ACTIONS = ("grow", "grow_immortal", "place")
NEW_SLOT = (-1,)  # where a story without a prerequisite goes: an empty slot

# Parameter choices.
HIDDEN_NEVER, HIDDEN_ALWAYS, HIDDEN_NET = "never", "always", "net_gain"
RECLAIM_USEFUL, RECLAIM_NONE = "useful", "none"
MIRROR_NO, MIRROR_DICE, MIRROR_LOSE = "no", "dice_off", "lose"
MATCH_ANY, MATCH_ALL = "any", "all"
STACK_PREREQUISITE, STACK_WHEN_FULL = "on_prerequisite", "when_full"

# How a game began (substitution).
SUB_NONE, SUB_DONE, SUB_CANNOT = 0, 1, 2

Action = tuple[Any, ...]
