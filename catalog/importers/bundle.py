"""What every catalog format parses into: plain rows that remember where they came from.

Parsers (DeckLab JSON, the games' own formats, CSV) only read; ``validate`` checks the
whole bundle against the game's schemas and the database and collects every problem; ``write``
applies a clean bundle in one transaction. So all formats share one set of rules and errors.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ImportProblem:
    """One bad line or path of an input file and the reason."""

    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


class CatalogImportError(Exception):
    """The import was refused; nothing was written. ``problems`` lists every reason."""

    def __init__(self, problems: list[ImportProblem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


@dataclass
class SetRow:
    where: str
    code: str
    name_en: str = ""
    name_ja: str = ""
    kind: str = "expansion"
    release_date: dt.date | None = None
    release_precision: str = "day"
    official_size: int | None = None
    source: str = ""
    is_demo: bool = False


@dataclass
class PrintingRow:
    where: str
    set_code: str
    collector_number: str = ""
    variant: str = ""
    attributes: dict[str, Any] = field(default_factory=dict)


@dataclass
class CardRow:
    where: str
    code: str
    card_type: str
    name_en: str = ""
    name_ja: str = ""
    attributes: dict[str, Any] = field(default_factory=dict)
    copy_limit: int | None = None
    source: str = ""
    is_demo: bool = False
    printings: list[PrintingRow] = field(default_factory=list)


@dataclass
class ProductItemRow:
    """A product's line: a card and, where the card has several printings, which one."""

    where: str
    card_code: str
    quantity: int
    zone: str = "main"
    set_code: str | None = None
    collector_number: str | None = None
    variant: str | None = None


@dataclass
class ProductRow:
    where: str
    code: str
    kind: str
    name_en: str = ""
    name_ja: str = ""
    set_code: str | None = None
    release_date: dt.date | None = None
    card_count: int | None = None
    price_yen: int | None = None
    source: str = ""
    is_demo: bool = False
    items: list[ProductItemRow] = field(default_factory=list)


@dataclass
class CatalogBundle:
    """One game's worth of catalog rows from one input, plus what the parser could not read."""

    game: str
    origin: str
    sets: list[SetRow] = field(default_factory=list)
    cards: list[CardRow] = field(default_factory=list)
    products: list[ProductRow] = field(default_factory=list)
    problems: list[ImportProblem] = field(default_factory=list)

    def problem(self, where: str, message: str) -> None:
        self.problems.append(ImportProblem(where, message))


def parse_release(value: Any) -> tuple[dt.date, str]:
    """'2007', '2007-04' or '2007-04-01' -> (date, precision). Raises ValueError."""
    text = str(value).strip()
    parts = text.split("-")
    if len(parts) == 1 and len(text) == 4:
        return dt.date(int(text), 1, 1), "year"
    if len(parts) == 2:
        return dt.date(int(parts[0]), int(parts[1]), 1), "month"
    return dt.date.fromisoformat(text), "day"


def release_text(date: dt.date | None, precision: str) -> str | None:
    if date is None:
        return None
    if precision == "year":
        return f"{date:%Y}"
    if precision == "month":
        return f"{date:%Y-%m}"
    return date.isoformat()
