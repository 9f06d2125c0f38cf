"""The names sheet: a set's cards with their names, to add each name in the other language.

Three or four columns (code, number, name_en, name_ja; ``number`` only helps a person find
the card). The result's bundle holds the cards it names exactly as they are but for their
names, because an import rewrites a card's own fields; it goes through the importer's one
validator like any other payload.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

from django.utils.translation import gettext_lazy

from catalog.importers.bundle import CardRow, CatalogBundle
from catalog.importers.csv_cards import EMPTY_FILE, TOO_MANY_ROWS
from catalog.importers.validate import validate_bundle
from catalog.models import Card, CardSet
from catalog.search import name_key
from catalog.spec import GameSpec, get_game
from contributions.sheet_reading import (
    BOM,
    CELLS_MISFIT,
    NAME_FIELDS,
    SHEET_NOT_READY,
    SHEET_READY,
    UNREADABLE,
    Cells,
    ProblemPlacer,
    Row,
    SheetProblem,
    by_place,
    close_to,
    control_problems,
    header_in_codes,
    line_of,
    read_cells,
    too_large,
)

# --- user-facing messages ---
#: the catalog CSV reader's own wording (csv_cards)
MISSING_COLUMN = gettext_lazy("missing column '%(name)s'")
MISSING_CELL = gettext_lazy("missing %(column)s")
NAMES_NEEDS_NAME = gettext_lazy("the header needs a 'name_en' or a 'name_ja' column")
NAMES_UNKNOWN_COLUMN = gettext_lazy(
    "unknown column '%(name)s': a names sheet has code, number, name_en and name_ja"
)
NAMES_UNKNOWN_CARD = gettext_lazy("no %(game)s card has the code '%(code)s'")
NAMES_CODE_TWICE = gettext_lazy("card '%(code)s' is also on line %(line)d")
NAMES_TAKEN = gettext_lazy(
    "'%(name)s' is already the name of card '%(code)s': two cards cannot share a name"
)
NAMES_NOTHING = gettext_lazy("no name to add or change: fill the empty name cells")
NAMES_UNKNOWN_SET = gettext_lazy("%(game)s has no set '%(code)s'")

#: columns of a names sheet; ``number`` only helps a person find the card and is not read
NAMES_COLUMNS = ("code", "number", *NAME_FIELDS)


@dataclass(frozen=True)
class NameChange:
    code: str
    field: str
    before: str
    after: str


@dataclass
class NamesSheetResult:
    """A checked names sheet: the names it sets, and a bundle touching only names."""

    bundle: CatalogBundle | None
    changes: list[NameChange] = field(default_factory=list)
    problems: list[SheetProblem] = field(default_factory=list)

    @property
    def is_clean(self) -> bool:
        return self.bundle is not None and not self.problems

    @property
    def status(self) -> str:
        return str(SHEET_READY if self.is_clean else SHEET_NOT_READY)


# --- the names sheet ------------------------------------------------------------------------
def names_sheet_template(game_slug: str, set_code: str) -> str:
    """Every card printed in the set with its names, to fill in the missing language.
    LookupError when the game has no such set."""
    spec = get_game(game_slug)
    card_set = CardSet.objects.filter(game__slug=spec.slug, code=set_code).first()
    if card_set is None:
        raise LookupError(str(NAMES_UNKNOWN_SET) % {"game": spec.slug, "code": set_code})
    out = io.StringIO()
    out.write(BOM)
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(NAMES_COLUMNS)
    seen: set[str] = set()
    rows = (
        card_set.printings.order_by("collector_number", "card__code")
        .values_list("card__code", "collector_number", "card__name_en", "card__name_ja")
        .iterator()
    )
    for code, number, en, ja in rows:
        if code not in seen:
            seen.add(code)
            writer.writerow([code, number, en, ja])
    return out.getvalue()


@dataclass
class _NamesCheck:
    spec: GameSpec
    origin: str
    problems: list[SheetProblem] = field(default_factory=list)

    def add(self, line: int, column: str, reason: str, meant: tuple[str, ...] = ()) -> None:
        self.problems.append(SheetProblem(line, column, reason, meant))

    def header_ok(self, header: list[str]) -> bool:
        ok = True
        if "code" not in header:
            self.add(
                1, "code", str(MISSING_COLUMN) % {"name": "code"}, close_to("code", header, n=1)
            )
            ok = False
        if not any(name in header for name in NAME_FIELDS):
            self.add(1, "", str(NAMES_NEEDS_NAME))
            ok = False
        for name in header:
            if name not in NAMES_COLUMNS:
                self.add(
                    1,
                    name,
                    str(NAMES_UNKNOWN_COLUMN) % {"name": name},
                    close_to(name, NAMES_COLUMNS),
                )
                ok = False
        return ok

    def read_problems(self, read: Cells) -> None:
        for line, found in read.misfits:
            params = {"found": found, "expected": len(read.header)}
            self.add(line, "", str(CELLS_MISFIT) % params)
        if read.error is not None:
            self.add(read.error[0], "", str(UNREADABLE) % {"error": read.error[1]})
        if read.cut_at:
            self.add(read.cut_at, "", str(TOO_MANY_ROWS))

    def changes(self, rows: list[Row]) -> tuple[list[NameChange], dict[str, int]]:
        """The names the rows set, and the line of each card they change."""
        cards = {
            code: (en, ja)
            for code, en, ja in Card.objects.filter(game__slug=self.spec.slug).values_list(
                "code", "name_en", "name_ja"
            )
        }
        # a name key -> the card holding it, per language, for the cards and the sheet
        holders = {
            language: {name_key(names[i]): code for code, names in cards.items() if names[i]}
            for i, language in enumerate(NAME_FIELDS)
        }
        first_line: dict[str, int] = {}
        changes: list[NameChange] = []
        lines: dict[str, int] = {}
        for row in rows:
            code = row.cells.get("code", "")
            if not code:
                self.add(row.line, "code", str(MISSING_CELL) % {"column": "code"})
                continue
            if code not in cards:
                params = {"game": self.spec.slug, "code": code}
                self.add(row.line, "code", str(NAMES_UNKNOWN_CARD) % params, close_to(code, cards))
                continue
            if code in first_line:
                self.add(
                    row.line,
                    "code",
                    str(NAMES_CODE_TWICE) % {"code": code, "line": first_line[code]},
                )
                continue
            first_line[code] = row.line
            for i, language in enumerate(NAME_FIELDS):
                after, before = row.cells.get(language, ""), cards[code][i]
                if not after or after == before:
                    continue  # an empty cell never clears a name
                holder = holders[language].get(name_key(after))
                if holder is not None and holder != code:
                    params = {"name": after, "code": holder}
                    self.add(row.line, language, str(NAMES_TAKEN) % params)
                    continue
                holders[language][name_key(after)] = code
                changes.append(NameChange(code, language, before, after))
                lines[code] = row.line
        return changes, lines

    def bundle(self, changes: list[NameChange], lines: dict[str, int]) -> CatalogBundle:
        """The changed cards as they are, but for their names: an import rewrites a card's
        own fields, so every one of them is carried over unchanged."""
        bundle = CatalogBundle(game=self.spec.slug, origin=self.origin)
        rows = Card.objects.filter(game__slug=self.spec.slug, code__in=sorted(lines)).values_list(
            "code",
            "card_type",
            "name_en",
            "name_ja",
            "attributes",
            "copy_limit",
            "source",
            "is_demo",
        )
        new = {(c.code, c.field): c.after for c in changes}
        for code, card_type, en, ja, attributes, copy_limit, source, is_demo in rows:
            bundle.cards.append(
                CardRow(
                    where=f"{self.origin}:{lines[code]}",
                    code=code,
                    card_type=card_type,
                    name_en=new.get((code, "name_en"), en),
                    name_ja=new.get((code, "name_ja"), ja),
                    attributes=dict(attributes or {}),
                    copy_limit=copy_limit,
                    source=source,
                    is_demo=is_demo,
                )
            )
        bundle.cards.sort(key=lambda card: line_of(card.where))
        return bundle


def names_sheet_check(text: str, *, game_slug: str, origin: str = "names") -> NamesSheetResult:
    """Check a names sheet (code, name_en, name_ja): the result's bundle holds the cards it
    names with only their names changed. Never raises on any text; LookupError for a game
    that is not registered."""
    spec = get_game(game_slug)
    large = too_large(text)
    if large is not None:
        return NamesSheetResult(None, [], [large])
    check = _NamesCheck(spec, origin)
    # columns titled by their labels ("日本語名") read as their codes ("name_ja")
    read = read_cells(header_in_codes(text, spec.slug, NAMES_COLUMNS).text)
    check.problems += control_problems(read)
    if not read.header:
        check.add(1, "", str(EMPTY_FILE))
    elif check.header_ok(read.header):
        check.read_problems(read)
        bad_lines = {p.line for p in check.problems}
        changes, lines = check.changes([row for row in read.rows if row.line not in bad_lines])
        bundle = check.bundle(changes, lines)
        placer = ProblemPlacer(spec, read.rows)
        check.problems += [placer.place(problem) for problem in validate_bundle(bundle)]
        if not changes and not check.problems:
            check.add(0, "", str(NAMES_NOTHING))
        if not check.problems:
            return NamesSheetResult(bundle, changes, [])
        return NamesSheetResult(None, changes, sorted(check.problems, key=by_place))
    return NamesSheetResult(None, [], sorted(check.problems, key=by_place))
