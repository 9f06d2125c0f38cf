"""Reading a collection CSV: robustly, all-or-nothing, every problem with line and column.

Robust: a byte-order mark, a ``sep=`` first line, quoted commas and quotes, Windows and old
Mac line ends, blank lines, trailing spaces, full-width digits, names and set names in either
language (compared with the catalog's one name key, ``catalog.search.name_key``); identical
rows merge. A broken file (an unclosed quote, a huge cell, a NUL character, a number that is
not one) is a problem with its line, never an exception. Nothing is written here: the result
is either clean specs or every problem.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib.postgres.search import TrigramSimilarity
from django.db.models import BooleanField, Q, QuerySet
from django.db.models.expressions import RawSQL
from django.db.models.functions import Lower
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from catalog.importers.validate import did_you_mean
from catalog.models import Card, CardSet, Game, Printing
from catalog.query.suggest import near_names
from catalog.search import fold, name_key
from collection.interchange.dialects import (
    BY_CODE,
    CONDITION_ALIASES,
    DIALECTS,
    FOIL_WORDS,
    GENERIC,
    LANGUAGE_ALIASES,
    MAPPABLE,
    MAPPABLE_LABELS,
    MAPPED,
    NORMAL_WORDS,
    Dialect,
    detect_header,
    generic_columns,
    key,
)
from collection.interchange.safety import unprotect
from collection.models import MAX_BINDER, MAX_NOTE, MAX_QUANTITY
from collection.services import Identity, ItemSpec, merge_specs, spec_problems
from collection.vocab import LANGUAGE_NAMES, NORMAL, Condition, default_language, finishes_for

MAX_BYTES = 16 * 1024 * 1024
MAX_ROWS = 200_000
MAX_PROBLEMS = 500
#: rows of an unreadable header shown to the player who maps its columns
SAMPLE_ROWS = 5
#: a typed list's line: longer is no card (and the line pattern stays linear)
MAX_LIST_LINE = 300
#: "did you mean" suggestions per file (each one query for a few close candidates)
MAX_SUGGESTIONS = 50
#: candidates a "did you mean" of a card code compares with
MAX_NEAR = 5

#: the longest cell each field may have: longer is refused, never cut
MAX_CELL: dict[str, int] = {
    "game": 40,
    "card": 120,
    "name": 200,
    "name_ja": 200,
    "set": 200,
    "set_name": 200,
    "number": 40,
    "variant": 40,
    "quantity": 12,
    "trade_quantity": 12,
    "condition": 60,
    "finish": 60,
    "language": 60,
    "binder": MAX_BINDER,
    "tags": 2000,
    "acquired_on": 40,
    "price": 24,
    "currency": 12,
    "note": MAX_NOTE,
}

NOT_TEXT = gettext_lazy("The file is not text in UTF-8 or Shift_JIS.")
TOO_LARGE = gettext_lazy("The file is larger than %(max)d MB.")
TOO_MANY_ROWS = gettext_lazy("The file has more than %(max)d rows.")
EMPTY = gettext_lazy("The file has no rows.")
UNKNOWN_HEADER = gettext_lazy(
    "The header row is not one we know. Formats read: %(formats)s, and spreadsheets whose "
    "columns are named clearly (see the collection format page). Say which column holds what "
    "to read it."
)
TIED_HEADER = gettext_lazy(
    "This header fits %(formats)s equally: choose the file's format to read it."
)
MISSING_COLUMN = gettext_lazy("The %(format)s header has no “%(column)s” column.")
GAME_NEEDED = gettext_lazy("Choose the game this file's cards belong to.")
NUL_CHARACTER = gettext_lazy(
    "The line has a NUL character (at character %(position)d): a text file has none."
)
UNCLOSED_QUOTE = gettext_lazy("A quote opened on this line is never closed.")
CELL_TOO_LONG = gettext_lazy("A cell is longer than %(max)d characters.")
BAD_CSV = gettext_lazy("The line is not valid CSV (%(reason)s).")
CELL_LONGER = gettext_lazy("Write at most %(max)d characters here.")
MAPPING_NEEDS = gettext_lazy("Say which column holds the quantity and which the card's name.")
MAPPING_COLUMN = gettext_lazy("The file has no column %(column)s.")
MAPPING_TWICE = gettext_lazy("One column cannot hold two fields (%(field)s).")
MAPPING_FIELD = gettext_lazy("“%(field)s” is not something a column can hold.")


@dataclass(frozen=True)
class Problem:
    line: int
    column: str
    message: str

    def __str__(self) -> str:
        where = _("line %(line)d") % {"line": self.line}
        if self.column:
            where += f", {self.column}"
        return f"{where}: {self.message}"


@dataclass
class ReadResult:
    dialect: Dialect | None
    specs: list[ItemSpec] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    rows: int = 0
    #: rows that repeated an earlier row's item and were merged into it
    merged_rows: int = 0
    games: set[str] = field(default_factory=set)
    #: the header row and the first rows, kept when the header needs the player's mapping
    header: list[str] = field(default_factory=list)
    sample: list[list[str]] = field(default_factory=list)
    needs_mapping: bool = False
    #: formats that fit the header equally (the player chooses one)
    tied: tuple[Dialect, ...] = ()
    #: the mapping read with (field -> column index), for a mapped file
    mapping: dict[str, int] = field(default_factory=dict)
    #: our field -> its column's index, as read
    columns: dict[str, int] = field(default_factory=dict)
    #: the first line of each item (its identity), to place a problem found later
    lines: dict[Identity, int] = field(default_factory=dict)
    header_line: int = 1


def decode(raw: bytes) -> str:
    """Text from bytes: UTF-8 (with or without a BOM), else Shift_JIS (Excel in Japan)."""
    for encoding in ("utf-8-sig", "cp932"):
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise ValueError(str(NOT_TEXT))


def _number(text: str) -> str:
    return unicodedata.normalize("NFKC", text).strip()


@dataclass(frozen=True)
class _Named:
    """A set or card as the reader needs it: values, not model instances."""

    pk: int
    code: str
    name_en: str
    name_ja: str

    @property
    def name(self) -> str:
        # as ``Bilingual.name``: the active language's name, else the other
        if (get_language() or "en").startswith("ja"):
            return self.name_ja or self.name_en
        return self.name_en or self.name_ja


@dataclass(frozen=True)
class _Printing:
    pk: int
    card_id: int
    card_set_id: int
    collector_number: str
    variant: str


#: rows of a file whose cards are looked up together (one query per kind and chunk)
CHUNK_ROWS = 2000
#: the SQL of the names' overlap, answered by the GIN index of catalog migration 0007. The
#: array is a sub-select on purpose: given its thousands of values as a literal, the planner
#: estimated a tenth of the table and tested every card of the game against each (3.7 s for
#: 2,000 names at 100,000 cards); hidden, it prices the index (0.2 s)
_NAME_PARTS = "string_to_array(catalog_card.search_key, ' | ') && (SELECT %s::text[])"


class _Catalog:
    """The catalog rows of one game that a file names, looked up in bulk chunk by chunk
    (``load``) as tuples: the cost follows the file, not the catalog. The game's sets are
    few (tens) and read whole, once."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.sets_by_code: dict[str, _Named] = {}
        self.sets_by_name: dict[str, _Named] = {}
        self.sets_by_id: dict[int, _Named] = {}
        sets = CardSet.objects.filter(game=game, owner__isnull=True).order_by("pk")
        for row in sets.values_list("pk", "code", "name_en", "name_ja"):
            card_set = _Named(*row)
            self.sets_by_id[card_set.pk] = card_set
            self.sets_by_code[card_set.code.casefold()] = card_set
            for name in (card_set.name_en, card_set.name_ja):
                if name:
                    self.sets_by_name.setdefault(name_key(name), card_set)
        self.set_words = sorted(
            {w for s in self.sets_by_id.values() for w in (s.code, s.name_en, s.name_ja) if w}
        )
        self.cards_by_code: dict[str, _Named] = {}
        self.cards_by_name: dict[str, list[_Named]] = defaultdict(list)
        self.printings: dict[tuple[int, int], list[_Printing]] = defaultdict(list)
        self.printings_of: dict[int, list[_Printing]] = defaultdict(list)
        self._cards: dict[int, _Named] = {}
        self._asked_codes: set[str] = set()
        self._asked_names: set[str] = set()

    def _public_cards(self) -> QuerySet[Card]:
        # no ordering: the model's sorts by the game's order through a join nobody needs here
        return Card.objects.listed().filter(game=self.game).order_by()

    def load(self, *, codes: set[str], names: set[str]) -> None:
        """Read the cards named by ``codes`` (any case) and ``names`` (compared by
        ``name_key``) that were not asked for before, and the printings of those cards."""
        codes = {c for c in codes if c.casefold() not in self._asked_codes}
        keys = {name_key(n) for n in names} - self._asked_names
        self._asked_codes.update(c.casefold() for c in codes)
        self._asked_names.update(keys)
        fresh: list[_Named] = []
        columns = ("pk", "code", "name_en", "name_ja")
        if codes:
            # as written, or in another case (the unique index and catalog migration 0007's
            # lower-case one answer either)
            lowered = {c.lower() for c in codes}
            by_code = self._public_cards().alias(low=Lower("code"))
            by_code = by_code.filter(Q(code__in=codes) | Q(low__in=lowered))
            fresh += [_Named(*r) for r in by_code.values_list(*columns)]
        if keys:
            # the stored search key holds each name folded (punctuation dropped): a looser
            # match than the name key, narrowed in Python below
            folded = sorted({" ".join(fold(k).split()) for k in keys} | {fold(n) for n in names})
            overlap = RawSQL(_NAME_PARTS, (folded,), output_field=BooleanField())
            fresh += [
                _Named(*r) for r in self._public_cards().filter(overlap).values_list(*columns)
            ]
        added = []
        for card in fresh:
            if card.pk in self._cards:
                continue
            self._cards[card.pk] = card
            added.append(card.pk)
            self.cards_by_code[card.code.casefold()] = card
            for key_ in {name_key(n) for n in (card.name_en, card.name_ja) if n}:
                self.cards_by_name[key_].append(card)
        if not added:
            return
        printings = Printing.objects.filter(card_id__in=added).order_by("pk")
        fields = ("pk", "card_id", "card_set_id", "collector_number", "variant")
        for row in printings.values_list(*fields):
            printing = _Printing(*row)
            self.printings[(printing.card_id, printing.card_set_id)].append(printing)
            self.printings_of[printing.card_id].append(printing)

    def code_suggestion(self, code: str) -> str:
        """ "Did you mean" for an unknown card code: the few codes closest by trigrams."""
        close = (
            self._public_cards()
            .annotate(likeness=TrigramSimilarity("code", code))
            .filter(likeness__gte=0.3)
            .order_by("-likeness", "code")
            .values_list("code", flat=True)[:MAX_NEAR]
        )
        return did_you_mean(code, list(close))

    def name_suggestion(self, name: str) -> str:
        """ "Did you mean" for an unknown name: the names of the few cards the trigram
        index finds close (``catalog.query.suggest``)."""
        near = near_names(self._public_cards(), [name])
        # cards may share a name: each name once
        names = dict.fromkeys(n for c in near for n in (c.name_en, c.name_ja) if n)
        return did_you_mean(name, list(names))


class _Reader:
    def __init__(
        self, dialect: Dialect, game: Game | None, header: list[str], columns: dict[str, int]
    ) -> None:
        self.dialect = dialect
        self.game = game
        self.catalogs: dict[str, _Catalog | None] = {}
        self.header = header
        self.columns = columns
        self.suggestions = 0

    def column_of(self, name: str) -> int | None:
        return self.columns.get(name)

    def title(self, name: str) -> str:
        """A column as the file's header names it (or as the format would)."""
        index = self.columns.get(name)
        if index is not None and index < len(self.header):
            return self.header[index]
        return self.dialect.columns.get(name, name)

    def suggest(self, word: str, known: list[str] | Callable[[str], str]) -> str:
        """A "did you mean" from the ``known`` words, or from ``known(word)`` (a query)."""
        self.suggestions += 1
        if self.suggestions > MAX_SUGGESTIONS:
            return ""
        return known(word) if callable(known) else did_you_mean(word, known)

    def catalog(self, slug: str) -> _Catalog | None:
        if slug not in self.catalogs:
            game = Game.objects.filter(slug=slug).first()
            self.catalogs[slug] = _Catalog(game) if game else None
        return self.catalogs[slug]


def _tool_columns(dialect: Dialect, header: list[str]) -> dict[str, int]:
    index = {key(cell): i for i, cell in reversed(list(enumerate(header)))}
    found = {name: index.get(key(title)) for name, title in dialect.columns.items()}
    return {name: i for name, i in found.items() if i is not None}


LIST_LINE = re.compile(
    r"^\s*(?P<count>[0-9]+)\s*[xX×]?\s+(?P<name>.+?)"
    r"(?:\s+\((?P<set>[^()]+)\)(?:\s+(?P<number>\S+))?)?\s*$"
)
LIST_LINE_BAD = gettext_lazy(
    "Write one card per line: how many, the name, and optionally the set in parentheses "
    "and the number, e.g. “3 Flame Fox (MT1) 001”."
)
LIST_LINE_LONG = gettext_lazy("A line of the list is at most %(max)d characters.")


def read_collection_csv(
    text: str,
    *,
    game: Game | None,
    dialect_code: str = "",
    mapping: Mapping[str, int] | None = None,
) -> ReadResult:
    """Read ``text`` (already decoded) as a collection CSV of ``game`` (DeckLab CSV names
    the game on each row and needs none), as a typed list with ``dialect_code="list"``, or
    with the player's ``mapping`` of our fields to its columns."""
    if dialect_code == "list":
        return read_collection_list(text, game=game)
    return _read_csv(text, game=game, dialect_code=dialect_code, mapping=mapping)


def _nul_problems(text: str) -> list[Problem]:
    problems: list[Problem] = []
    position = text.find("\x00")
    while position != -1 and len(problems) < 20:
        line_start = text.rfind("\n", 0, position) + 1
        line = text.count("\n", 0, position) + 1
        problems.append(Problem(line, "", NUL_CHARACTER % {"position": position - line_start + 1}))
        next_line = text.find("\n", position)
        position = -1 if next_line == -1 else text.find("\x00", next_line)
    return problems


def _normalised_lines(text: str) -> str:
    return text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def read_collection_list(text: str, *, game: Game | None) -> ReadResult:
    """A typed list, one ``<count> <name> [(<set>) [<number>]]`` per line (names in either
    language, full-width digits allowed; blank lines and ``#`` comments skipped)."""
    text = _normalised_lines(text)
    problems = _nul_problems(text)
    if problems:
        return ReadResult(BY_CODE["list"], problems=problems)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["Count", "Name", "Set", "Number"])
    for number, raw in enumerate(text.split("\n"), start=1):
        if len(raw) > MAX_LIST_LINE:
            problems.append(Problem(number, "", LIST_LINE_LONG % {"max": MAX_LIST_LINE}))
            writer.writerow([])
            continue
        line = unicodedata.normalize("NFKC", raw)
        skipped = not line.strip() or line.lstrip().startswith("#")
        found = None if skipped else LIST_LINE.match(line)
        if found is None:
            if not skipped:
                problems.append(Problem(number, "", str(LIST_LINE_BAD)))
            writer.writerow([])
            continue
        writer.writerow([found["count"], found["name"], found["set"] or "", found["number"] or ""])
    if problems:
        return ReadResult(BY_CODE["list"], problems=problems[:MAX_PROBLEMS])
    result = _read_csv(out.getvalue(), game=game, dialect_code="list")
    # the generated header is line 1: the list's own lines are one less
    result.problems = [Problem(p.line - 1, p.column, p.message) for p in result.problems]
    result.lines = {k: v - 1 for k, v in result.lines.items()}
    return result


def _csv_rows(text: str) -> tuple[list[tuple[int, list[str]]], list[Problem]]:
    """The non-blank rows with the line each starts on, or the problem that stopped reading."""
    delimiter, offset = ",", 0
    first, _nl, rest = text.partition("\n")
    found = re.fullmatch(r'"?sep=(.)"?,*\s*', first.strip(), flags=re.IGNORECASE)
    if found and found.group(1) not in ('"', "\n", "\r"):
        delimiter, offset, text = found.group(1), 1, rest
    # strict: a quote never closed is said, not swallowed with the rest of the file
    reader = csv.reader(io.StringIO(text), delimiter=delimiter, strict=True)
    rows: list[tuple[int, list[str]]] = []
    line = offset + 1
    while True:
        start = line
        try:
            cells = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            reason = str(exc)
            if "field larger than field limit" in reason:
                message = CELL_TOO_LONG % {"max": csv.field_size_limit()}
            elif "unexpected end of data" in reason:
                message = str(UNCLOSED_QUOTE)
            else:
                message = BAD_CSV % {"reason": reason}
            return rows, [Problem(start, "", message)]
        line = offset + reader.line_num + 1
        cells = [unprotect(c.strip()) for c in cells]
        if any(cells):
            rows.append((start, cells))
        if len(rows) > MAX_ROWS + 1:
            return rows, [Problem(start, "", TOO_MANY_ROWS % {"max": MAX_ROWS})]
    return rows, []


def first_row(text: str) -> list[str]:
    """The header row of a file (its first non-blank row), or nothing when it is unreadable."""
    head = _normalised_lines(text[:200_000])
    rows, stopped = _csv_rows("\n".join(head.split("\n")[:50]))
    return rows[0][1] if rows and not stopped else []


def mapping_problems(
    header: list[str], given: Mapping[str, Any]
) -> tuple[dict[str, int], list[str]]:
    """The player's mapping (our field -> a column, by its 0-based index or its header text)
    as column indexes, or what is wrong with it."""
    columns: dict[str, int] = {}
    problems: list[str] = []
    by_title = {key(cell): i for i, cell in reversed(list(enumerate(header)))}
    for name, where in given.items():
        if name not in MAPPABLE:
            problems.append(MAPPING_FIELD % {"field": name})
            continue
        if where in ("", None):
            continue
        index: int | None
        if isinstance(where, bool):
            index = None
        elif isinstance(where, int):
            index = where if 0 <= where < len(header) else None
        else:
            index = by_title.get(key(str(where)))
        if index is None:
            problems.append(MAPPING_COLUMN % {"column": str(where)[:80]})
            continue
        columns[name] = index
    taken: dict[int, str] = {}
    for name, index in columns.items():
        if index in taken:
            problems.append(MAPPING_TWICE % {"field": f"{taken[index]} / {name}"})
        taken[index] = name
    if not problems and ("quantity" not in columns or not {"name", "card"} & set(columns)):
        problems.append(str(MAPPING_NEEDS))
    return columns, problems


def _read_csv(
    text: str,
    *,
    game: Game | None,
    dialect_code: str,
    mapping: Mapping[str, Any] | None = None,
) -> ReadResult:
    if len(text) > MAX_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        return ReadResult(None, problems=[Problem(1, "", TOO_LARGE % {"max": MAX_BYTES >> 20})])
    text = _normalised_lines(text)
    nul = _nul_problems(text)
    if nul:
        return ReadResult(None, problems=nul)
    rows, stopped = _csv_rows(text)
    if stopped:
        return ReadResult(None, problems=stopped)
    if len(rows) < 2:
        return ReadResult(None, problems=[Problem(rows[0][0] if rows else 1, "", str(EMPTY))])
    header_line, header = rows[0]
    sample = [cells for _line, cells in rows[1 : SAMPLE_ROWS + 1]]
    columns: dict[str, int]
    if mapping:
        columns, wrong = mapping_problems(header, mapping)
        if wrong:
            result = ReadResult(MAPPED, header=header, sample=sample, needs_mapping=True)
            result.problems = [Problem(header_line, "", message) for message in wrong]
            return result
        dialect: Dialect | None = MAPPED
    elif dialect_code and dialect_code in BY_CODE:
        dialect = BY_CODE[dialect_code]
        columns = generic_columns(header) if dialect is GENERIC else _tool_columns(dialect, header)
    else:
        detection = detect_header(header)
        dialect = detection.dialect
        if dialect is None:
            if detection.tied:
                formats = ", ".join(str(d.label) for d in detection.tied)
                message = TIED_HEADER % {"formats": formats}
            else:
                formats = ", ".join(str(d.label) for d in DIALECTS)
                message = UNKNOWN_HEADER % {"formats": formats}
            return ReadResult(
                None,
                problems=[Problem(header_line, "", message)],
                header=header,
                sample=sample,
                needs_mapping=not detection.tied,
                tied=detection.tied,
            )
        columns = generic_columns(header) if dialect is GENERIC else _tool_columns(dialect, header)
    assert dialect is not None
    result = ReadResult(
        dialect, header=header, sample=sample, header_line=header_line, columns=columns
    )
    if dialect is MAPPED:
        result.mapping = dict(columns)
    state = _Reader(dialect, game, header, columns)
    by_code = "card" in columns or (dialect.carries("card") and dialect is not GENERIC)
    required = ["quantity", "card" if by_code else "name"]
    missing = [c for c in required if state.column_of(c) is None]
    if not dialect.carries("game") and game is None:
        result.problems.append(Problem(header_line, "", str(GAME_NEEDED)))
    for name in missing:
        title = dialect.columns.get(name) or str(MAPPABLE_LABELS.get(name, name))
        result.problems.append(
            Problem(header_line, title, MISSING_COLUMN % {"format": dialect.label, "column": title})
        )
    if result.problems:
        result.needs_mapping = dialect in (GENERIC, MAPPED)
        return result
    specs: list[ItemSpec] = []
    body = rows[1:]
    for start in range(0, len(body), CHUNK_ROWS):
        chunk = body[start : start + CHUNK_ROWS]
        _load_named(state, [cells for _line, cells in chunk])
        for line_no, cells in chunk:
            result.rows += 1
            spec = _row(state, result, line_no, cells)
            if spec is not None:
                specs.append(spec)
                result.lines.setdefault(spec.identity, line_no)
            if len(result.problems) >= MAX_PROBLEMS:
                break
        if len(result.problems) >= MAX_PROBLEMS:
            break
    merged = merge_specs(specs)
    result.merged_rows = len(specs) - len(merged)
    for spec in merged:
        if spec.quantity > MAX_QUANTITY:
            result.problems.append(
                Problem(
                    result.lines.get(spec.identity, header_line),
                    state.title("quantity"),
                    _("The rows of one item add up to more than %(max)d copies.")
                    % {"max": MAX_QUANTITY},
                )
            )
            break
    result.specs = merged if not result.problems else []
    return result


Report = Callable[[str, str], None]


def _load_named(state: _Reader, rows: list[list[str]]) -> None:
    """Look up, in bulk, the cards a chunk of rows names (by code or by name), per game."""
    wanted: dict[str, tuple[set[str], set[str]]] = defaultdict(lambda: (set(), set()))
    default = state.game.slug if state.game else ""
    carries_game = state.dialect.carries("game")

    def cell(cells: list[str], name: str) -> str:
        index = state.column_of(name)
        text = cells[index] if index is not None and index < len(cells) else ""
        # a cell over its bound is refused by the row, not looked up
        return "" if len(text) > MAX_CELL.get(name, len(text)) else text

    for cells in rows:
        slug = (cell(cells, "game") if carries_game else "") or default
        codes, names = wanted[slug]
        code = cell(cells, "card")
        if code:
            codes.add(code)
        else:
            name = cell(cells, "name") or cell(cells, "name_ja")
            if name:
                names.add(name)
    for slug, (codes, names) in wanted.items():
        catalog = state.catalog(slug) if slug else None
        if catalog is not None and (codes or names):
            catalog.load(codes=codes, names=names)


def _row(state: _Reader, result: ReadResult, line: int, cells: list[str]) -> ItemSpec | None:
    dialect = state.dialect
    before = len(result.problems)

    def cell(name: str) -> str:
        index = state.column_of(name)
        return cells[index] if index is not None and index < len(cells) else ""

    def problem(name: str, message: str) -> None:
        if (
            name == "set"
            and state.column_of("set") is None
            and state.column_of("set_name") is not None
        ):
            name = "set_name"  # the file names sets by name only
        result.problems.append(Problem(line, state.title(name), message))

    for name in state.columns:
        limit = MAX_CELL.get(name)
        if limit is not None and len(cell(name)) > limit:
            problem(name, CELL_LONGER % {"max": limit})
    if len(result.problems) > before:
        return None
    slug = cell("game") if dialect.carries("game") else ""
    if not slug:
        slug = state.game.slug if state.game else ""
    catalog = state.catalog(slug) if slug else None
    if catalog is None:
        known = list(Game.objects.values_list("slug", flat=True))
        problem("game", _("No game “%(game)s”.") % {"game": slug} + did_you_mean(slug, known))
        return None
    result.games.add(slug)
    card = _card(state, catalog, cell, problem)
    if not cell("set") and not cell("set_name"):
        # no set given: a card with one printing (or one plain printing) needs none
        typed = dialect.code == "list"
        card_set = _only_set(catalog, card, problem, typed=typed) if card is not None else None
    else:
        card_set = _set(state, catalog, cell, problem)
    quantity = _count(cell("quantity"), "quantity", problem, low=1)
    trade = (
        _count(cell("trade_quantity"), "trade_quantity", problem, low=0)
        if cell("trade_quantity")
        else 0
    )
    condition = _condition(dialect, cell("condition"), problem)
    finish = _finish(slug, cell("finish"), problem)
    language = _language(cell("language"), problem)
    acquired_on = _date(cell("acquired_on"), problem)
    price = _price(cell("price"), problem)
    separators = re.escape(dialect.tag_separators)
    tags = tuple(t.strip() for t in re.split(f"[{separators}]", cell("tags")) if t.strip())
    printing = None
    if card is not None and card_set is not None:
        printing = _printing(catalog, card, card_set, cell("number"), cell("variant"), problem)
    if len(result.problems) > before or printing is None or quantity is None:
        return None
    spec = ItemSpec(
        printing_id=printing.pk,
        quantity=quantity,
        trade_quantity=trade or 0,
        condition=condition or Condition.NEAR_MINT,
        finish=finish or NORMAL,
        language=language or default_language(slug),
        binder=cell("binder"),
        tags=tags,
        acquired_on=acquired_on,
        price=price,
        currency=cell("currency").upper(),
        note=cell("note"),
    )
    for name, message in spec_problems(spec, game_slug=slug):
        problem(name, message)
    return None if len(result.problems) > before else spec


def _card(state: _Reader, catalog: _Catalog, cell: Any, problem: Report) -> _Named | None:
    code = cell("card")
    if code:
        found = catalog.cards_by_code.get(code.casefold())
        if found is None:
            problem(
                "card",
                _("%(game)s has no card with the code “%(code)s”.")
                % {"game": catalog.game.name, "code": code}
                + state.suggest(code, catalog.code_suggestion),
            )
        return found
    name = cell("name") or cell("name_ja")
    if not name:
        problem("name", _("Give the card's name."))
        return None
    cards = catalog.cards_by_name.get(name_key(name), [])
    if not cards:
        problem(
            "name",
            _("%(game)s has no card named “%(name)s”.") % {"game": catalog.game.name, "name": name}
            + state.suggest(name, catalog.name_suggestion),
        )
        return None
    if len(cards) > 1:
        problem(
            "name",
            _("Several cards are named “%(name)s”: write DeckLab CSV with the card code.")
            % {"name": name},
        )
        return None
    return cards[0]


def _set(state: _Reader, catalog: _Catalog, cell: Any, problem: Report) -> _Named | None:
    given = cell("set") or cell("set_name")
    found = catalog.sets_by_code.get(given.casefold()) or catalog.sets_by_name.get(name_key(given))
    if found is None and cell("set_name"):
        found = catalog.sets_by_name.get(name_key(cell("set_name")))
    if found is None:
        problem(
            "set",
            _("%(game)s has no set “%(set)s”.") % {"game": catalog.game.name, "set": given}
            + state.suggest(given, catalog.set_words),
        )
    return found


def _only_set(catalog: _Catalog, card: _Named, problem: Report, *, typed: bool) -> _Named | None:
    printings = catalog.printings_of.get(card.pk, [])
    plain = [p for p in printings if not p.variant] or printings
    if not printings:
        problem("set", _("The catalog lists no printing of %(card)s.") % {"card": card.name})
        return None
    if len(plain) == 1:
        return catalog.sets_by_id[plain[0].card_set_id]
    sets = ", ".join(sorted({catalog.sets_by_id[p.card_set_id].code for p in printings}))
    if typed:
        message = _("%(card)s has several printings: name the set in parentheses (%(sets)s).")
    else:
        message = _("%(card)s has several printings: give the set (%(sets)s).")
    problem("set", message % {"card": card.name, "sets": sets})
    return None


def _printing(
    catalog: _Catalog, card: _Named, card_set: _Named, number: str, variant: str, problem: Report
) -> _Printing | None:
    printings = catalog.printings.get((card.pk, card_set.pk), [])
    number = _number(number)
    if number:
        wanted = {number.casefold(), number.lstrip("0").casefold()}
        printings = [
            p
            for p in printings
            if {p.collector_number.casefold(), p.collector_number.lstrip("0").casefold()} & wanted
        ]
    by_variant = [p for p in printings if p.variant == variant.strip()]
    if by_variant:
        printings = by_variant
    if len(printings) == 1:
        return printings[0]
    if not printings:
        problem(
            "number" if number else "set",
            _("%(card)s has no printing in %(set)s%(number)s.")
            % {"card": card.name, "set": card_set.code, "number": f" #{number}" if number else ""},
        )
    else:
        problem(
            "number",
            _("%(card)s has several printings in %(set)s: give the collector number.")
            % {"card": card.name, "set": card_set.code},
        )
    return None


def _count(text: str, name: str, problem: Report, *, low: int) -> int | None:
    # NFKC makes full-width digits ASCII; other scripts' digits (፩, ١) are not read as numbers
    value = _number(text)
    if not (value.isascii() and value.isdigit()):
        problem(name, _("Write a whole number of copies, not “%(value)s”.") % {"value": text})
        return None
    # a number that long is out of bounds anyway (and int() refuses thousands of digits)
    count = int(value) if len(value) <= 12 else MAX_QUANTITY + 1
    if not low <= count <= MAX_QUANTITY:
        problem(name, _("Give %(low)d to %(high)d copies.") % {"low": low, "high": MAX_QUANTITY})
        return None
    return count


def _condition(dialect: Dialect, text: str, problem: Report) -> str | None:
    if not text:
        return None
    word = key(text)
    found = dialect.conditions_in.get(word) or CONDITION_ALIASES.get(word)
    if found is None:
        known = sorted(set(dialect.conditions_out.values()))
        problem(
            "condition",
            _("“%(value)s” is not a condition we know; use one of %(known)s.")
            % {"value": text, "known": ", ".join(known)}
            + did_you_mean(text, known),
        )
    return found


def _finish(slug: str, text: str, problem: Report) -> str | None:
    word = key(text)
    declared = finishes_for(slug)
    codes = [c for c, _l in declared]
    if word in NORMAL_WORDS:
        return NORMAL
    for code, label in declared:
        if word in (key(code), key(str(label))):
            return code
    # Dragon Shield's "Rainbow Foil", "Surge Foil"…: foil, in a game that has foil
    if (word in FOIL_WORDS or word.endswith("foil")) and "foil" in codes:
        return "foil"
    problem(
        "finish",
        _("“%(value)s” is not a finish of this game; its finishes are %(known)s.")
        % {"value": text, "known": ", ".join(codes)}
        + did_you_mean(text, codes),
    )
    return None


def _language(text: str, problem: Report) -> str | None:
    if not text:
        return None
    word = key(text)
    for code, (english, japanese, _label) in LANGUAGE_NAMES.items():
        if word in (code, key(english), key(japanese)):
            return code
    if word in LANGUAGE_ALIASES:
        return LANGUAGE_ALIASES[word]
    problem(
        "language",
        _("“%(value)s” is not a language we know.") % {"value": text}
        + did_you_mean(text, [n[0] for n in LANGUAGE_NAMES.values()]),
    )
    return None


_US_DATE = re.compile(r"(?P<month>\d{1,2})/(?P<day>\d{1,2})/(?P<year>\d{4})")


def _date(text: str, problem: Report) -> date | None:
    value = _number(text)
    if not value:
        return None
    try:
        # Dragon Shield writes M/D/YYYY; others ISO dates, with a time or slashes
        us = _US_DATE.fullmatch(value)
        if us:
            return date(int(us["year"]), int(us["month"]), int(us["day"]))
        return date.fromisoformat(value.replace("/", "-")[:10])
    except ValueError:
        problem(
            "acquired_on", _("Write the date as YYYY-MM-DD, not “%(value)s”.") % {"value": text}
        )
        return None


_PRICE = re.compile(r"[0-9]{1,12}(?:\.[0-9]{1,6})?")


def _price(text: str, problem: Report) -> Decimal | None:
    value = _number(text).lstrip("¥$€£").replace(",", "").strip()
    if not value:
        return None
    # digits and one point only: "NaN", "inf" and "1e999" are no prices
    if _PRICE.fullmatch(value):
        try:
            return Decimal(value)
        except InvalidOperation:  # pragma: no cover - the pattern admits only decimals
            pass
    problem(
        "price",
        _("Write the price as a number, e.g. 1200 or 3.50, not “%(value)s”.") % {"value": text},
    )
    return None
