"""Who may play an Unmatched card (unmatched.md:12 and 18): one notion, pure Python, used by
both the deck checker (``deck.py``) and the goldfish engine (``engine.py``).

A card names the fighter who may play it ("Medusa", "Harpies", "any"). Published names drop
titles and plurals ("Harpy" for "Harpies", "Holmes" for "Sherlock Holmes"), so names are
compared as sets of words without titles, with plurals folded onto their singular.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

#: the fighter printed on cards any fighter may play (unmatched.md:12)
ANY_FIGHTER = "any"

_NAME_SEPARATORS = re.compile(r"\s*(?:&|,|/|\bor\b|\band\b)\s*")
_WORD = re.compile(r"[a-z0-9]+")
# Titles and articles that printed fighter names leave out ("Watson" for "Dr. Watson").
_IGNORED_WORDS = frozenset({"the", "dr", "mr", "mrs", "ms"})


def _one_spelling(word: str) -> str:
    """Fold a plural and its singular together ("harpies"/"harpy", "wolves"/"wolf"): both
    sides of a comparison are folded, so only their agreement matters."""
    if len(word) <= 3:
        return word
    for plural, singular in (("ies", "y"), ("ves", "f"), ("s", "")):
        if word.endswith(plural):
            word = word[: -len(plural)] + singular
            break
    for ending, folded in (("ie", "y"), ("ve", "f")):
        if word.endswith(ending):
            return word[: -len(ending)] + folded
    return word


@lru_cache(maxsize=4096)  # the same few names are compared for every card of every deck
def fighter_words(name: str) -> frozenset[str]:
    return frozenset(
        _one_spelling(w) for w in _WORD.findall(name.casefold()) if w not in _IGNORED_WORDS
    )


def fighter_names(hero: str, sidekick: str = "", code: str = "") -> list[str]:
    """The names a deck's fighters go by: the hero's, each part of a two-named hero ("Jekyll &
    Hyde"), the sidekick's and each of several sidekicks ("Giles or Xander"). The character
    card's code spells the English name ("character-medusa"), so a hero whose name is shown
    translated is still matched."""
    names = [hero, *_NAME_SEPARATORS.split(hero), *_NAME_SEPARATORS.split(sidekick)]
    if code:
        names.append(code.removeprefix("character-").replace("-", " "))
    # one spelling of each name (the code's lower case one after the printed one)
    found: dict[str, str] = {}
    for name in names:
        if name:
            found.setdefault(name.casefold(), name)
    return list(found.values())


def spelled_like(fighter: str, names: Sequence[str]) -> str:
    """The fighter as the hero's and sidekicks' names spell it: the source writes "Bloody
    mary" and "The genie" where the character card says "Bloody Mary" and "The Genie". Each
    word takes the spelling of the same word in one of ``names``; other words stay as given."""
    spellings: dict[str, str] = {}
    for name in names:
        for word in name.split():
            spellings.setdefault(word.casefold(), word)
    return " ".join(spellings.get(word.casefold(), word) for word in fighter.split())


def sidekick_options(sidekick: str) -> list[str]:
    """The alternatives of a character card's sidekick: "Giles or Xander" offers two, a
    sidekick of several figures ("The Hand") one."""
    if not re.search(r"\bor\b", sidekick):
        return [sidekick] if sidekick else []
    return [part for part in re.split(r"\s*\bor\b\s*", sidekick) if part]


def may_use(fighter: str, names: Sequence[str]) -> bool:
    """Whether a card printed for ``fighter`` may be played by one of ``names`` (line 12)."""
    if fighter.strip().casefold() == ANY_FIGHTER:
        return True
    card = fighter_words(fighter)
    if not card:
        return False
    for name in names:
        ours = fighter_words(name)
        if card <= ours or (ours and ours <= card):
            return True
    return False


def is_ours(fighters: Iterable[str], names: Sequence[str], *, in_own_deck: bool) -> bool:
    """Whether the deck's fighters may play a card printed for ``fighters`` (line 18). A card
    with no fighter printed restricts no one; a card printed in the character's own hero deck
    is its fighters' whatever name is printed on it (Deadpool's joke names)."""
    printed = [f for f in fighters if f]
    if in_own_deck or not printed:
        return True
    return any(may_use(f, names) for f in printed)
