"""What an import should have been told: the game a text list names on its ``game:`` line,
and a game's own JSON format pasted as a text list. The import then reads the list as what it
is instead of reporting every line against the wrong game or format."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

from catalog.models import Game
from catalog.spec import all_games
from decklab import safe_input
from decks.game_rules import has_deck_rules
from decks.imports.formats import TEXT, DeckFormat, game_formats
from decks.imports.text import _META, _META_KEYS, _loose
from games import registry

#: the lines read for a ``game:`` line (it belongs to the list's head, before the cards)
HEAD_LINES = 40


@dataclass(frozen=True)
class Guess:
    game: Game
    fmt: str
    text: str | None
    data: Any
    #: what was guessed, for the page to say: "game" (the game: line), "format" (JSON)
    why: tuple[str, ...] = ()


def listed_game(text: str) -> str | None:
    """The slug of the game the list's ``game:`` line names, if it names one DeckLab knows."""
    names = {}
    for spec in all_games():
        for name in (spec.slug, spec.name_en, spec.name_ja):
            names[_loose(name)] = spec.slug
    for raw in text.removeprefix("\ufeff").splitlines()[:HEAD_LINES]:
        found = _META.match(unicodedata.normalize("NFKC", raw).strip())
        if found and _META_KEYS.get(_loose(found["key"])) == "game":
            return names.get(_loose(found["value"].strip()))
    return None


def _json_format(slug: str, data: Any) -> DeckFormat | None:
    return next(
        (f for f in game_formats(slug) if f.recognises is not None and f.recognises(data)), None
    )


def guess(*, game: Game, text: str | None, data: Any, fmt: str, game_fixed: bool = False) -> Guess:
    """The game and format to read the input with. ``game_fixed`` (an import into an existing
    deck) keeps the game: a list of another game is then reported by the text reader alone."""
    if fmt != TEXT or text is None:
        return Guess(game, fmt, text, data)
    stripped = text.strip()
    if stripped[:1] in ("{", "["):
        try:
            decoded = safe_input.loads(stripped)
        except ValueError:
            decoded = None
        if decoded is not None:
            slugs = [game.slug] + (
                [] if game_fixed else [s for s in registry.slugs() if s != game.slug]
            )
            for slug in slugs:
                found = _json_format(slug, decoded)
                if found is not None:
                    other = Game.objects.filter(slug=slug).first() if slug != game.slug else game
                    if other is not None:
                        why = ("format",) if other == game else ("format", "game")
                        return Guess(other, found.code, None, decoded, why)
    listed = listed_game(text)
    if not game_fixed and listed and listed != game.slug and has_deck_rules(listed):
        other = Game.objects.filter(slug=listed).first()
        if other is not None:
            return Guess(other, fmt, text, data, ("game",))
    return Guess(game, fmt, text, data)
