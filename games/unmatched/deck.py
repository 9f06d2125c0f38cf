"""Unmatched deck construction: shared/rules/unmatched.md lines 16-19 (and 5-7, 12)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from decks.game_rules import DeckRules, Stat, Zone
from decks.legality.facts import DeckFacts
from decks.legality.problems import Cite, Problem, Severity, Text
from decks.legality.rules import ExactlyOneOfType, ZoneSize
from games.unmatched import GAME
from games.unmatched.rules import fighter_names, is_ours

DIGEST = "unmatched.md"
FIGHTERS = Cite(DIGEST, 18)


def fighters_can_use(deck: DeckFacts, rules: DeckRules) -> list[Problem]:
    """Line 18: each card usable by the deck's hero, its sidekick(s) or any fighter. A card
    printed in the character's own hero deck is usable whatever its fighter is called there."""
    heroes = deck.in_zone("hero")
    if len(heroes) != 1:
        return []  # the hero rule reports it; fighters cannot be judged without one
    character = heroes[0].card
    sidekick = str(character.attributes.get("sidekick") or "")
    names = fighter_names(character.name_en, sidekick, character.code)
    # the names as printed, for the message (the code's spelling only helps matching)
    shown = fighter_names(character.name_en, sidekick)
    own_decks = {p.number for p in character.printings if p.number}
    problems = []
    for entry in deck.in_zone("deck"):
        printings = (entry.printing,) if entry.printing else entry.card.printings
        fighters = sorted({str(p.attributes.get("fighter", "")) for p in printings} - {""})
        if not fighters:
            continue  # a card with no fighter printed has nothing to check
        in_own_deck = any(p.number in own_decks for p in printings)
        if is_ours(fighters, names, in_own_deck=in_own_deck):
            continue
        problems.append(
            Problem(
                code="fighter",
                severity=Severity.ERROR,
                cite=FIGHTERS,
                message=Text(
                    _(
                        "%(card)s can be played only by %(fighters)s; this deck's "
                        "fighters are %(names)s."
                    ),
                    {"fighters": " / ".join(fighters), "names": ", ".join(shown)},
                    {"card": entry.card},
                ),
                fix=Text(
                    _("Remove %(n)d × %(card)s."), {"n": entry.quantity}, {"card": entry.card}
                ),
                cards=(entry.card,),
                zone="deck",
                expected=shown,
                actual=fighters,
            )
        )
    return problems


RULES = DeckRules(
    game=GAME.slug,
    construction=Cite(DIGEST, 16),
    zones=(
        Zone("hero", _("hero (character card)"), ("character",), Cite(DIGEST, 19)),
        Zone(
            "deck",
            _("action deck"),
            ("attack", "defense", "versatile", "scheme"),
            Cite(DIGEST, 18),
            is_deck=True,
        ),
    ),
    rules=(
        ExactlyOneOfType("hero", Cite(DIGEST, 19), code="one-hero"),  # line 19
        ZoneSize("deck", Cite(DIGEST, 18), exactly=30),  # line 18: exactly 30 action cards
    ),
    checks=(fighters_can_use,),
    stats=(
        Stat("value", _("Values by fighter"), split_by="fighter", numeric=True),
        Stat("boost", _("Boosts by fighter"), on="printing", split_by="fighter", numeric=True),
    ),
)
