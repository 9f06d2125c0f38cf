"""Reading a contributor's spreadsheet: its cells as the catalog's CSV reader numbers them,
and the importer's problems read back into a line, a column and the values meant.

The importer words a problem as ``file:LINE: message`` for a person reading a log; a sheet
page needs the cell. The messages are matched against the importer's own templates in the
active language, so whatever language they were written in, each lands in its column.

A header may name a column by its code (``attack``, as the template writes it) or by the label
the site shows for it in any of its languages (``攻撃力``, ``Attack``, ``版：ファイター``): a
Japanese contributor who retitles the columns the way the Japanese form reads keeps a sheet
that reads the same. ``header_in_codes`` rewrites such a header to the codes before the
importer's parser sees it, keeping every line where it was.
"""

from __future__ import annotations

import csv
import difflib
import io
import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from django import forms
from django.conf import settings
from django.utils.functional import Promise
from django.utils.translation import get_language, gettext_lazy, ngettext_lazy, override
from django.utils.translation import gettext as _

from catalog.attributes import AttributeSchema, ChoiceListField
from catalog.importers.bundle import CatalogBundle, ImportProblem
from catalog.importers.csv_cards import FIXED_COLUMNS, LIST_SEPARATOR, MAX_ROWS, PRINTING_PREFIX
from catalog.search import name_key
from catalog.spec import GameSpec, all_games, get_game, is_game
from contributions.form_fields import (
    LABEL_CARD_CODE,
    LABEL_CARD_TYPE,
    LABEL_COPY_LIMIT,
    LABEL_NAME_EN,
    LABEL_NAME_JA,
    LABEL_NUMBER,
    LABEL_PRINTING_FIELD,
    LABEL_SET,
    LABEL_SOURCE_DETAIL,
    LABEL_VARIANT,
)

BOM = "\ufeff"
NAME_FIELDS = ("name_en", "name_ja")

# --- user-facing messages (lazy: rendered in the language active when a problem is made) ---
TOO_LARGE = gettext_lazy("the sheet is larger than %(max)d MB: split it into several sheets")
CONTROL_CHARACTER = gettext_lazy(
    "this cell holds an invisible control character (such as NUL): retype the value"
)
SHEET_READY = gettext_lazy("The sheet is clean: it can be proposed.")
SHEET_NOT_READY = gettext_lazy(
    "Nothing is proposed until the sheet is clean: fix the problems listed and check it again."
)
CELLS_MISFIT = ngettext_lazy(
    '%(found)d cell but the header has %(expected)d columns (a value with a comma needs "quotes")',
    '%(found)d cells but the header has %(expected)d columns (a value with a comma needs "quotes")',
    "found",
)
#: the importer's own wording (csv_cards), translated once for both
UNREADABLE = gettext_lazy("unreadable CSV: %(error)s")


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")
_PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")
#: the names of a "Did you mean" hint: reprs of strings, comma-separated
_REPRS = r"""(?P<names>(?:'[^']*'|"[^"]*")(?:, (?:'[^']*'|"[^"]*"))*)"""


#: the words of the fixed columns' headers besides their codes: the labels the proposal forms
#: give the same facts
FIXED_LABELS: dict[str, tuple[Promise, ...]] = {
    "game": (gettext_lazy("Game"),),
    "code": (LABEL_CARD_CODE, gettext_lazy("Code")),
    "type": (LABEL_CARD_TYPE,),
    "name_en": (LABEL_NAME_EN,),
    "name_ja": (LABEL_NAME_JA,),
    "copy_limit": (LABEL_COPY_LIMIT,),
    "source": (LABEL_SOURCE_DETAIL,),
    "set": (LABEL_SET,),
    "number": (LABEL_NUMBER,),
    "variant": (LABEL_VARIANT,),
}
#: what a printing attribute's label is prefixed with in a header ("版：ファイター")
PRINTING_WORD = gettext_lazy("Printing")


@dataclass(frozen=True)
class SheetProblem:
    """One problem of a sheet: its physical line (the header is 1; 0 = the whole sheet), the
    column (a column code; "" = the whole row), why, the values it may have meant, and the
    column's title in the sheet's header where it is not the code (a label, "攻撃力")."""

    line: int
    column: str
    reason: str
    did_you_mean: tuple[str, ...] = ()
    header: str = ""


# --- reading cells --------------------------------------------------------------------------
@dataclass(frozen=True)
class Row:
    line: int
    cells: dict[str, str]


def too_large(text: str) -> SheetProblem | None:
    limit: int = settings.CATALOG_UPLOAD_MAX_BYTES
    # a character is at least one byte: the count of characters alone often decides
    if len(text) > limit or len(text.encode("utf-8", "surrogatepass")) > limit:
        return SheetProblem(0, "", str(TOO_LARGE) % {"max": limit >> 20})
    return None


@dataclass
class Cells:
    """A sheet's cells as csv_cards reads them: each row numbered by the physical line it
    starts on; the rows that do not fit the header and a CSV error kept aside."""

    header: list[str] = field(default_factory=list)
    header_line: int = 0
    rows: list[Row] = field(default_factory=list)
    raw: list[tuple[int, list[str]]] = field(default_factory=list)
    misfits: list[tuple[int, int]] = field(default_factory=list)  # (line, cells found)
    error: tuple[int, str] | None = None
    cut_at: int = 0  # the first line past MAX_ROWS


def read_cells(text: str) -> Cells:
    """Never raises: a CSV error (a NUL in old Pythons, a cell over the csv module's limit)
    ends the reading and is kept."""
    reader = csv.reader(io.StringIO(text.removeprefix(BOM), newline=""))
    read = Cells()
    last_line = 0
    try:
        for cells in reader:
            first_line, last_line = last_line + 1, reader.line_num
            if not any(cell.strip() for cell in cells):
                continue
            read.raw.append((first_line, cells))
            if not read.header:
                read.header = [cell.strip().lower() for cell in cells]
                read.header_line = first_line
            elif len(read.rows) >= MAX_ROWS:
                read.cut_at = first_line
                break
            elif len(cells) != len(read.header):
                read.misfits.append((first_line, len(cells)))
            else:
                cells = [cell.strip() for cell in cells]
                read.rows.append(Row(first_line, dict(zip(read.header, cells, strict=True))))
    except csv.Error as exc:
        read.error = (last_line + 1, str(exc))
    return read


def control_problems(read: Cells) -> list[SheetProblem]:
    found = []
    for line, cells in read.raw:
        for index, cell in enumerate(cells):
            if _CONTROL.search(cell):
                in_row = line != read.header_line and index < len(read.header)
                found.append(
                    SheetProblem(line, read.header[index] if in_row else "", str(CONTROL_CHARACTER))
                )
    return found


# --- headers named by their labels ---------------------------------------------------------
def header_key(title: str) -> str:
    """A header cell as compared with the labels: full-width letters and punctuation folded
    (NFKC: "ＨＰ", "：" and "（" are what a Japanese keyboard types), case and spaces ignored."""
    return "".join(unicodedata.normalize("NFKC", title).casefold().split())


def _labels(code: str, spec: GameSpec) -> Iterator[tuple[str, bool]]:
    """A column's labels, in the active language, each with whether it is only a fallback
    (a printing attribute's bare label, which a card attribute's label outranks)."""
    for fixed in FIXED_LABELS.get(code, ()):
        yield str(fixed), False
    if code.startswith(PRINTING_PREFIX):
        key = code[len(PRINTING_PREFIX) :]
        for schema in dict.fromkeys((spec.printing_schema, *spec.printing_schemas.values())):
            found = schema.base_fields.get(key)
            if found is not None and found.label:
                label = str(found.label)
                yield PRINTING_PREFIX + label, False
                yield str(LABEL_PRINTING_FIELD % {"printing": PRINTING_WORD, "field": label}), False
                yield label, True
        return
    for card_type in spec.card_types:
        found = card_type.schema.base_fields.get(code)
        if found is not None and found.label:
            yield str(found.label), False


@lru_cache(maxsize=32)
def _header_table(game_slug: str, columns: tuple[str, ...]) -> dict[str, frozenset[str]]:
    """Header key -> the columns it may name: every label of every column in every language
    of the site. A key two columns share names neither (``header_in_codes`` leaves it)."""
    spec = get_game(game_slug)
    table: dict[str, set[str]] = {}
    fallback: dict[str, set[str]] = {}
    for language, _name in settings.LANGUAGES:
        with override(language):
            for code in columns:
                for label, weak in _labels(code, spec):
                    key = header_key(label)
                    if key:
                        (fallback if weak else table).setdefault(key, set()).add(code)
    for key, codes in fallback.items():
        table.setdefault(key, codes)
    return {key: frozenset(codes) for key, codes in table.items()}


def column_titles(spec: GameSpec, columns: Iterable[str]) -> dict[str, frozenset[str]]:
    """What a header cell may say for each of ``columns``: header key -> the column codes."""
    return _header_table(spec.slug, tuple(columns))


@dataclass(frozen=True)
class Header:
    """A sheet with its header in column codes: ``titles`` keeps, per code, the title the
    sheet gave the column where it was a label."""

    text: str
    titles: dict[str, str] = field(default_factory=dict)

    def titled(self, problem: SheetProblem) -> SheetProblem:
        title = self.titles.get(problem.column, "")
        if not title or problem.header:
            return problem
        return SheetProblem(
            problem.line, problem.column, problem.reason, problem.did_you_mean, title
        )


def _lines(text: str, consumed: list[int]) -> Iterator[str]:
    """The physical lines as csv reads them (CRLF, LF or CR), counting the characters read."""
    for line in io.StringIO(text, newline=""):
        consumed[0] += len(line)
        yield line


def header_in_codes(text: str, game_slug: str, columns: Iterable[str]) -> Header:
    """``text`` with each header cell that is a label of one of ``columns`` replaced by its
    code. Cells already codes, or naming no column, or naming two, are left for the reader to
    report. The rows and their physical line numbers are untouched; a text the csv module
    cannot read, or whose header names nothing by label, comes back as it was."""
    if not is_game(game_slug):
        return Header(text)
    columns = tuple(columns)
    table = _header_table(get_game(game_slug).slug, columns)
    body = text.removeprefix(BOM)
    consumed = [0]
    reader = csv.reader(_lines(body, consumed))
    start = 0
    try:
        for cells in reader:
            if any(cell.strip() for cell in cells):
                break
            start = consumed[0]
        else:
            return Header(text)
    except csv.Error:
        return Header(text)
    end = consumed[0]
    titles: dict[str, str] = {}
    renamed: list[str] = []
    for cell in cells:
        codes = table.get(header_key(cell), frozenset())
        if cell.strip().lower() in columns or len(codes) != 1:
            renamed.append(cell)
            continue
        (code,) = codes
        titles[code] = cell.strip()
        renamed.append(code)
    if not titles:
        return Header(text)
    original = body[start:end]
    ending = original[len(original.rstrip("\r\n")) :]
    ending = "\r\n" if ending.startswith("\r\n") else ending[:1]
    out = io.StringIO()
    csv.writer(out, lineterminator=ending).writerow(renamed)
    # a header broken over several lines by a quoted line break keeps its height: blank lines,
    # which every reader skips, stand for the lines it spanned
    height = sum(1 for _line in io.StringIO(original, newline=""))
    written = sum(1 for _line in io.StringIO(out.getvalue(), newline=""))
    out.write((ending or "\r\n") * max(0, height - written))
    return Header(
        text[: len(text) - len(body)] + body[:start] + out.getvalue() + body[end:], titles
    )


# --- did you mean ---------------------------------------------------------------------------
def close_to(word: str, known: Iterable[str], *, n: int = 3) -> tuple[str, ...]:
    """The known values close to ``word``, best first (as ``validate.did_you_mean`` finds
    them: exact case first, then ignoring case)."""
    known = [k for k in known if k]
    if not word or not known:
        return ()
    found = difflib.get_close_matches(word, known, n=n, cutoff=0.6)
    if not found:
        by_lower = {k.lower(): k for k in known}
        lowered = difflib.get_close_matches(word.lower(), list(by_lower), n=n, cutoff=0.6)
        found = [by_lower[k] for k in lowered]
    return tuple(found)


def choice_hint(field_: forms.Field | None, value: str) -> tuple[str, ...]:
    """For a choice attribute: the codes meant by a cell's unknown values (by code or label)."""
    choices = [(str(c), str(label)) for c, label in getattr(field_, "choices", ()) or () if c]
    if not choices or not value:
        return ()
    codes = [c for c, _label in choices]
    is_list = isinstance(field_, ChoiceListField | forms.MultipleChoiceField)
    parts = [p.strip() for p in value.split(LIST_SEPARATOR)] if is_list else [value]
    by_label: dict[str, str] = {}
    for code, label in choices:
        whole = name_key(label)
        by_label.setdefault(whole, code)
        # "五遁 (Five Escapes)": either half alone names the choice too
        head, _paren, rest = whole.partition(" (")
        if rest:
            by_label.setdefault(head, code)
            by_label.setdefault(rest.removesuffix(")"), code)
    hints: list[str] = []
    for part in parts:
        if not part or part in codes:
            continue
        meant = by_label.get(name_key(part))
        found = (meant,) if meant else close_to(part, codes)
        if not found:
            labels = close_to(name_key(part), list(by_label), n=1)
            found = tuple(by_label[label] for label in labels)
        hints.extend(code for code in found if code not in hints)
    return tuple(hints)


# --- where a problem is: messages of the importer read back -------------------------------
# (msgid, the group naming the column or a fixed column); the most specific first. The
# importer's messages are matched in the active language, so they are read back whatever
# language they were written in.
_IMPORTER_MESSAGES: tuple[tuple[str, str], ...] = (
    ("missing column '%(name)s' (is '%(close)s' a misspelling of it?)", "=name"),
    ("missing column '%(name)s'", "=name"),
    ("column '%(name)s' appears twice in the header", "=name"),
    ("unknown column '%(name)s': not a printing attribute of %(game)s.", "=name"),
    ("unknown column '%(name)s': %(game)s printings carry no attributes.", "=name"),
    (
        "unknown column '%(name)s': not a column of this format nor an attribute "
        "of a %(game)s card.",
        "=name",
    ),
    ("game '%(other)s' but this file is for '%(game)s': one file holds one game.", "game"),
    ("%(columns)s given without a 'set' to print in", "set"),
    ("%(column)s '%(value)s' is not a whole number", "=column"),
    ("%(column)s '%(value)s' must be true or false", "=column"),
    (
        "card '%(code)s' is also on line %(first)d with a different %(column)s: "
        "'%(here)s' here, '%(there)s' there",
        "=column",
    ),
    ("missing %(columns)s and %(last)s", "code"),
    ("missing %(column)s", "=column"),
    ("%(label)s '%(code)s' must be at most %(max)d letters, digits, '-' or '_'", "code"),
    ("duplicate card code '%(code)s'", "code"),
    ("needs a name in English (name_en) or Japanese (name_ja)", "name_en"),
    ("a name is longer than 200 characters", "=long-name"),
    ("card type '%(type)s' is not a type of %(game)s (%(types)s).", "type"),
    ("printing attribute '%(key)s': %(messages)s", "=printing-key"),
    ("attribute '%(key)s': %(messages)s", "=key"),
    ("copy_limit must be between 1 and 99", "copy_limit"),
    ("duplicate printing %(key)s of card '%(card)s'", "number"),
    ("unknown set '%(code)s'.", "set"),
    ("collector number is longer than 40 characters", "number"),
    ("variant '%(variant)s' is not a variant of %(game)s (%(known)s).", "variant"),
    ("variant '%(variant)s' is not a variant of %(game)s.", "variant"),
)


def _as_regex(template: str, *, tail: bool = False) -> re.Pattern[str]:
    parts: list[str] = []
    seen: set[str] = set()
    position = 0
    for match in _PLACEHOLDER.finditer(template):
        parts.append(re.escape(template[position : match.start()]))
        name = match.group(1)
        parts.append(".*?" if name in seen else f"(?P<{name}>.*?)")
        seen.add(name)
        position = match.end()
    parts.append(re.escape(template[position:]))
    return re.compile("".join(parts) + (r"\Z" if tail else ""), re.DOTALL)


@lru_cache(maxsize=8)
def _patterns(language: str | None) -> tuple[re.Pattern[str], list[tuple[re.Pattern[str], str]]]:
    # ``language`` only keys the cache: the messages are translated in the active language
    hint = re.compile(
        _as_regex(" " + _("Did you mean %(names)s?"), tail=True).pattern.replace(
            "(?P<names>.*?)", _REPRS
        )
    )
    return hint, [(_as_regex(_(msgid), tail=True), how) for msgid, how in _IMPORTER_MESSAGES]


class ProblemPlacer:
    """Reads the importer's problems back into (line, column, reason, did you mean)."""

    def __init__(self, spec: GameSpec | None, rows: list[Row]) -> None:
        self.spec = spec
        self.cells = {row.line: row.cells for row in rows}
        self.card_types: dict[int, str] = {}
        self.set_codes: set[str] = set()
        self.hint, self.patterns = _patterns(get_language())

    def know_bundle(self, bundle: CatalogBundle) -> None:
        for card in bundle.cards:
            self.card_types[line_of(card.where)] = card.card_type
            for printing in card.printings:
                self.card_types[line_of(printing.where)] = card.card_type

    def place(self, problem: ImportProblem) -> SheetProblem:
        line = line_of(problem.where)
        message = problem.message
        hint = self.hint.search(message)
        bare = message[: hint.start()] if hint else message
        column, meant = "", tuple[str, ...]()
        for pattern, how in self.patterns:
            found = pattern.match(bare)
            if found is not None:
                column, meant = self.column(line, how, found.groupdict())
                break
        if hint and meant:
            message = bare  # the hint is in ``did_you_mean``, a button rather than a sentence
        return SheetProblem(line, column, message, meant)

    def column(self, line: int, how: str, groups: dict[str, str]) -> tuple[str, tuple[str, ...]]:
        cells = self.cells.get(line, {})
        if how == "=long-name":
            return ("name_en" if len(cells.get("name_en", "")) > 200 else "name_ja"), ()
        if how == "=printing-key":
            column = PRINTING_PREFIX + groups["key"]
        elif how.startswith("="):
            column = groups[how[1:]]
        else:
            column = how
        if column == "__all__":
            return "", ()
        return column, self.meant(line, column, cells, groups)

    def meant(
        self, line: int, column: str, cells: dict[str, str], groups: dict[str, str]
    ) -> tuple[str, ...]:
        if "close" in groups:
            return (groups["close"],)
        if line == 1:
            return self.column_meant(column)
        value = cells.get(column, "")
        spec = self.spec
        if column == "game":
            return close_to(value, [g.slug for g in all_games()])
        if spec is None:
            return ()
        if column == "type":
            return close_to(value, spec.card_type_codes)
        if column == "set":
            return close_to(value, self.set_codes)
        if column == "variant":
            return close_to(value, [code for code, _label in spec.variants])
        card_type = self.card_types.get(line, cells.get("type", ""))
        schema: type[AttributeSchema]
        if column.startswith(PRINTING_PREFIX):
            schema, key = spec.printing_schema_for(card_type), column[len(PRINTING_PREFIX) :]
        else:
            schema, key = spec.schema_for(card_type), column
        return choice_hint(schema.base_fields.get(key), value)

    def column_meant(self, name: str) -> tuple[str, ...]:
        if self.spec is None:
            return close_to(name, FIXED_COLUMNS)
        printing = printing_columns(self.spec)
        if PRINTING_PREFIX + name in printing:
            return (PRINTING_PREFIX + name,)
        columns = importer_columns(self.spec)
        meant = close_to(name, columns)
        if meant:
            return meant
        # a title that is a label: the columns it names (two, when the label is shared), or
        # those of the labels it is close to ("攻撃" for "攻撃力")
        table = column_titles(self.spec, columns)
        key = header_key(name)
        if key in table:
            return tuple(sorted(table[key]))
        found: list[str] = []
        for label in close_to(key, table):
            found += [code for code in sorted(table[label]) if code not in found]
        return tuple(found)


def line_of(where: str) -> int:
    number = where.rpartition(":")[2]
    return int(number) if number.isdigit() else 0


def card_columns(spec: GameSpec) -> list[str]:
    """Every card attribute of the game, in the order its card types declare them."""
    return list(dict.fromkeys(key for t in spec.card_types for key in t.schema.base_fields))


def importer_columns(spec: GameSpec) -> list[str]:
    """Every column the catalog's CSV reader takes for the game (a sheet's and more)."""
    return [*FIXED_COLUMNS, *card_columns(spec), *printing_columns(spec)]


def printing_columns(spec: GameSpec) -> list[str]:
    schemas = dict.fromkeys((spec.printing_schema, *spec.printing_schemas.values()))
    keys = dict.fromkeys(key for schema in schemas for key in schema.base_fields)
    return [PRINTING_PREFIX + key for key in keys]


def by_place(problem: SheetProblem) -> tuple[int, str]:
    return problem.line, problem.column
