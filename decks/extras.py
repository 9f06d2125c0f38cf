"""Deck extras as components: what a game keeps on a deck beside its cards (a list of counters, a
chosen option), declared as ``EXTRAS`` in the game's ``extras.py``.

An extra owns everything about its value: the schema the service layer checks on every save
(the editor, the API and imports alike), its line in the text format, its editor partial and
the handler of that partial's posts, its display partial and its label in the history. Its
legality checks are ordinary checks of the game's ``RULES``. Shared code (services, the text
format, the editor, the deck page, the history) only loops over a game's extras.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from django.utils.functional import Promise
from django.utils.translation import gettext as _

from games import registry


class ExtraError(ValueError):
    """A value an extra refuses; ``message`` is translated text for the player."""

    def __init__(self, message: Any) -> None:
        self.message = message
        super().__init__(str(message))


class Extra(ABC):
    #: the key under ``Deck.extras``
    key: ClassVar[str]
    label: ClassVar[Promise | str]
    #: the text format's line names (``counters: 5x10``), the first one written on export
    text_keys: ClassVar[tuple[str, ...]]
    #: templates given ``deck``, ``extra``, ``value`` and what ``context`` adds
    editor_template: ClassVar[str] = ""
    display_template: ClassVar[str] = ""
    #: a static script the editor page loads for the editor partial (``games/<slug>/x.js``)
    script: ClassVar[str] = ""
    #: a static stylesheet the editor page links for the editor partial (``games/<slug>/x.css``)
    stylesheet: ClassVar[str] = ""

    @abstractmethod
    def clean(self, value: Any) -> Any:
        """The value as stored, or ExtraError saying why it cannot be: the schema every save
        is held to, whoever sends it."""

    @abstractmethod
    def parse_text(self, text: str) -> Any:
        """The value of its text-format line; ExtraError for what cannot be read."""

    @abstractmethod
    def to_text(self, value: Any) -> str:
        """The value as its text-format line writes it (read back unchanged)."""

    def from_post(self, current: Any, data: Any) -> Any:
        """The new value after an editor post (``data`` is the POST QueryDict)."""
        raise ExtraError("This extra cannot be edited here.")

    def context(self, value: Any) -> dict[str, Any]:
        """What the editor and display partials show beside the value."""
        return {}

    def deck_context(self, deck: Any, value: Any) -> dict[str, Any]:
        """``context`` for an extra whose partials need the deck itself (its other extras)."""
        return self.context(value)

    def shown(self, value: Any) -> str:
        """The value in one line, for the history."""
        if isinstance(value, list | tuple):
            return ", ".join(str(v) for v in value) or "—"
        return "—" if value in (None, "") else str(value)


def extras_of(slug: str) -> tuple[Extra, ...]:
    if not registry.is_game(slug):
        return ()
    return tuple(registry.get(slug).extras)


def extra_of(slug: str, key: str) -> Extra | None:
    return next((e for e in extras_of(slug) if e.key == key), None)


def clean_extras(slug: str, extras: Mapping[str, Any] | None) -> dict[str, Any]:
    """``extras`` checked by each of the game's extras; a key the game does not take or a value
    an extra refuses raises ``ExtraError`` naming it."""
    if extras is None:
        return {}
    if not isinstance(extras, Mapping):
        raise ExtraError(_("Deck extras are an object of named values."))
    cleaned: dict[str, Any] = {}
    for key, value in extras.items():
        extra = extra_of(slug, str(key))
        if extra is None:
            raise ExtraError(_("This game's decks have no extra “%(key)s”.") % {"key": key})
        try:
            cleaned[extra.key] = extra.clean(value)
        except ExtraError as exc:
            raise ExtraError(f"{extra.label}: {exc.message}") from exc
    return cleaned


@dataclass(frozen=True)
class ExtraView:
    """One extra of a deck as its partials show it: ``extra``, and ``view`` (its context)."""

    extra: Extra
    value: Any
    view: dict[str, Any]


def extra_views(deck: Any) -> list[ExtraView]:
    """The deck's game's extras with the deck's values, for the editor and the deck page."""
    stored = deck.extras if isinstance(deck.extras, dict) else {}
    return [
        ExtraView(extra, stored.get(extra.key), extra.deck_context(deck, stored.get(extra.key)))
        for extra in extras_of(deck.game.slug)
    ]
