"""The names the Mattsan engine's modules share: zone sizes, card kinds, actions, phases and
damage targets (pure Python). The engine is explained in ``games/mattsan/engine.py``."""

from __future__ import annotations

BENCH_SLOTS = 3  # mattsan.md:14: normally 3 bench slots
DUMMY_SLOTS = 4  # the dummy's battlefield unit and its 3 bench slots (mattsan.md:13-14)

# Card kinds (mattsan.md:12). Traps and terrain are K_OTHER: never played by this goldfish.
K_UNIT, K_TRUMP, K_OTHER = 0, 1, 2

# Actions of the state API: (kind, card index); -1 when no card is named.
START = "start"  # the turn's draw and soul charge (mattsan.md:19), automatic
PLACE = "place"  # a unit from hand to the battlefield, or the bench if it is taken
TRUMP = "trump"  # cast a trump card, paying its cost in soul charge
ATTACK = "attack"  # the turn-ending action (mattsan.md:21)
END = "end"  # end the turn with no unit on the battlefield (only before the first unit stands)
Action = tuple[str, int]

# Phases
P_START, P_MAIN, P_OVER = 0, 1, 2

# Sides of a damage processing
US, DUMMY = 0, 1

# What a damage hits on one side
T_NONE, T_BATTLEFIELD, T_ALL = 0, 1, 2
TRUMP_TARGETS = {"battlefield": (T_BATTLEFIELD, T_NONE), "enemy_field": (T_ALL, T_NONE)}
TRUMP_TARGETS["whole_field"] = (T_ALL, T_ALL)
