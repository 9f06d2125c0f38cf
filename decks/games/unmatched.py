"""Unmatched deck construction: shared/rules/unmatched.md lines 16-19 (and 5-7, 12)."""

from __future__ import annotations

import re
from functools import lru_cache

from django.utils.translation import gettext_lazy as _

from catalog.games.unmatched import ANY_FIGHTER
from decks.games.base import DeckRules, Stat, Zone
from decks.legality.facts import CardFacts, DeckFacts
from decks.legality.problems import Cite, Problem, Severity, Text
from decks.legality.rules import ExactlyOneOfType, ZoneSize

GAME_SLUG = "unmatched"
DIGEST = "unmatched.md"
FIGHTERS = Cite(DIGEST, 18)

_SPLIT = re.compile(r"\s*(?:&|,|/|\bor\b|\band\b)\s*")
_NOISE = {"the", "dr", "mr", "mrs", "ms"}


def _singular(word: str) -> str:
    """One spelling for a word and its plural: "harpies"/"harpy", "wolves"/"wolf",
    "zombies"/"zombie". Both sides of a comparison go through it, so only agreement matters."""
    if len(word) <= 3:
        return word
    if word.endswith("ies"):
        word = word[:-3] + "y"
    elif word.endswith("ves"):
        word = word[:-3] + "f"
    elif word.endswith("s"):
        word = word[:-1]
    if word.endswith("ie"):
        return word[:-2] + "y"
    if word.endswith("ve"):
        return word[:-2] + "f"
    return word


@lru_cache(maxsize=4096)  # the same few names are compared for every card of every deck
def _tokens(name: str) -> frozenset[str]:
    words = re.findall(r"[a-z0-9]+", name.casefold())
    # Published fighter names drop titles and plurals ("Harpy" for "Harpies", "Holmes" for
    # "Sherlock Holmes"), so compare word sets without them.
    return frozenset(_singular(w) for w in words if w not in _NOISE)


def fighter_names(character: CardFacts) -> list[str]:
    names = [character.name_en]
    sidekick = str(character.attributes.get("sidekick") or "")
    names.extend(n for n in _SPLIT.split(character.name_en) if n)
    names.extend(n for n in _SPLIT.split(sidekick) if n)
    return [n for n in names if n]


def may_use(fighter: str, names: list[str]) -> bool:
    if fighter.strip().casefold() == ANY_FIGHTER:
        return True
    card_words = _tokens(fighter)
    if not card_words:
        return False
    return any(card_words <= _tokens(n) or (_tokens(n) and _tokens(n) <= card_words) for n in names)


def fighters_can_use(deck: DeckFacts, rules: DeckRules) -> list[Problem]:
    """Line 18: each card usable by the deck's hero, its sidekick(s) or any fighter. A card
    printed in the character's own hero deck is usable whatever its fighter is called there."""
    heroes = deck.in_zone("hero")
    if len(heroes) != 1:
        return []  # the hero rule reports it; fighters cannot be judged without one
    character = heroes[0].card
    names = fighter_names(character)
    own_decks = {p.number for p in character.printings if p.number}
    problems = []
    for entry in deck.in_zone("deck"):
        printings = (entry.printing,) if entry.printing else entry.card.printings
        fighters = sorted({str(p.attributes.get("fighter", "")) for p in printings} - {""})
        if not fighters:
            continue  # a card with no fighter printed has nothing to check
        if any(p.number in own_decks for p in printings) or any(
            may_use(f, names) for f in fighters
        ):
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
                    {"fighters": " / ".join(fighters), "names": ", ".join(dict.fromkeys(names))},
                    {"card": entry.card},
                ),
                fix=Text(
                    _("Remove %(n)d × %(card)s."), {"n": entry.quantity}, {"card": entry.card}
                ),
                cards=(entry.card,),
                zone="deck",
                expected=list(dict.fromkeys(names)),
                actual=fighters,
            )
        )
    return problems


RULES = DeckRules(
    game=GAME_SLUG,
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
