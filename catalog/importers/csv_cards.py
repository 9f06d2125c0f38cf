"""The CSV card-list format (docs/catalog-format.md) -> CatalogBundle.

One row per printing: the card's own columns, then where it is printed. Rows sharing a code
are one card with several printings. Every column that is not a fixed one is an attribute of
the card type (``hp``) or, prefixed ``printing.``, of the printing (``printing.boost``).

Problems name the physical line (header = line 1) so a spreadsheet user can find the cell;
the parser never raises on bad input and reports every problem it can see.
"""

from __future__ import annotations

import csv
import difflib
import io
from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from catalog.attributes import ChoiceListField, StringListField
from catalog.importers.bundle import CardRow, CatalogBundle, PrintingRow
from catalog.importers.validate import did_you_mean, unknown_game
from catalog.spec import GameSpec, all_games, get_game, is_game

MAX_ROWS = 20_000
LIST_SEPARATOR = "|"
PRINTING_PREFIX = "printing."

#: the card's own columns; on further rows of one code they (and the card attributes) must agree
CARD_COLUMNS = ("type", "name_en", "name_ja", "copy_limit", "demo", "source")
PRINTING_COLUMNS = ("set", "number", "variant")
FIXED_COLUMNS = ("game", "code", *CARD_COLUMNS, *PRINTING_COLUMNS)
REQUIRED_COLUMNS = ("code", "type")

# Lazy: translated when a problem is recorded, in the language active then (str() them).
EMPTY_FILE = gettext_lazy("empty file: expected a header row (code,type,name_en,...)")
NO_ROWS = gettext_lazy("no card rows under the header")
NO_GAME = gettext_lazy("no game: add a 'game' column or choose the game of this file")


def _too_many_rows() -> str:
    return _("more than %(max)s rows; split the file and import the parts together") % {
        "max": f"{MAX_ROWS:,}"
    }


TOO_MANY_ROWS = lazy(_too_many_rows, str)()


@dataclass(frozen=True)
class _Line:
    number: int
    cells: dict[str, str]


class _CsvReader:
    def __init__(self, text: str, origin: str, game: str | None) -> None:
        self.origin = origin
        self.caller_game = (game or "").strip()
        self.bundle = CatalogBundle(game="", origin=origin)
        # A BOM survives when the caller decoded with plain "utf-8" (spreadsheet exports).
        self.text = text.removeprefix("\ufeff")
        self.header: list[str] = []
        self.header_failed = False
        #: unknown columns, already reported once on line 1 rather than on every row
        self.ignored: set[str] = set()

    def at(self, line: int) -> str:
        return f"{self.origin}:{line}"

    def problem(self, line: int, message: str) -> None:
        self.bundle.problem(self.at(line), message)

    # --- reading --------------------------------------------------------------------------
    def read(self) -> list[_Line]:
        """The data rows with their first physical line; structural problems recorded."""
        # newline="" hands CRLF, LF and quoted line breaks to the csv module untouched.
        reader = csv.reader(io.StringIO(self.text, newline=""))
        lines: list[_Line] = []
        last_line = 0
        try:
            for cells in reader:
                first_line, last_line = last_line + 1, reader.line_num
                if not self.header:
                    if not any(cell.strip() for cell in cells):
                        continue  # blank lines before the header
                    self.read_header(cells, first_line)
                    if not self.header:
                        return []
                    continue
                if not any(cell.strip() for cell in cells):
                    continue
                if len(lines) >= MAX_ROWS:
                    self.problem(first_line, str(TOO_MANY_ROWS))
                    break
                if len(cells) != len(self.header):
                    self.problem(first_line, self.width_message(len(cells)))
                    continue
                cells = [cell.strip() for cell in cells]
                lines.append(_Line(first_line, dict(zip(self.header, cells, strict=True))))
        except csv.Error as exc:
            self.problem(last_line + 1, _("unreadable CSV: %(error)s") % {"error": exc})
        if not self.header and not self.header_failed:
            self.problem(1, str(EMPTY_FILE))
        elif self.header and not lines and not self.bundle.problems:
            self.problem(1, str(NO_ROWS))
        return lines

    def read_header(self, cells: list[str], line: int) -> None:
        header = [cell.strip().lower() for cell in cells]
        ok = True
        seen: set[str] = set()
        for index, name in enumerate(header, start=1):
            if not name:
                self.problem(
                    line, _("column %(index)d has no name in the header") % {"index": index}
                )
                ok = False
            elif name in seen:
                self.problem(
                    line, _("column '%(name)s' appears twice in the header") % {"name": name}
                )
                ok = False
            seen.add(name)
        for name in REQUIRED_COLUMNS:
            if name not in seen:
                close = difflib.get_close_matches(name, sorted(seen), n=1, cutoff=0.6)
                if close:
                    message = _("missing column '%(name)s' (is '%(close)s' a misspelling of it?)")
                else:
                    message = _("missing column '%(name)s'")
                self.problem(line, message % {"name": name, "close": close[0] if close else ""})
                ok = False
        # Without a usable header no row can be read: the header's problems are the report.
        self.header = header if ok else []
        self.header_failed = not ok

    def width_message(self, found: int) -> str:
        expected = len(self.header)
        params = {"found": found, "expected": expected}
        if found < expected:
            # The English singular keeps "cells": the message has always read "1 cells".
            return (
                ngettext(
                    "%(found)d cells but the header has %(expected)d columns: a missing column "
                    '(or a comma inside a value that needs "quotes")',
                    "%(found)d cells but the header has %(expected)d columns: a missing column "
                    '(or a comma inside a value that needs "quotes")',
                    found,
                )
                % params
            )
        return (
            ngettext(
                "%(found)d cell but the header has %(expected)d columns: extra cells "
                '(a name with a comma needs "quotes")',
                "%(found)d cells but the header has %(expected)d columns: extra cells "
                '(a name with a comma needs "quotes")',
                found,
            )
            % params
        )

    # --- the game -------------------------------------------------------------------------
    def pick_game(self, lines: list[_Line]) -> GameSpec | None:
        """The file's one game: the caller's, else the first ``game`` cell; others must agree."""
        slug = self.caller_game
        first_line = 1
        if not slug:
            for line in lines:
                if line.cells.get("game"):
                    slug, first_line = line.cells["game"], line.number
                    break
        if not slug:
            if lines:
                self.problem(1, str(NO_GAME))
            return None
        known = [spec.slug for spec in all_games()]
        if not is_game(slug):
            # The caller's choice has no line; a cell's game has the line it is on.
            where = self.origin if self.caller_game else self.at(first_line)
            self.bundle.problem(where, unknown_game(slug, known))
            return None
        for line in lines:
            other = line.cells.get("game", "")
            if other and other != slug:
                hint = "" if is_game(other) else did_you_mean(other, known)
                self.problem(
                    line.number,
                    _("game '%(other)s' but this file is for '%(game)s': one file holds one game.")
                    % {"other": other, "game": slug}
                    + hint,
                )
        return get_game(slug)

    # --- attribute columns ----------------------------------------------------------------
    def check_attribute_columns(self, spec: GameSpec) -> None:
        card_keys: set[str] = set()
        for card_type in spec.card_types:
            card_keys.update(card_type.schema.base_fields)
        printing_keys = {PRINTING_PREFIX + key for key in spec.printing_schema.base_fields}
        known = set(FIXED_COLUMNS) | card_keys | printing_keys
        for name in self.header:
            if name in known:
                continue
            if PRINTING_PREFIX + name in printing_keys:
                hint = " " + _("Did you mean %(names)s?") % {"names": repr(PRINTING_PREFIX + name)}
            else:
                hint = did_you_mean(name, known)
            if name.startswith(PRINTING_PREFIX) and not printing_keys:
                message = _("unknown column '%(name)s': %(game)s printings carry no attributes.")
            elif name.startswith(PRINTING_PREFIX):
                message = _("unknown column '%(name)s': not a printing attribute of %(game)s.")
            else:
                message = _(
                    "unknown column '%(name)s': not a column of this format nor an attribute "
                    "of a %(game)s card."
                )
            self.problem(1, message % {"name": name, "game": spec.slug} + hint)
            self.ignored.add(name)

    # --- rows -> cards --------------------------------------------------------------------
    def attributes(
        self, line: _Line, spec: GameSpec | None, card_type: str, *, printing: bool
    ) -> dict[str, Any]:
        if printing:
            schema = spec.printing_schema if spec else None
        else:
            schema = spec.schema_for(card_type) if spec else None
        fields = schema.base_fields if schema is not None else {}
        found: dict[str, Any] = {}
        for name, value in line.cells.items():
            if not value or name in FIXED_COLUMNS or name in self.ignored:
                continue
            if name.startswith(PRINTING_PREFIX) != printing:
                continue
            key = name.removeprefix(PRINTING_PREFIX) if printing else name
            found[key] = _cell_value(fields.get(key), value)
        return found

    def card_from(self, line: _Line, spec: GameSpec | None) -> CardRow:
        cells = line.cells
        return CardRow(
            where=self.at(line.number),
            code=cells["code"],
            card_type=cells["type"],
            name_en=cells.get("name_en", ""),
            name_ja=cells.get("name_ja", ""),
            attributes=self.attributes(line, spec, cells["type"], printing=False),
            copy_limit=self.integer(line, "copy_limit"),
            source=cells.get("source", ""),
            is_demo=self.boolean(line, "demo"),
        )

    def printing_from(self, line: _Line, spec: GameSpec | None, card_type: str) -> PrintingRow:
        return PrintingRow(
            where=self.at(line.number),
            set_code=line.cells.get("set", ""),
            collector_number=line.cells.get("number", ""),
            variant=line.cells.get("variant", ""),
            attributes=self.attributes(line, spec, card_type, printing=True),
        )

    def has_printing(self, line: _Line) -> bool:
        if line.cells.get("set"):
            return True
        stray = [
            name
            for name, value in line.cells.items()
            if value and (name in ("number", "variant") or name.startswith(PRINTING_PREFIX))
        ]
        if stray:
            self.problem(
                line.number,
                _("%(columns)s given without a 'set' to print in") % {"columns": ", ".join(stray)},
            )
        return False

    def integer(self, line: _Line, column: str) -> int | None:
        value = line.cells.get(column, "")
        if not value:
            return None
        try:
            return int(value)
        except ValueError:
            self.problem(
                line.number,
                _("%(column)s '%(value)s' is not a whole number")
                % {"column": column, "value": value},
            )
            return None

    def boolean(self, line: _Line, column: str) -> bool:
        value = line.cells.get(column, "").lower()
        if value in ("", "false"):
            return False
        if value == "true":
            return True
        self.problem(
            line.number,
            _("%(column)s '%(value)s' must be true or false")
            % {"column": column, "value": line.cells[column]},
        )
        return False

    def cards(self, lines: list[_Line], spec: GameSpec | None) -> None:
        by_code: dict[str, tuple[CardRow, _Line]] = {}
        for line in lines:
            missing = [name for name in REQUIRED_COLUMNS if not line.cells[name]]
            if line.cells["code"] and line.cells["code"] in by_code:
                missing = []  # a further printing may leave the card's own cells empty
            if missing:
                *others, last = missing
                if others:
                    message = _("missing %(columns)s and %(last)s") % {
                        "columns": ", ".join(others),
                        "last": last,
                    }
                else:
                    message = _("missing %(column)s") % {"column": last}
                self.problem(line.number, message)
                continue
            code = line.cells["code"]
            if code in by_code:
                card, first = by_code[code]
                self.agree(line, first)
            else:
                card = self.card_from(line, spec)
                by_code[code] = (card, line)
                self.bundle.cards.append(card)
            if self.has_printing(line):
                card.printings.append(self.printing_from(line, spec, card.card_type))

    def agree(self, line: _Line, first: _Line) -> None:
        """A further row of a card: its non-empty card-level cells must match the first row."""
        for name, value in line.cells.items():
            if not value or name in ("game", "code", *PRINTING_COLUMNS) or name in self.ignored:
                continue
            if name.startswith(PRINTING_PREFIX):
                continue
            if value != first.cells.get(name, ""):
                self.problem(
                    line.number,
                    _(
                        "card '%(code)s' is also on line %(first)d with a different %(column)s: "
                        "'%(here)s' here, '%(there)s' there"
                    )
                    % {
                        "code": line.cells["code"],
                        "first": first.number,
                        "column": name,
                        "here": value,
                        "there": first.cells.get(name, ""),
                    },
                )

    def parse(self) -> CatalogBundle:
        lines = self.read()
        if not self.header:
            return self.bundle
        spec = self.pick_game(lines)
        if spec is not None:
            self.check_attribute_columns(spec)
            self.bundle.game = spec.slug
        self.cards(lines, spec)
        # Header problems are found after the rows are read; report in file order.
        self.bundle.problems.sort(key=lambda problem: _line_of(problem.where))
        return self.bundle


def _line_of(where: str) -> int:
    number = where.rpartition(":")[2]
    return int(number) if number.isdigit() else 0


def _cell_value(field: forms.Field | None, value: str) -> Any:
    """A cell as the schema field expects it: lists split on '|', the rest as text."""
    if isinstance(field, ChoiceListField | StringListField | forms.MultipleChoiceField):
        return [part.strip() for part in value.split(LIST_SEPARATOR) if part.strip()]
    return value


def parse_csv(text: str, origin: str, game: str | None) -> CatalogBundle:
    """Parse a CSV card list; ``game`` is used when the file has no ``game`` column."""
    return _CsvReader(text, origin, game).parse()
