"""Deck list formats: DeckLab's text list (every game) and the formats a game brings with it
(``DECK_FORMATS`` in its ``formats.py``, e.g. another site's deck JSON)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games import registry

if TYPE_CHECKING:
    from decks.imports.text import ParsedDeck
    from decks.models import Deck

TEXT = "text"


@dataclass(frozen=True)
class DeckFormat:
    """A game's own deck format: decoded JSON in (``parse(data, user=…)``), JSON out."""

    code: str
    label: Promise | str
    parse: Callable[..., ParsedDeck]
    export: Callable[[Deck], dict[str, Any]]
    extension: str = "json"
    #: whether decoded JSON is in this format (a deck pasted as a text list is read as one)
    recognises: Callable[[Any], bool] | None = None


def game_formats(slug: str) -> tuple[DeckFormat, ...]:
    """The formats of one game, beside the text list every game has."""
    if not registry.is_game(slug):
        return ()
    return tuple(registry.get(slug).deck_formats)


def all_formats() -> dict[str, DeckFormat]:
    """Every game's own formats by code (a code names one format, whichever game has it)."""
    found: dict[str, DeckFormat] = {}
    for game in registry.all_games():
        for fmt in game_formats(game.slug):
            found.setdefault(fmt.code, fmt)
    return found


def format_choices() -> list[tuple[str, Promise | str]]:
    """The text list, then every game's own formats: for forms and the API's enums."""
    return [(TEXT, _("DeckLab text list")), *((f.code, f.label) for f in all_formats().values())]


def format_codes() -> list[str]:
    return [code for code, _label in format_choices()]


def format_for(slug: str, code: str) -> DeckFormat | None:
    """The game's own format ``code``, or None when the game has no such format."""
    return next((f for f in game_formats(slug) if f.code == code), None)
