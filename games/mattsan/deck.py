"""Mattsan deck construction: shared/rules/mattsan.md lines 8-10."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from decks.game_rules import DeckRules, Stat, Zone
from decks.legality.problems import Cite
from decks.legality.rules import CopyLimit, ZoneSize
from games.mattsan import GAME

DIGEST = "mattsan.md"

RULES = DeckRules(
    game=GAME.slug,
    construction=Cite(DIGEST, 8),
    zones=(
        Zone(
            "main",
            _("main deck"),
            ("unit", "trump", "trap", "terrain"),
            Cite(DIGEST, 12),
            is_deck=True,
        ),
    ),
    rules=(
        ZoneSize("main", Cite(DIGEST, 8), exactly=30),  # line 8: exactly 30 cards
        # lines 9-10: at most 3 copies unless the card's own text says otherwise
        CopyLimit(("main",), 3, Cite(DIGEST, 9)),
    ),
    stats=(
        Stat("hp", _("Unit HP"), numeric=True),
        Stat("soul", _("Soul"), numeric=True),
    ),
)
