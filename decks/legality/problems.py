"""A legality problem: a structured record the UI and the API can explain and fix.

Messages are lazy templates with parameters, rendered per language on demand, so one check
serves Japanese and English and the check itself stays fast.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from django.utils import translation

from decks.legality.facts import CardFacts

LANGUAGES = ("en", "ja")


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True)
class Cite:
    """A line of a rule digest in shared/rules/ that a rule applies."""

    digest: str
    line: int

    def __str__(self) -> str:
        return f"{self.digest}:{self.line}"


@dataclass(frozen=True)
class Bilingual:
    """A value written in both languages (a catalog note): ``Text`` renders it in each."""

    en: str
    ja: str = ""

    def in_language(self, language: str) -> str:
        if language.startswith("ja"):
            return self.ja or self.en
        return self.en or self.ja


@dataclass(frozen=True)
class Text:
    """A translatable template plus parameters; card names are rendered per language."""

    template: Any  # a lazy gettext string
    params: Mapping[str, Any] = field(default_factory=dict)
    cards: Mapping[str, CardFacts] = field(default_factory=dict)

    def render(self, language: str) -> str:
        with translation.override(language):
            # a value kept in both languages (a data note) is rendered in this one
            values = {
                key: value.in_language(language) if hasattr(value, "in_language") else value
                for key, value in self.params.items()
            }
            values.update({key: card.name(language) for key, card in self.cards.items()})
            # "%" on the template itself: a lazy plural picks its form from the values
            return str(self.template % values) if values else str(self.template)


@dataclass(frozen=True)
class Problem:
    code: str
    severity: Severity
    cite: Cite
    message: Text
    fix: Text | None = None
    cards: tuple[CardFacts, ...] = ()
    zone: str | None = None
    expected: Any = None
    actual: Any = None

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def as_dict(self) -> dict[str, Any]:
        """The record for the API and the pages: both languages, cards by code and name."""
        return {
            "code": self.code,
            "severity": str(self.severity),
            "rule": str(self.cite),
            "zone": self.zone,
            "expected": self.expected,
            "actual": self.actual,
            "message": {lang: self.message.render(lang) for lang in LANGUAGES},
            "fix": {lang: self.fix.render(lang) for lang in LANGUAGES} if self.fix else None,
            "cards": [
                {"code": c.code, "name_en": c.name_en, "name_ja": c.name_ja} for c in self.cards
            ],
        }


Check = Callable[..., list[Problem]]


def is_legal(problems: list[Problem]) -> bool:
    return not any(p.is_error for p in problems)
