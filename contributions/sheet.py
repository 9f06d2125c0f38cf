"""Spreadsheets a contributor fills in: a game's card sheet, and a set's names sheet.

The card sheet IS the catalog's CSV card list (``catalog.importers.csv_cards``): it is read by
``parse_csv`` and checked by ``validate_bundle``, the importer's one validator, so a sheet that
checks clean here imports clean. This module only adds what a person at a spreadsheet needs
beyond the importer's ``file:LINE: message``: the column of each problem, the values it may
have meant, and the checks an import has no reason to make (a name that is already in the set,
a code that is already a card, a character PostgreSQL cannot store).

Templates are written as UTF-8 with a byte order mark and CRLF line ends: without the mark a
Japanese Excel opens a CSV as Shift_JIS and garbles every Japanese name; the reader strips it.
Their header is the column codes, in every language; a header that titles the columns by the
labels the site shows instead ("攻撃力" for ``attack``) reads the same (``header_in_codes``).

Reading cells and placing problems is ``contributions.sheet_reading``; the names sheet is
``contributions.names_sheet``, re-exported here with the card sheet.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy

from catalog.attributes import (
    AttributeSchema,
    ChoiceListField,
    StrictBooleanField,
    StringListField,
)
from catalog.importers.bundle import CardRow, CatalogBundle
from catalog.importers.csv_cards import LIST_SEPARATOR, PRINTING_PREFIX, parse_csv
from catalog.importers.validate import CODE_RE, validate_bundle
from catalog.models import Card, CardSet
from catalog.search import name_key
from catalog.spec import GameSpec, get_game, is_game
from contributions.names_sheet import (
    NameChange,
    NamesSheetResult,
    names_sheet_check,
    names_sheet_template,
)
from contributions.sheet_reading import (
    BOM,
    NAME_FIELDS,
    SHEET_NOT_READY,
    SHEET_READY,
    Header,
    ProblemPlacer,
    SheetProblem,
    by_place,
    card_columns,
    control_problems,
    header_in_codes,
    importer_columns,
    line_of,
    printing_columns,
    read_cells,
    too_large,
)

__all__ = [
    "NameChange",
    "NamesSheetResult",
    "SheetProblem",
    "SheetResult",
    "names_sheet_check",
    "names_sheet_template",
    "sheet_check",
    "sheet_columns",
    "sheet_template",
]

# --- user-facing messages (lazy: rendered in the language active when a problem is made) ---
CODE_EXISTS = gettext_lazy(
    "card '%(code)s' is already in the catalog (%(name)s): a sheet adds new cards; "
    "propose a correction to change an existing one"
)
NAME_REPEATED = gettext_lazy(
    "the name '%(name)s' is also on line %(line)d (card '%(code)s'): is it the same card?"
)
NAME_CLOSE = gettext_lazy(
    "the name '%(name)s' is very close to '%(other)s' on line %(line)d (card '%(code)s'): "
    "is it the same card?"
)
NAME_IN_SET = gettext_lazy(
    "set '%(set)s' already has a card named '%(other)s' (card '%(code)s'): is it the same card?"
)
NAME_CLOSE_IN_SET = gettext_lazy(
    "the name '%(name)s' is very close to '%(other)s', already a card of set '%(set)s' "
    "(card '%(code)s'): is it the same card?"
)
#: the example text of a text attribute in a template
EXAMPLE_TEXT = gettext_lazy("example")

#: two names are "very close" one typo apart, when at least this long (shorter names differ
#: meaningfully by one letter)
CLOSE_MIN_LENGTH = 6

_ROMAN = re.compile(r"[ivxlc]+")


@dataclass
class SheetResult:
    """A checked sheet: ``bundle`` only when there is no problem at all."""

    bundle: CatalogBundle | None
    problems: list[SheetProblem] = field(default_factory=list)

    @property
    def is_clean(self) -> bool:
        return self.bundle is not None and not self.problems

    @property
    def status(self) -> str:
        return str(SHEET_READY if self.is_clean else SHEET_NOT_READY)


# --- the card sheet -------------------------------------------------------------------------
def sheet_columns(spec: GameSpec) -> list[str]:
    fixed = ["code", "type", "name_en", "name_ja", "set", "number"]
    if spec.variants:
        fixed.append("variant")
    return [*fixed, *card_columns(spec), *printing_columns(spec)]


def _choice_codes(field_: forms.Field) -> list[str]:
    choices: Any = getattr(field_, "choices", ()) or ()
    return [str(code) for code, _label in choices if code]


def _example_value(field_: forms.Field) -> str:
    if isinstance(field_, forms.IntegerField):
        low: Any = field_.min_value
        high: Any = field_.max_value
        value = max(1, int(low or 0))
        return str(value if high is None else min(value, int(high)))
    if isinstance(field_, ChoiceListField | forms.MultipleChoiceField):
        wanted = max(1, getattr(field_, "min_items", 0))
        return LIST_SEPARATOR.join(_choice_codes(field_)[:wanted])
    if isinstance(field_, forms.ChoiceField):
        return next(iter(_choice_codes(field_)), "")
    if isinstance(field_, StringListField):
        return str(EXAMPLE_TEXT)[: field_.max_length]
    if isinstance(field_, forms.CharField):
        return str(EXAMPLE_TEXT)[: field_.max_length or None]
    if isinstance(field_, StrictBooleanField | forms.BooleanField | forms.NullBooleanField):
        return "false"
    return ""


def _example_cells(schema: type[AttributeSchema]) -> dict[str, str]:
    """A valid value for every attribute; only the required ones when all of them together
    break a rule between fields."""
    every = {key: _example_value(f) for key, f in schema.base_fields.items()}
    form = schema(data={k: _as_input(schema.base_fields[k], v) for k, v in every.items()})
    if form.is_valid():
        return every
    return {key: value for key, value in every.items() if schema.base_fields[key].required}


def _as_input(field_: forms.Field, value: str) -> Any:
    if isinstance(field_, ChoiceListField | StringListField | forms.MultipleChoiceField):
        return [part for part in value.split(LIST_SEPARATOR) if part]
    return value


def sheet_template(game_slug: str, *, set_code: str = "") -> str:
    """The game's card sheet: every column its declaration gives and one example row per card
    type (printed in ``set_code`` when given), as UTF-8 with a BOM and CRLF line ends."""
    spec = get_game(game_slug)
    columns = sheet_columns(spec)
    out = io.StringIO()
    out.write(BOM)
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(columns)
    for index, card_type in enumerate(spec.card_types, start=1):
        row = {
            "code": f"example-{card_type.code}",
            "type": card_type.code,
            # each column's own language, whatever the reader's
            "name_en": f"Example {card_type.code} card",
            "name_ja": f"記入例 {card_type.code}",
            **_example_cells(card_type.schema),
        }
        if set_code:
            row["set"] = set_code
            row["number"] = f"EX-{index:03d}"
            printing = _example_cells(spec.printing_schema_for(card_type.code))
            row.update({PRINTING_PREFIX + key: value for key, value in printing.items()})
        writer.writerow([row.get(column, "") for column in columns])
    return out.getvalue()


def sheet_check(text: str, *, game_slug: str, origin: str = "sheet") -> SheetResult:
    """Check a card sheet with the importer's parser and validator, and for names already in
    the sheet or the set. Never raises on any text; ``bundle`` only when clean."""
    large = too_large(text)
    if large is not None:
        return SheetResult(None, [large])
    spec = get_game(game_slug) if is_game(game_slug) else None
    header = Header(text)
    if spec is not None:
        # columns titled by their labels ("攻撃力") read as their codes ("attack")
        header = header_in_codes(text, spec.slug, importer_columns(spec))
        text = header.text
    read = read_cells(text)
    bundle = parse_csv(text, origin, game_slug)
    placer = ProblemPlacer(spec, read.rows)
    placer.know_bundle(bundle)
    if spec is not None:
        placer.set_codes = set(
            CardSet.objects.filter(game__slug=spec.slug).values_list("code", flat=True)
        )
    found = [placer.place(problem) for problem in validate_bundle(bundle)]
    found += control_problems(read)
    if spec is not None and bundle.game:
        found += _existing_codes(bundle, spec)
        found += _name_collisions(bundle, spec, placer.set_codes)
    found = sorted((header.titled(problem) for problem in found), key=by_place)
    return SheetResult(None if found else bundle, found)


def _existing_codes(bundle: CatalogBundle, spec: GameSpec) -> list[SheetProblem]:
    # only codes the validator accepts reach the database (no NUL in a query)
    by_code = {card.code: card for card in bundle.cards if CODE_RE.match(card.code)}
    taken = Card.objects.filter(game__slug=spec.slug, code__in=list(by_code)).values_list(
        "code", "name_en", "name_ja"
    )
    return [
        SheetProblem(
            line_of(by_code[code].where),
            "code",
            str(CODE_EXISTS) % {"code": code, "name": en or ja},
        )
        for code, en, ja in taken
    ]


def _number_marks(key: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """What tells "Sword II" from "Sword III": its numbers and roman numerals."""
    tokens = key.split()
    return tuple(re.findall(r"\d+", key)), tuple(t for t in tokens if _ROMAN.fullmatch(t))


def _one_edit_apart(a: str, b: str) -> bool:
    """One letter added, dropped, changed, or two neighbours swapped: a typo, where two
    edits ("trap" and "trump") are as often two cards."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    a, b = a[head:], b[head:]
    tail = 0
    while tail < min(len(a), len(b)) and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    a, b = a[: len(a) - tail], b[: len(b) - tail]
    return max(len(a), len(b)) == 1 or (len(a) == len(b) == 2 and a == b[::-1])


class _Names:
    """Name keys -> what holds them, answering "the same" and "one typo away" without
    comparing every pair: two keys one edit apart share a key with one letter dropped."""

    def __init__(self) -> None:
        self.holders: dict[str, Any] = {}
        self.by_dropped: dict[str, list[str]] = {}

    @staticmethod
    def dropped(key: str) -> Iterator[str]:
        yield key
        for index in range(len(key)):
            yield key[:index] + key[index + 1 :]

    def add(self, key: str, holder: Any) -> None:
        if key in self.holders:
            return
        self.holders[key] = holder
        if len(key) >= CLOSE_MIN_LENGTH:
            for variant in set(self.dropped(key)):
                self.by_dropped.setdefault(variant, []).append(key)

    def same(self, key: str) -> Any:
        return self.holders.get(key)

    def close(self, key: str) -> Any:
        """What holds a key one typo away from ``key`` (not its numbered sibling)."""
        if len(key) < CLOSE_MIN_LENGTH:
            return None
        marks = _number_marks(key)
        for variant in self.dropped(key):
            for other in self.by_dropped.get(variant, ()):
                if _one_edit_apart(key, other) and _number_marks(other) == marks:
                    return self.holders[other]
        return None


def _name_collisions(
    bundle: CatalogBundle, spec: GameSpec, set_codes: set[str]
) -> list[SheetProblem]:
    found: list[SheetProblem] = []
    set_cards = _set_cards(spec, bundle, set_codes)
    for language in NAME_FIELDS:
        seen = _Names()
        for card in bundle.cards:
            name = getattr(card, language)
            key = name_key(name)
            if not key:
                continue
            twin: CardRow | None = seen.same(key)
            other: CardRow | None = twin or seen.close(key)
            if other is not None:
                params = {
                    "name": name,
                    "other": getattr(other, language),
                    "line": line_of(other.where),
                    "code": other.code,
                }
                message = NAME_REPEATED if twin else NAME_CLOSE
                found.append(SheetProblem(line_of(card.where), language, str(message) % params))
            seen.add(key, card)
            found += _against_set(card, language, key, set_cards)
    return found


#: per (set code, language): the names of the set's cards, holding (card code, name)
_SetNames = dict[tuple[str, str], _Names]


def _set_cards(spec: GameSpec, bundle: CatalogBundle, set_codes: set[str]) -> _SetNames:
    wanted = {p.set_code for card in bundle.cards for p in card.printings} & set_codes
    names: _SetNames = {}
    if not wanted:
        return names
    sheet_codes = {card.code for card in bundle.cards}
    rows = (
        Card.objects.filter(game__slug=spec.slug, printings__card_set__code__in=sorted(wanted))
        .values_list("printings__card_set__code", "code", "name_en", "name_ja")
        .distinct()
    )
    for set_code, code, en, ja in rows.iterator():
        if code in sheet_codes:
            continue  # the sheet's own card (refused as existing) is not its own twin
        for language, name in (("name_en", en), ("name_ja", ja)):
            if name:
                names.setdefault((set_code, language), _Names()).add(name_key(name), (code, name))
    return names


def _against_set(
    card: CardRow, language: str, key: str, set_cards: _SetNames
) -> list[SheetProblem]:
    found = []
    for set_code in dict.fromkeys(p.set_code for p in card.printings):
        known = set_cards.get((set_code, language))
        if known is None:
            continue
        same = known.same(key)
        held: tuple[str, str] | None = same or known.close(key)
        if held is None:
            continue
        code, other = held
        message = NAME_IN_SET if same else NAME_CLOSE_IN_SET
        params = {"set": set_code, "name": getattr(card, language), "other": other, "code": code}
        found.append(SheetProblem(line_of(card.where), language, str(message) % params))
    return found
