"""Deck imports and exports as services: all or nothing.

An import either saves the whole deck (and, for a fan-made Unmatched deck, the player's own
cards it needs) or raises ``DeckImportError`` listing every problem, with nothing saved: the
custom cards are written in the same transaction as the deck, so a refusal anywhere (a bad
line, a stale version, a rule of the deck services) leaves no trace.
"""

from __future__ import annotations

import json
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from catalog.models import Game
from decks import errors as deck_errors
from decks.errors import DeckError, StaleDeckError
from decks.imports import errors
from decks.imports.errors import DeckImportError, LineProblem
from decks.imports.formats import TEXT, all_formats, format_codes, format_for
from decks.imports.text import ParsedDeck, export_deck_text, parse_deck_text
from decks.models import Deck
from decks.services import deck_create, deck_replace

#: a format code: "text", or one of a game's own formats (decks.imports.formats)
Format = str


def formats() -> tuple[str, ...]:
    return tuple(format_codes())


def _refuse(message: Any, code: str) -> DeckImportError:
    return DeckImportError([LineProblem(0, "", str(message), code)])


def _json(data: Any) -> Any:
    """The deck JSON as given: already decoded, or as text or bytes to decode."""
    if not isinstance(data, str | bytes):
        return data
    try:
        return json.loads(data)
    except (ValueError, UnicodeDecodeError) as exc:
        raise _refuse(errors.NOT_A_DECK, "json") from exc


def deck_parse(
    *, game: Game, user: Any, text: str | None = None, data: Any = None, fmt: str = "text"
) -> ParsedDeck:
    """Read a list without saving anything (a preview); its ``problems`` say what is wrong."""
    if fmt == TEXT:
        if not text or not text.strip():
            raise _refuse(errors.NOTHING_TO_IMPORT, "empty")
        return parse_deck_text(text, game=game, user=user)
    own = format_for(game.slug, fmt)
    if own is None:
        if fmt in all_formats():
            raise _refuse(errors.NOT_THIS_GAMES_FORMAT % _format_names(fmt, game), "format")
        raise _refuse(errors.UNKNOWN_FORMAT % {"fmt": fmt}, "format")
    if data is None and text is not None:
        data = text
    if data is None:
        raise _refuse(errors.NOTHING_TO_IMPORT, "empty")
    return own.parse(_json(data), user=user)


def _format_names(fmt: str, game: Game) -> dict[str, Any]:
    return {"format": str(all_formats()[fmt].label), "game": game.name}


def _parsed_or_raise(**kwargs: Any) -> ParsedDeck:
    parsed = deck_parse(**kwargs)
    if parsed.problems:
        raise DeckImportError(parsed.problems)
    return parsed


def _save_new_rows(parsed: ParsedDeck) -> None:
    # each row's foreign keys point at rows saved just before it (set, card, printing)
    for row in parsed.new_rows:
        row.save()


def _refused_by_services(exc: DeckError) -> DeckImportError:
    return _refuse(errors.REFUSED % {"reason": exc.message}, exc.field)


def deck_import(
    *,
    owner: Any,
    game: Game,
    text: str | None = None,
    data: Any = None,
    fmt: Format = "text",
    name: str | None = None,
    visibility: str = Deck.Visibility.PRIVATE,
    description: str = "",
) -> Deck:
    """A new deck from a text list or an unmatched.cards deck JSON, or ``DeckImportError``."""
    parsed = _parsed_or_raise(game=game, user=owner, text=text, data=data, fmt=fmt)
    try:
        with transaction.atomic():
            _save_new_rows(parsed)
            return deck_create(
                owner=owner,
                game=game,
                name=name or parsed.name or _("Imported deck"),
                description=description,
                visibility=visibility,
                variant=parsed.variant,
                extras=parsed.extras,
                entries=parsed.entries,
            )
    except DeckError as exc:
        raise _refused_by_services(exc) from exc


def deck_import_into(
    *,
    deck: Deck,
    user: Any,
    expected_version: int,
    text: str | None = None,
    data: Any = None,
    fmt: Format = "text",
    name: str | None = None,
) -> Deck:
    """Replace an existing deck's list (and the name, rules and chips the list gives) as one
    new revision. A stale ``expected_version`` raises ``StaleDeckError``, like every edit."""
    if deck.owner_id != getattr(user, "pk", None):
        raise DeckError(deck_errors.NOT_OWNER, "deck")
    parsed = _parsed_or_raise(game=deck.game, user=user, text=text, data=data, fmt=fmt)
    fields: dict[str, Any] = {}
    if name or parsed.name:
        fields["name"] = name or parsed.name
    if parsed.variant:
        fields["variant"] = parsed.variant
    if parsed.extras:
        fields["extras"] = {**deck.extras, **parsed.extras}
    try:
        with transaction.atomic():
            _save_new_rows(parsed)
            return deck_replace(
                deck=deck,
                user=user,
                expected_version=expected_version,
                entries=parsed.entries,
                **fields,
            )
    except StaleDeckError:
        raise
    except DeckError as exc:
        raise _refused_by_services(exc) from exc


def deck_export(*, deck: Deck, fmt: Format = TEXT) -> str | dict[str, Any]:
    """The deck as a DeckLab text list, or in one of its game's own formats (JSON)."""
    if fmt == TEXT:
        return export_deck_text(deck)
    own = format_for(deck.game.slug, fmt)
    if own is None:
        if fmt in all_formats():
            raise _refuse(errors.NOT_THIS_GAMES_FORMAT % _format_names(fmt, deck.game), "format")
        raise _refuse(errors.UNKNOWN_FORMAT % {"fmt": fmt}, "format")
    return own.export(deck)
