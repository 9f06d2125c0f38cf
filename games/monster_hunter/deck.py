"""Monster Hunter deck construction: shared/rules/monster-hunter.md lines 30-35."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from decks.game_rules import DeckRules, Stat, Zone
from decks.legality.problems import Cite
from decks.legality.rules import CopyLimit, ExactlyOneOfType, ZoneSize
from games.monster_hunter import GAME

DIGEST = "monster-hunter.md"

RULES = DeckRules(
    game=GAME.slug,
    construction=Cite(DIGEST, 30),
    zones=(
        # line 32: no hunter cards in the deck
        Zone(
            "main",
            _("main deck"),
            ("monster", "weapon", "armor", "item"),
            Cite(DIGEST, 32),
            is_deck=True,
        ),
        # lines 34-35: exactly one hunter beside the deck
        Zone(
            "hunter",
            _("hunter"),
            ("hunter",),
            Cite(DIGEST, 34),
            aliases=("ハンター", "ハンターカード"),
        ),
    ),
    rules=(
        ZoneSize("main", Cite(DIGEST, 31), exactly=40),  # line 31: exactly 40 cards
        CopyLimit(("main",), 4, Cite(DIGEST, 33)),  # line 33: at most 4 per card number
        ExactlyOneOfType("hunter", Cite(DIGEST, 34)),
    ),
    stats=(
        Stat("weapon_icon", _("Weapon icons")),
        Stat("item_icons", _("Item icons")),
        Stat("hp", _("Monster HP"), numeric=True),
    ),
)
