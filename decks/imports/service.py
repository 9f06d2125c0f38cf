"""Deck imports and exports as services: all or nothing.

An import either saves the whole deck (and, for a deck of fan-made cards, the player's own
cards it needs) or raises ``DeckImportError`` listing every problem, with nothing saved: the
custom cards are written in the same transaction as the deck, so a refusal anywhere (a bad
line, a stale version, a rule of the deck services) leaves no trace.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from catalog.models import Game
from decklab import safe_input
from decks import errors as deck_errors
from decks.errors import DeckError, StaleDeckError
from decks.imports import errors
from decks.imports.errors import DeckImportError, LineProblem
from decks.imports.formats import TEXT, all_formats, format_for
from decks.imports.guess import guess
from decks.imports.text import NAME_LANGUAGES, ParsedDeck, export_deck_text, parse_deck_text
from decks.models import Deck
from decks.services import deck_create, deck_replace

#: a format code: "text", or one of a game's own formats (decks.imports.formats)
Format = str


def _refuse(message: Any, code: str) -> DeckImportError:
    return DeckImportError([LineProblem(0, "", str(message), code)])


def _json(data: Any) -> Any:
    """The deck JSON as given: already decoded, or as text or bytes to decode."""
    try:
        if not isinstance(data, str | bytes):
            return safe_input.check(data)
        return safe_input.loads(data)
    except safe_input.UnsafeInput as exc:
        raise _refuse(str(exc), "json") from exc
    except (ValueError, UnicodeDecodeError) as exc:
        raise _refuse(errors.NOT_JSON, "json") from exc


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


def _save_new_rows(parsed: ParsedDeck, **parse_kwargs: Any) -> ParsedDeck:
    """Inside the caller's transaction: save the player's new cards, race-free.

    The new rows' codes were picked by reading which codes are free: two imports of the same new
    deck at once both picked the same ones, and the second insert broke ``set_code_per_game``
    (a 500). Locking the player's row queues one player's imports until the transaction ends;
    the list is read again under the lock, so it reuses the set and cards the import before it
    saved instead of inserting them again.
    """
    if not parsed.new_rows:
        return parsed
    user = parse_kwargs["user"]
    list(get_user_model().objects.select_for_update().filter(pk=user.pk).values_list("pk"))
    parsed = _parsed_or_raise(**parse_kwargs)
    # each row's foreign keys point at rows saved just before it (set, card, printing)
    for row in parsed.new_rows:
        row.save()
    return parsed


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
    """A new deck from a text list or a deck JSON of the game's own formats, or ``DeckImportError``.
    A text list naming another game on its ``game:`` line is that game's deck, and a game's
    own JSON pasted as a text list is read as that format (decks.imports.guess)."""
    found = guess(game=game, text=text, data=data, fmt=fmt)
    game, text, data, fmt = found.game, found.text, found.data, found.fmt
    how = {"game": game, "user": owner, "text": text, "data": data, "fmt": fmt}
    parsed = _parsed_or_raise(**how)
    try:
        with transaction.atomic():
            parsed = _save_new_rows(parsed, **how)
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
    """Replace an existing deck's list (and the name, rules and extras the list gives) as one
    new revision. A stale ``expected_version`` raises ``StaleDeckError``, like every edit."""
    if deck.owner_id != getattr(user, "pk", None):
        raise DeckError(deck_errors.NOT_OWNER, "deck")
    # the deck's game stays: a list of another game is reported by its game: line alone
    found = guess(game=deck.game, text=text, data=data, fmt=fmt, game_fixed=True)
    text, data, fmt = found.text, found.data, found.fmt
    how = {"game": deck.game, "user": user, "text": text, "data": data, "fmt": fmt}
    parsed = _parsed_or_raise(**how)
    try:
        with transaction.atomic():
            parsed = _save_new_rows(parsed, **how)
            fields: dict[str, Any] = {}
            if name or parsed.name:
                fields["name"] = name or parsed.name
            if parsed.variant:
                fields["variant"] = parsed.variant
            if parsed.extras:
                fields["extras"] = {**deck.extras, **parsed.extras}
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


def deck_export(*, deck: Deck, fmt: Format = TEXT, names: str = "en") -> str | dict[str, Any]:
    """The deck as a DeckLab text list (its cards named in ``names``: en or ja), or in one of
    its game's own formats (JSON, which those formats write in their own way)."""
    if names not in NAME_LANGUAGES:
        raise _refuse(
            errors.UNKNOWN_NAMES_LANGUAGE % {"languages": ", ".join(NAME_LANGUAGES)}, "names"
        )
    if fmt == TEXT:
        return export_deck_text(deck, names)
    own = format_for(deck.game.slug, fmt)
    if own is None:
        if fmt in all_formats():
            raise _refuse(errors.NOT_THIS_GAMES_FORMAT % _format_names(fmt, deck.game), "format")
        raise _refuse(errors.UNKNOWN_FORMAT % {"fmt": fmt}, "format")
    return own.export(deck)
