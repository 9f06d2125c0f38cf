"""Reading a collection CSV: robustly, all-or-nothing, every problem with line and column.

Robust: a byte-order mark, a ``sep=`` first line, quoted commas and quotes, Windows and old
Mac line ends, blank lines, trailing spaces, full-width digits, names and set names in either
language; identical rows merge. Nothing is written here: the result is either clean specs or
every problem.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from catalog.importers.validate import did_you_mean
from catalog.models import Card, CardSet, Game, Printing
from collection.interchange.dialects import (
    BY_CODE,
    CONDITION_ALIASES,
    DIALECTS,
    FOIL_WORDS,
    NORMAL_WORDS,
    Dialect,
    detect,
    key,
)
from collection.models import MAX_QUANTITY
from collection.services import ItemSpec, merge_specs, spec_problems
from collection.vocab import LANGUAGE_NAMES, NORMAL, Condition, default_language, finishes_for

MAX_BYTES = 16 * 1024 * 1024
MAX_ROWS = 200_000
MAX_PROBLEMS = 500

NOT_TEXT = gettext_lazy("The file is not text in UTF-8 or Shift_JIS.")
TOO_LARGE = gettext_lazy("The file is larger than %(max)d MB.")
TOO_MANY_ROWS = gettext_lazy("The file has more than %(max)d rows.")
EMPTY = gettext_lazy("The file has no rows.")
UNKNOWN_HEADER = gettext_lazy(
    "The header row is not one we know. Formats read: %(formats)s (see the collection format "
    "page for their headers)."
)
MISSING_COLUMN = gettext_lazy("The %(format)s header has no “%(column)s” column.")
GAME_NEEDED = gettext_lazy("Choose the game this file's cards belong to.")


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


def _name(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


class _Catalog:
    """One game's sets, cards and printings, read once and looked up in memory."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.sets_by_code: dict[str, CardSet] = {}
        self.sets_by_name: dict[str, CardSet] = {}
        for card_set in CardSet.objects.filter(game=game, owner__isnull=True):
            self.sets_by_code[card_set.code.casefold()] = card_set
            for name in (card_set.name_en, card_set.name_ja):
                if name:
                    self.sets_by_name.setdefault(_name(name), card_set)
        self.cards_by_code: dict[str, Card] = {}
        self.cards_by_name: dict[str, list[Card]] = defaultdict(list)
        for card in Card.objects.filter(game=game, owner__isnull=True):
            self.cards_by_code[card.code.casefold()] = card
            for name in {card.name_en, card.name_ja}:
                if name:
                    self.cards_by_name[_name(name)].append(card)
        self.printings: dict[tuple[int, int], list[Printing]] = defaultdict(list)
        for printing in Printing.objects.filter(card__game=game, card__owner__isnull=True):
            self.printings[(printing.card_id, printing.card_set_id)].append(printing)
        self.card_names = sorted(
            {n for c in self.cards_by_code.values() for n in (c.name_en, c.name_ja) if n}
        )
        self.set_words = sorted(
            {w for s in self.sets_by_code.values() for w in (s.code, s.name_en, s.name_ja) if w}
        )


class _Reader:
    def __init__(self, dialect: Dialect, game: Game | None, header: list[str]) -> None:
        self.dialect = dialect
        self.game = game
        self.catalogs: dict[str, _Catalog | None] = {}
        self.index = {key(cell): i for i, cell in enumerate(header)}
        self.header = header

    def column_of(self, name: str) -> int | None:
        title = self.dialect.columns.get(name)
        return None if title is None else self.index.get(key(title))

    def catalog(self, slug: str) -> _Catalog | None:
        if slug not in self.catalogs:
            game = Game.objects.filter(slug=slug).first()
            self.catalogs[slug] = _Catalog(game) if game else None
        return self.catalogs[slug]


LIST_LINE = re.compile(
    r"^\s*(?P<count>\d+)\s*[xX×]?\s+(?P<name>.+?)"
    r"(?:\s+\((?P<set>[^()]+)\)(?:\s+(?P<number>\S+))?)?\s*$"
)
LIST_LINE_BAD = gettext_lazy(
    "Write one card per line: how many, the name, and optionally the set in parentheses "
    "and the number, e.g. “3 Flame Fox (MT1) 001”."
)


def read_collection_csv(text: str, *, game: Game | None, dialect_code: str = "") -> ReadResult:
    """Read ``text`` (already decoded) as a collection CSV of ``game`` (DeckLab CSV names
    the game on each row and needs none), or as a typed list with ``dialect_code="list"``."""
    if dialect_code == "list":
        return read_collection_list(text, game=game)
    return _read_csv(text, game=game, dialect_code=dialect_code)


def read_collection_list(text: str, *, game: Game | None) -> ReadResult:
    """A typed list, one ``<count> <name> [(<set>) [<number>]]`` per line (names in either
    language, full-width digits allowed; blank lines and ``#`` comments skipped)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["Count", "Name", "Set", "Number"])
    problems: list[Problem] = []
    lines = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for number, raw in enumerate(lines, start=1):
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
        return ReadResult(BY_CODE["list"], problems=problems)
    result = _read_csv(out.getvalue(), game=game, dialect_code="list")
    # the generated header is line 1: the list's own lines are one less
    result.problems = [Problem(p.line - 1, p.column, p.message) for p in result.problems]
    return result


def _read_csv(text: str, *, game: Game | None, dialect_code: str) -> ReadResult:
    if len(text.encode("utf-8")) > MAX_BYTES:
        return ReadResult(None, problems=[Problem(1, "", TOO_LARGE % {"max": MAX_BYTES >> 20})])
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    delimiter, offset = ",", 0
    first, _nl, rest = text.partition("\n")
    found = re.fullmatch(r'"?sep=(.)"?,*\s*', first.strip(), flags=re.IGNORECASE)
    if found:
        delimiter, offset, text = found.group(1), 1, rest
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    rows: list[tuple[int, list[str]]] = []
    line = offset + 1
    for cells in reader:
        start, line = line, offset + reader.line_num + 1
        cells = [c.strip() for c in cells]
        if any(cells):
            rows.append((start, cells))
        if len(rows) > MAX_ROWS + 1:
            return ReadResult(
                None, problems=[Problem(start, "", TOO_MANY_ROWS % {"max": MAX_ROWS})]
            )
    if len(rows) < 2:
        return ReadResult(None, problems=[Problem(rows[0][0] if rows else 1, "", str(EMPTY))])
    header_line, header = rows[0]
    dialect = BY_CODE.get(dialect_code) if dialect_code else detect(header)
    if dialect is None:
        formats = ", ".join(d.label for d in DIALECTS)
        return ReadResult(
            None, problems=[Problem(header_line, "", UNKNOWN_HEADER % {"formats": formats})]
        )
    result = ReadResult(dialect)
    state = _Reader(dialect, game, header)
    required = ["quantity", "card" if dialect.carries("card") else "name", "set"]
    missing = [
        c
        for c in required
        if state.column_of(c) is None
        and not (c == "set" and state.column_of("set_name") is not None)
    ]
    if dialect.code != "decklab" and game is None:
        result.problems.append(Problem(header_line, "", str(GAME_NEEDED)))
    for name in missing:
        result.problems.append(
            Problem(
                header_line,
                dialect.columns[name],
                MISSING_COLUMN % {"format": dialect.label, "column": dialect.columns[name]},
            )
        )
    if result.problems:
        return result
    specs: list[ItemSpec] = []
    for line_no, cells in rows[1:]:
        result.rows += 1
        spec = _row(state, result, line_no, cells)
        if spec is not None:
            specs.append(spec)
        if len(result.problems) >= MAX_PROBLEMS:
            break
    merged = merge_specs(specs)
    result.merged_rows = len(specs) - len(merged)
    for spec in merged:
        if spec.quantity > MAX_QUANTITY:
            result.problems.append(
                Problem(
                    header_line,
                    dialect.columns["quantity"],
                    _("The rows of one item add up to more than %(max)d copies.")
                    % {"max": MAX_QUANTITY},
                )
            )
            break
    result.specs = merged if not result.problems else []
    return result


def _row(state: _Reader, result: ReadResult, line: int, cells: list[str]) -> ItemSpec | None:
    dialect = state.dialect
    before = len(result.problems)

    def cell(name: str) -> str:
        index = state.column_of(name)
        return cells[index] if index is not None and index < len(cells) else ""

    def problem(name: str, message: str) -> None:
        if name == "set" and state.column_of("set") is None:
            name = "set_name"  # the file names sets by name only
        result.problems.append(Problem(line, dialect.columns.get(name, name), message))

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
    if dialect.code == "list" and not cell("set"):
        # a typed list may leave the set out when the card has one printing (or one plain)
        card_set = _only_set(catalog, card, problem) if card is not None else None
    else:
        card_set = _set(catalog, cell, problem)
    quantity = _count(cell("quantity"), "quantity", problem, low=1)
    trade = (
        _count(cell("trade_quantity"), "trade_quantity", problem, low=0)
        if cell("trade_quantity")
        else 0
    )
    condition = _condition(dialect, cell("condition"), problem)
    finish = _finish(slug, cell("finish"), problem)
    language = _language(slug, cell("language"), problem)
    acquired_on = _date(cell("acquired_on"), problem)
    price = _price(cell("price"), problem)
    tags = tuple(t.strip() for t in cell("tags").split(";") if t.strip())
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
        binder=cell("binder")[:80],
        tags=tags,
        acquired_on=acquired_on,
        price=price,
        currency=cell("currency").upper(),
        note=cell("note"),
    )
    for name, message in spec_problems(spec, game_slug=slug):
        problem(name, message)
    return None if len(result.problems) > before else spec


def _card(state: _Reader, catalog: _Catalog, cell: Any, problem: Any) -> Card | None:
    code = cell("card")
    if code:
        found = catalog.cards_by_code.get(code.casefold())
        if found is None:
            problem(
                "card",
                _("%(game)s has no card with the code “%(code)s”.")
                % {"game": catalog.game.name, "code": code}
                + did_you_mean(code, [c.code for c in catalog.cards_by_code.values()]),
            )
        return found
    name = cell("name") or cell("name_ja")
    if not name:
        problem("name", _("Give the card's name."))
        return None
    cards = catalog.cards_by_name.get(_name(name), [])
    if not cards:
        problem(
            "name",
            _("%(game)s has no card named “%(name)s”.") % {"game": catalog.game.name, "name": name}
            + did_you_mean(name, catalog.card_names),
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


def _set(catalog: _Catalog, cell: Any, problem: Any) -> CardSet | None:
    given = cell("set") or cell("set_name")
    if not given:
        problem("set", _("Give the set's code or name."))
        return None
    found = catalog.sets_by_code.get(given.casefold()) or catalog.sets_by_name.get(_name(given))
    if found is None and cell("set_name"):
        found = catalog.sets_by_name.get(_name(cell("set_name")))
    if found is None:
        problem(
            "set",
            _("%(game)s has no set “%(set)s”.") % {"game": catalog.game.name, "set": given}
            + did_you_mean(given, catalog.set_words),
        )
    return found


def _only_set(catalog: _Catalog, card: Card, problem: Any) -> CardSet | None:
    printings = [p for (c, _s), found in catalog.printings.items() if c == card.pk for p in found]
    plain = [p for p in printings if not p.variant] or printings
    by_id = {s.pk: s for s in catalog.sets_by_code.values()}
    if not printings:
        problem("set", _("The catalog lists no printing of %(card)s.") % {"card": card.name})
        return None
    if len(plain) == 1:
        return by_id[plain[0].card_set_id]
    sets = sorted({by_id[p.card_set_id].code for p in printings})
    problem(
        "set",
        _("%(card)s has several printings: name the set in parentheses (%(sets)s).")
        % {"card": card.name, "sets": ", ".join(sets)},
    )
    return None


def _printing(
    catalog: _Catalog, card: Card, card_set: CardSet, number: str, variant: str, problem: Any
) -> Printing | None:
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


def _count(text: str, name: str, problem: Any, *, low: int) -> int | None:
    value = _number(text)
    if not value.isdigit():
        problem(name, _("Write a whole number of copies, not “%(value)s”.") % {"value": text})
        return None
    count = int(value)
    if not low <= count <= MAX_QUANTITY:
        problem(name, _("Give %(low)d to %(high)d copies.") % {"low": low, "high": MAX_QUANTITY})
        return None
    return count


def _condition(dialect: Dialect, text: str, problem: Any) -> str | None:
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


def _finish(slug: str, text: str, problem: Any) -> str | None:
    word = key(text)
    declared = finishes_for(slug)
    codes = [c for c, _l in declared]
    if word in NORMAL_WORDS:
        return NORMAL
    if word in FOIL_WORDS and "foil" in codes:
        return "foil"
    for code, label in declared:
        if word in (key(code), key(str(label))):
            return code
    problem(
        "finish",
        _("“%(value)s” is not a finish of this game; its finishes are %(known)s.")
        % {"value": text, "known": ", ".join(codes)}
        + did_you_mean(text, codes),
    )
    return None


def _language(slug: str, text: str, problem: Any) -> str | None:
    if not text:
        return None
    word = key(text)
    for code, (english, japanese, _label) in LANGUAGE_NAMES.items():
        if word in (code, key(english), key(japanese)):
            return code
    problem(
        "language",
        _("“%(value)s” is not a language we know.") % {"value": text}
        + did_you_mean(text, [n[0] for n in LANGUAGE_NAMES.values()]),
    )
    return None


def _date(text: str, problem: Any) -> date | None:
    value = _number(text).replace("/", "-")
    if not value:
        return None
    try:
        return date.fromisoformat(value[:10])
    except ValueError:
        problem(
            "acquired_on", _("Write the date as YYYY-MM-DD, not “%(value)s”.") % {"value": text}
        )
        return None


def _price(text: str, problem: Any) -> Decimal | None:
    value = _number(text).lstrip("¥$€£").replace(",", "")
    if not value:
        return None
    try:
        return Decimal(value)
    except InvalidOperation:
        problem(
            "price",
            _("Write the price as a number, e.g. 1200 or 3.50, not “%(value)s”.") % {"value": text},
        )
        return None
