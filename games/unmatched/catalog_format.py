"""Unmatched: unmatched.cards deck JSON and the shared/data/unmatched folder -> CatalogBundle.

One deck JSON (the community deck builder's shape: ``hero``, ``sidekick``, ``cards[]``) becomes
its set, a character card, its action cards with one printing each in this deck, and the hero
deck as a product. The folder form reads every ``decks/*.json`` into one bundle, so a card
shared by several decks is one card with several printings, plus the full list of sets from
the source's SQL seed (``V2__insert.sql``), so sets without card lists exist too.

Only facts are read: names, numbers, types and quantities. Effect texts, abilities, quotes,
notes and image addresses are never looked at, so they cannot leak into the catalog.

The parser never raises on bad input: each problem is recorded with its file and JSON path
(``achilles.json: cards[3].value``) and the rest is still read, so one run reports them all.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from catalog.importers.bundle import (
    CardRow,
    CatalogBundle,
    PrintingRow,
    ProductItemRow,
    ProductRow,
    SetRow,
    parse_release,
)
from catalog.kinds import SetKind
from decklab import safe_input
from games.unmatched import GAME
from games.unmatched.catalog import HERO_DECK
from games.unmatched.rules import ANY_FIGHTER, spelled_like

GAME_SLUG = GAME.slug
SET_KIND = SetKind.BOX
PRODUCT_KIND = HERO_DECK
HERO_ZONE = "hero"
DECK_ZONE = "deck"
VALUED_TYPES = ("attack", "defense", "versatile")
ACTION_TYPES = (*VALUED_TYPES, "scheme")

SETS_SQL = "V2__insert.sql"
SHARED_SOURCE = "Cueerno/UnmatchedTracker @69709a1 (MIT), via unmatched.cards deck JSON"
# The shared folder's README names the repository and commit it was taken from; SHARED_SOURCE
# is only claimed for a folder whose README says so.
_SHARED_MARKERS = ("Cueerno/UnmatchedTracker", "69709a1")

# Titles the deck JSON gives to two different cards. The source's own card list
# (V3__insert_cards.sql) tells them apart as 'Eat Me (Alice)', a scheme, and 'Eat Me (Deadpool)',
# a defense card; the deck JSON dropped the qualifier. In these decks the code carries the deck
# id so both cards exist; anywhere else a title with two different types or values is an error.
KNOWN_HOMONYMS: dict[str, frozenset[str]] = {"Eat Me": frozenset({"alice", "deadpool"})}


def character_printing_attributes(hero_name: str) -> dict[str, Any]:
    """The printing attributes of a character card: none (no fighter plays it, it has no
    boost; catalog/games/unmatched.py gives character printings an empty schema)."""
    return {}


def looks_like_unmatched_deck(data: Any) -> bool:
    return isinstance(data, dict) and "hero" in data and "cards" in data


def bundle_from_unmatched_deck(data: Any, origin: str) -> CatalogBundle:
    """One deck JSON (``origin`` labels its problems, e.g. the file name) -> a bundle."""
    bundle = CatalogBundle(game=GAME_SLUG, origin=origin)
    builder = _Builder(bundle, source=f"unmatched.cards deck JSON: {Path(origin).name}")
    builder.add_deck(data, origin)
    return bundle


def is_unmatched_folder(path: Path) -> bool:
    return (path / "decks").is_dir()


def bundle_from_unmatched_folder(path: Path) -> CatalogBundle:
    """Every ``decks/*.json`` of the folder and every set of its SQL seed, as one bundle."""
    bundle = CatalogBundle(game=GAME_SLUG, origin=str(path))
    builder = _Builder(bundle, source=_folder_source(path))
    sql = path / SETS_SQL
    if sql.is_file():
        builder.add_sql_sets(sql)
    files = sorted((path / "decks").glob("*.json"))
    if not files:
        bundle.problem(str(path / "decks"), _("no deck files (*.json)"))
    for file in files:
        data = _read_json(file, bundle)
        if data is not None:
            builder.add_deck(data, file.name)
    return bundle


def _folder_source(path: Path) -> str:
    readme = path / "README.md"
    text = readme.read_text(encoding="utf-8", errors="replace") if readme.is_file() else ""
    if all(marker in text for marker in _SHARED_MARKERS):
        return SHARED_SOURCE
    return f"unmatched.cards deck JSON: folder {path.name}"


def _read_json(file: Path, bundle: CatalogBundle) -> Any | None:
    """A deck file's JSON, or None after recording why it could not be read."""
    try:
        text = file.read_bytes().decode("utf-8-sig")
    except OSError as exc:
        bundle.problem(file.name, _("cannot be read: %(error)s") % {"error": exc.strerror or exc})
        return None
    except UnicodeDecodeError as exc:
        bundle.problem(file.name, _("not UTF-8 text (byte %(byte)d)") % {"byte": exc.start})
        return None
    try:
        return safe_input.loads(text)
    except safe_input.UnsafeInput as exc:
        bundle.problem(file.name, str(exc))
        return None
    except json.JSONDecodeError as exc:
        bundle.problem(
            f"{file.name}:{exc.lineno}",
            _("broken JSON: %(error)s (column %(column)d)")
            % {"error": exc.msg, "column": exc.colno},
        )
        return None


# --- codes ---------------------------------------------------------------------------------


def code_for(text: str) -> str:
    """A stable ASCII code for a name.

    Symbols that slugify would drop become their Unicode names, because the source tells some
    cards apart by an icon alone ('Prophecy' of King Arthur, 'Prophecy 🦎' of the Wayward
    Sisters). A name with nothing left (e.g. all Japanese) gets a short hash of itself.
    """
    spelled = "".join(f" {unicodedata.name(c, '')} " if _is_icon(c) else c for c in text)
    code = slugify(spelled)
    if code:
        return code
    return "x-" + hashlib.sha1(text.encode("utf-8")).hexdigest()[:10]


def _is_icon(char: str) -> bool:
    """A symbol (emoji, suit) with no ASCII spelling: slugify would drop it silently."""
    return unicodedata.category(char).startswith("S") and not (
        unicodedata.normalize("NFKD", char).isascii()
    )


def _deck_code(value: str) -> str:
    """Deck ids are used as product codes and collector numbers: keep them when they fit."""
    return value if re.fullmatch(r"[-a-zA-Z0-9_]+", value) else code_for(value)


# --- reading one deck ----------------------------------------------------------------------


class _Fields:
    """Typed getters for one JSON object that record a problem at its path instead of raising."""

    def __init__(self, bundle: CatalogBundle, origin: str, path: str) -> None:
        self.bundle = bundle
        self.origin = origin
        self.path = path
        self.failed = False

    def here(self) -> str:
        return f"{self.origin}: {self.path}" if self.path else self.origin

    def at(self, key: str) -> str:
        if not key:
            return self.here()
        return f"{self.origin}: {self.path}.{key}" if self.path else f"{self.origin}: {key}"

    def fail(self, key: str, message: str) -> None:
        self.failed = True
        self.bundle.problem(self.at(key), message)

    def text(self, obj: dict[str, Any], key: str, *, required: bool) -> str:
        value = obj.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
        if value not in (None, ""):
            self.fail(key, _("expected text"))
        elif required:
            self.fail(key, _("missing"))
        return ""

    def whole(self, obj: dict[str, Any], key: str, *, required: bool) -> int | None:
        value = obj.get(key)
        if value is None:
            if required:
                self.fail(key, _("missing"))
            return None
        # JSON true/false are ints to Python; and "3" is text: neither is a card's number
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(
                key,
                # Translators: value is the JSON found, e.g. "3" or true.
                _("expected a whole number, not %(value)s")
                % {"value": json.dumps(value, ensure_ascii=False)},
            )
            return None
        if value < 0:
            self.fail(key, _("cannot be negative (%(value)d)") % {"value": value})
            return None
        return value

    def flag(self, obj: dict[str, Any], key: str, *, required: bool) -> bool | None:
        value = obj.get(key)
        if value is None:
            if required:
                self.fail(key, _("missing"))
            return None
        if not isinstance(value, bool):
            self.fail(key, _("expected true or false"))
            return None
        return value


@dataclass
class _KnownCard:
    """A card as first seen, to name both places when a later deck disagrees."""

    row: CardRow
    title: str
    value: int | None


@dataclass
class _KnownSet:
    row: SetRow
    released_where: str


class _Builder:
    """Accumulates decks (and the SQL list of sets) into one bundle."""

    def __init__(self, bundle: CatalogBundle, source: str) -> None:
        self.bundle = bundle
        self.source = source
        self.sets: dict[str, _KnownSet] = {}
        self.sets_from_sql = False
        self.cards: dict[str, _KnownCard] = {}
        self.decks: dict[str, str] = {}  # deck code -> where it was read

    def problem(self, where: str, message: str) -> None:
        self.bundle.problem(where, message)

    # sets

    def add_sql_sets(self, file: Path) -> None:
        try:
            rows = sql_insert_rows(file.read_text(encoding="utf-8"), "sets")
        except (OSError, UnicodeDecodeError) as exc:
            self.problem(file.name, _("cannot be read: %(error)s") % {"error": exc})
            return
        except SqlSyntaxError as exc:
            self.problem(f"{file.name}:{exc.line}", str(exc.message))
            return
        self.sets_from_sql = True
        for line, values in rows:
            where = f"{file.name}:{line}"
            name = values.get("name")
            if not isinstance(name, str) or not name.strip():
                self.problem(where, _("a set without a name"))
                continue
            date, precision = None, "day"
            released = values.get("release_date")
            if isinstance(released, str) and released.strip():
                try:
                    # a timestamp such as '2019-09-01 00:00:00.111000 +00:00': the day is enough
                    date, precision = parse_release(released.strip()[:10])
                except ValueError:
                    self.problem(
                        where,
                        # Translators: value is quoted when it is text: '2019-13-01'.
                        _("release_date %(value)s is not a date") % {"value": repr(released)},
                    )
            elif released is not None:
                self.problem(
                    where, _("release_date %(value)s is not a date") % {"value": repr(released)}
                )
            self._put_set(name.strip(), date, precision, where)

    def _put_set(self, name: str, date: Any, precision: str, where: str) -> str:
        code = code_for(name)
        known = self.sets.get(code)
        if known is not None:
            self.problem(
                where,
                _("set '%(name)s' is listed twice (also at %(where)s)")
                % {"name": name, "where": known.row.where},
            )
            return code
        row = SetRow(
            where=where,
            code=code,
            name_en=name,
            kind=SET_KIND,
            release_date=date,
            release_precision=precision,
            source=self.source,
        )
        self.bundle.sets.append(row)
        self.sets[code] = _KnownSet(row, released_where=where)
        return code

    def deck_set(self, data: dict[str, Any], read: _Fields, fallback_name: str) -> str:
        """The code of the deck's set, registering it (or checking it against the known one)."""
        name = read.text(data, "set", required=False)
        date, precision = None, "day"
        if data.get("released") not in (None, ""):
            try:
                date, precision = parse_release(data["released"])
            except (ValueError, TypeError):
                read.fail("released", _("expected a date as YYYY, YYYY-MM or YYYY-MM-DD"))
        if not name:
            # a player's own deck belongs to no published set: it gets one of its own
            name = f"{fallback_name} (custom deck)"
        code = code_for(name)
        known = self.sets.get(code)
        if known is None:
            if self.sets_from_sql:
                read.fail(
                    "set",
                    _("set '%(name)s' is not in %(file)s's list of sets")
                    % {"name": name, "file": SETS_SQL},
                )
            return self._put_set(name, date, precision, read.at("set"))
        if known.row.name_en != name:
            read.fail(
                "set",
                _("'%(name)s' and '%(known)s' (at %(where)s) clash")
                % {"name": name, "known": known.row.name_en, "where": known.row.where},
            )
        elif date is not None and (known.row.release_date, known.row.release_precision) != (
            date,
            precision,
        ):
            if known.row.release_date is None:
                known.row.release_date, known.row.release_precision = date, precision
                known.released_where = read.at("released")
            else:
                read.fail(
                    "released",
                    _("%(date)s disagrees with %(known)s at %(where)s")
                    % {
                        "date": data["released"],
                        "known": known.row.release_date.isoformat(),
                        "where": known.released_where,
                    },
                )
        return code

    # decks

    def add_deck(self, data: Any, origin: str) -> None:
        if not isinstance(data, dict):
            self.problem(origin, _("expected a JSON object with hero and cards"))
            return
        read = _Fields(self.bundle, origin, "")
        hero = data.get("hero")
        hero_name = ""
        if hero is None:
            read.fail("hero", _("missing"))
        elif not isinstance(hero, dict):
            read.fail("hero", _("expected an object"))
            hero = None
        else:
            hero_name = _Fields(self.bundle, origin, "hero").text(hero, "name", required=True)
        deck = self._deck_id(data, read, origin)
        name = _text_or(data.get("name"), hero_name or deck)
        set_code = self.deck_set(data, read, name)
        product = ProductRow(
            where=origin,
            code=deck,
            kind=PRODUCT_KIND,
            name_en=name,
            set_code=set_code,
            release_date=self.sets[set_code].row.release_date if set_code in self.sets else None,
            source=self.source,
        )
        if hero is not None and hero_name:
            self._character(hero, data.get("sidekick"), origin, deck, set_code, product)
        sidekick = data.get("sidekick")
        sidekick_name = sidekick.get("name") if isinstance(sidekick, dict) else None
        names = [n for n in (hero_name, sidekick_name) if isinstance(n, str) and n]
        self._actions(data, origin, deck, set_code, product, names)
        self.bundle.products.append(product)

    def _deck_id(self, data: dict[str, Any], read: _Fields, origin: str) -> str:
        raw = data.get("id")
        if isinstance(raw, int) and not isinstance(raw, bool):
            raw = str(raw)
        if raw is not None and not isinstance(raw, str):
            read.fail("id", _("expected text"))
            raw = None
        # a deck without an id is named after its file
        deck = _deck_code(raw.strip()) if raw and raw.strip() else code_for(Path(origin).stem)
        if deck in self.decks:
            read.fail(
                "id",
                _("deck id '%(deck)s' is used twice (also by %(origin)s)")
                % {"deck": deck, "origin": self.decks[deck]},
            )
        self.decks.setdefault(deck, origin)
        return deck

    def _character(
        self,
        hero: dict[str, Any],
        sidekick: Any,
        origin: str,
        deck: str,
        set_code: str,
        product: ProductRow,
    ) -> None:
        read = _Fields(self.bundle, origin, "hero")
        name = read.text(hero, "name", required=False)  # add_deck checked it is there
        count = read.whole(hero, "quantity", required=False)
        attributes: dict[str, Any] = {
            "hp": read.whole(hero, "hp", required=True),
            "move": read.whole(hero, "move", required=True),
            "ranged": read.flag(hero, "isRanged", required=True),
            # one figure unless the deck says otherwise (Raptors: 3)
            "hero_count": 1 if count is None else count,
        }
        attributes.update(self._sidekick(sidekick, origin))
        if read.failed:
            return
        code = f"character-{deck}"
        self.bundle.cards.append(
            CardRow(
                where=read.here(),
                code=code,
                card_type="character",
                name_en=name,
                attributes={k: v for k, v in attributes.items() if v is not None},
                source=self.source,
                printings=[
                    PrintingRow(
                        where=read.here(),
                        set_code=set_code,
                        collector_number=deck,
                        attributes=character_printing_attributes(name),
                    )
                ],
            )
        )
        product.items.append(
            ProductItemRow(
                where=read.here(),
                card_code=code,
                quantity=1,
                zone=HERO_ZONE,
                set_code=set_code,
                collector_number=deck,
                variant="",
            )
        )

    def _sidekick(self, sidekick: Any, origin: str) -> dict[str, Any]:
        if sidekick in (None, {}):
            return {}
        read = _Fields(self.bundle, origin, "sidekick")
        if not isinstance(sidekick, dict):
            read.fail("", _("expected an object"))
            return {}
        name = read.text(sidekick, "name", required=False)
        if not name:
            # the deck builder keeps an empty sidekick form for heroes without one
            return {}
        hp = read.whole(sidekick, "hp", required=False)
        return {
            "sidekick": name,
            # unmatched.md: a sidekick with no HP printed has 1
            "sidekick_hp": 1 if hp is None and not read.failed else hp,
            "sidekick_move": read.whole(sidekick, "move", required=False),
            "sidekick_ranged": read.flag(sidekick, "isRanged", required=False),
            "sidekick_count": read.whole(sidekick, "quantity", required=False),
        }

    def _actions(
        self,
        data: dict[str, Any],
        origin: str,
        deck: str,
        set_code: str,
        product: ProductRow,
        names: list[str],
    ) -> None:
        cards = data.get("cards")
        if not isinstance(cards, list):
            self.problem(
                f"{origin}: cards", _("missing") if cards is None else _("expected a list")
            )
            return
        in_deck: dict[str, str] = {}
        for index, entry in enumerate(cards):
            path = f"cards[{index}]"
            if not isinstance(entry, dict):
                self.problem(f"{origin}: {path}", _("expected an object"))
                continue
            self._action(
                _Fields(self.bundle, origin, path), entry, deck, set_code, product, in_deck, names
            )

    def _action(
        self,
        read: _Fields,
        entry: dict[str, Any],
        deck: str,
        set_code: str,
        product: ProductRow,
        in_deck: dict[str, str],
        names: list[str],
    ) -> None:
        title = read.text(entry, "title", required=True)
        card_type = self._card_type(read, entry)
        value = self._value(read, entry, card_type)
        fighter = read.text(entry, "characterName", required=True)
        boost = read.whole(entry, "boost", required=True)
        quantity = read.whole(entry, "quantity", required=True)
        if quantity == 0:
            read.fail("quantity", _("must be at least 1"))
        if read.failed:
            return
        where = read.here()
        code = code_for(title)
        if title in KNOWN_HOMONYMS and deck in KNOWN_HOMONYMS[title]:
            code = f"{code}-{deck}"
        if code in in_deck:
            read.fail(
                "title",
                _("'%(title)s' is listed twice in this deck (also at %(where)s)")
                % {"title": title, "where": in_deck[code]},
            )
            return
        in_deck[code] = where
        card = self._card(read, code, title, card_type, value)
        if card is None:
            return
        card.printings.append(
            PrintingRow(
                where=where,
                set_code=set_code,
                collector_number=deck,
                attributes={
                    # spelled as the character card spells it ("Bloody Mary", not "mary")
                    "fighter": ANY_FIGHTER
                    if fighter.casefold() == "any"
                    else spelled_like(fighter, names),
                    "boost": boost,
                },
            )
        )
        product.items.append(
            ProductItemRow(
                where=where,
                card_code=code,
                quantity=quantity or 0,
                zone=DECK_ZONE,
                set_code=set_code,
                collector_number=deck,
                variant="",
            )
        )

    def _card_type(self, read: _Fields, entry: dict[str, Any]) -> str:
        raw = read.text(entry, "type", required=True)
        card_type = raw.lower()
        if raw and card_type not in ACTION_TYPES:
            read.fail(
                "type",
                _("unknown card type '%(type)s' (expected %(types)s)")
                % {"type": raw, "types": ", ".join(ACTION_TYPES)},
            )
        return card_type

    def _value(self, read: _Fields, entry: dict[str, Any], card_type: str) -> int | None:
        if card_type in VALUED_TYPES:
            return read.whole(entry, "value", required=True)
        if card_type == "scheme" and entry.get("value") not in (None, ""):
            read.fail("value", _("a scheme card has no value"))
        return None

    def _card(
        self, read: _Fields, code: str, title: str, card_type: str, value: int | None
    ) -> CardRow | None:
        """The card with this code, new or as first seen; None (and a problem) on a clash."""
        where = read.here()
        known = self.cards.get(code)
        if known is None:
            row = CardRow(
                where=where,
                code=code,
                card_type=card_type,
                name_en=title,
                attributes={"value": value} if card_type in VALUED_TYPES else {},
                source=self.source,
            )
            self.bundle.cards.append(row)
            self.cards[code] = _KnownCard(row, title, value)
            return row
        first = known.row
        if known.title != title:
            read.fail(
                "title",
                _("'%(title)s' and '%(known)s' at %(where)s get the same code")
                % {"title": title, "known": known.title, "where": first.where},
            )
        elif (known.row.card_type, known.value) != (card_type, value):
            read.fail(
                "type" if card_type != first.card_type else "value",
                # Translators: here and there are a card type and value, e.g. "defense 3".
                _("'%(title)s' is %(here)s here but %(there)s at %(where)s")
                % {
                    "title": title,
                    "here": _describe(card_type, value),
                    "there": _describe(first.card_type, known.value),
                    "where": first.where,
                },
            )
        return None if read.failed else first


def _describe(card_type: str, value: int | None) -> str:
    return f"{card_type} {value}" if value is not None else card_type


def _text_or(value: Any, default: str) -> str:
    return value.strip() if isinstance(value, str) and value.strip() else default


# --- the SQL seed's VALUES lists -----------------------------------------------------------

SqlValue = str | int | float | bool | None
TokenKind = Literal["word", "string", "number", "punct"]


class SqlSyntaxError(ValueError):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


@dataclass(frozen=True)
class _Token:
    kind: TokenKind
    text: str  # a string token holds its value, quotes and '' escapes resolved
    line: int


_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_$]*")


def _tokens(text: str) -> Iterator[_Token]:
    """SQL tokens with their line numbers; comments and whitespace are skipped."""
    pos, line, end = 0, 1, len(text)
    while pos < end:
        char = text[pos]
        if char.isspace():
            line += char == "\n"
            pos += 1
        elif text.startswith("--", pos):
            stop = text.find("\n", pos)
            pos = end if stop < 0 else stop
        elif text.startswith("/*", pos):
            stop = text.find("*/", pos + 2)
            if stop < 0:
                raise SqlSyntaxError(line, _("unterminated /* comment"))
            line += text.count("\n", pos, stop)
            pos = stop + 2
        elif char in "'\"":
            value, after = _quoted(text, pos, line)
            # a double-quoted name is an identifier, a single-quoted one a value
            yield _Token("string" if char == "'" else "word", value, line)
            line += text.count("\n", pos, after)
            pos = after
        elif match := _NUMBER.match(text, pos):
            yield _Token("number", match.group(), line)
            pos = match.end()
        elif match := _WORD.match(text, pos):
            yield _Token("word", match.group(), line)
            pos = match.end()
        else:
            yield _Token("punct", char, line)
            pos += 1


def _quoted(text: str, start: int, line: int) -> tuple[str, int]:
    """The value of the quoted literal at ``start`` (a doubled quote is one quote)."""
    quote = text[start]
    parts: list[str] = []
    pos = start + 1
    while True:
        stop = text.find(quote, pos)
        if stop < 0:
            raise SqlSyntaxError(line, _("unterminated quoted text"))
        parts.append(text[pos:stop])
        if text.startswith(quote * 2, stop):
            parts.append(quote)
            pos = stop + 2
        else:
            return "".join(parts), stop + 1


class _TokenStream:
    def __init__(self, text: str) -> None:
        self.tokens = list(_tokens(text))
        self.pos = 0

    def peek(self, offset: int = 0) -> _Token | None:
        index = self.pos + offset
        return self.tokens[index] if index < len(self.tokens) else None

    def next(self, what: str) -> _Token:
        token = self.peek()
        if token is None:
            last = self.tokens[-1].line if self.tokens else 1
            raise SqlSyntaxError(
                last,
                # Translators: what is "a value", "a column name", "a number", the SQL word
                # values or a quoted punctuation mark such as '('.
                _("the file ends where %(what)s was expected") % {"what": what},
            )
        self.pos += 1
        return token

    def expect(self, punct: str) -> _Token:
        token = self.next(repr(punct))
        if token.kind != "punct" or token.text != punct:
            raise SqlSyntaxError(
                token.line,
                _("expected '%(expected)s', found '%(found)s'")
                % {"expected": punct, "found": token.text},
            )
        return token

    def next_is_punct(self, punct: str) -> bool:
        """Consume the next token if it is this punctuation."""
        token = self.peek()
        if token is not None and token.kind == "punct" and token.text == punct:
            self.pos += 1
            return True
        return False

    def is_word(self, offset: int, word: str) -> bool:
        token = self.peek(offset)
        return token is not None and token.kind == "word" and token.text.lower() == word


def sql_insert_rows(text: str, table: str) -> list[tuple[int, dict[str, SqlValue]]]:
    """The rows of the first ``insert into <table>(columns) values (...), ...;`` statement.

    Each row comes with the line it starts on. Values are quoted text (with '' escapes),
    numbers, null, true or false, over as many lines as they like. Raises SqlSyntaxError.
    """
    stream = _TokenStream(text)
    while stream.peek() is not None:
        if stream.is_word(0, "insert") and stream.is_word(1, "into") and stream.is_word(2, table):
            stream.pos += 3
            return _insert_rows(stream)
        stream.pos += 1
    raise SqlSyntaxError(1, _("no 'insert into %(table)s' statement") % {"table": table})


def _insert_rows(stream: _TokenStream) -> list[tuple[int, dict[str, SqlValue]]]:
    columns = _column_names(stream)
    keyword = stream.next("values")
    if keyword.kind != "word" or keyword.text.lower() != "values":
        raise SqlSyntaxError(
            keyword.line, _("expected 'values', found '%(found)s'") % {"found": keyword.text}
        )
    rows: list[tuple[int, dict[str, SqlValue]]] = []
    while True:
        start = stream.expect("(")
        values = [_value(stream)]
        while stream.next_is_punct(","):
            values.append(_value(stream))
        stream.expect(")")
        if len(values) != len(columns):
            raise SqlSyntaxError(
                start.line,
                # The English singular keeps "values": the message has always read "1 values".
                ngettext(
                    "%(count)d values for %(columns)d columns (%(names)s)",
                    "%(count)d values for %(columns)d columns (%(names)s)",
                    len(values),
                )
                % {"count": len(values), "columns": len(columns), "names": ", ".join(columns)},
            )
        rows.append((start.line, dict(zip(columns, values, strict=True))))
        after = stream.peek()
        if after is None or (after.kind == "punct" and after.text == ";"):
            return rows
        stream.expect(",")


def _column_names(stream: _TokenStream) -> list[str]:
    stream.expect("(")
    columns = []
    while True:
        token = stream.next(_("a column name"))
        if token.kind != "word":
            raise SqlSyntaxError(
                token.line,
                _("expected a column name, found '%(found)s'") % {"found": token.text},
            )
        columns.append(token.text.lower())
        if not stream.next_is_punct(","):
            stream.expect(")")
            return columns


def _value(stream: _TokenStream) -> SqlValue:
    token = stream.next(_("a value"))
    sign = 1
    if token.kind == "punct" and token.text in "-+":
        sign = -1 if token.text == "-" else 1
        token = stream.next(_("a number"))
        if token.kind != "number":
            raise SqlSyntaxError(
                token.line, _("expected a number, found '%(found)s'") % {"found": token.text}
            )
    if token.kind == "string":
        return token.text
    if token.kind == "number":
        return sign * (float(token.text) if "." in token.text else int(token.text))
    if token.kind == "word" and token.text.lower() in {"null", "true", "false"}:
        return {"null": None, "true": True, "false": False}[token.text.lower()]
    raise SqlSyntaxError(
        token.line, _("expected a value, found '%(found)s'") % {"found": token.text}
    )
