"""A field's values as a player may type them: the code (``goton``), or the label the pages
show, in English or in Japanese (``五遁``, ``Five Escapes``, ``五遁 (Five Escapes)``).

Every spelling is compared through the project's one name normaliser (``catalog.search.fold``:
width, kana and case folded, punctuation dropped) with the spaces taken out as well, so
``great-sword``, ``Great sword``, ``大剣`` and ``ﾀﾞｲｹﾝ``-style variants meet. A value that names
nothing gets its "did you mean" from codes and labels alike (``fusui`` → ``fusui-bokusen``).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from django.utils import translation
from django.utils.functional import Promise

from catalog.search import fold

if TYPE_CHECKING:
    from catalog.query.fields import SearchField
    from catalog.spec import GameSpec

Choices = Iterable[tuple[str, Promise | str]]
#: the languages whose labels a value may be typed in, whatever the interface's
LANGUAGES = ("en", "ja")
#: a label's gloss in parentheses, either width: "五遁 (Five Escapes)", "赤（善）"
_GLOSS = re.compile(r"^(?P<head>.*?)\s*[(（](?P<inner>[^)）]*)[)）]\s*$")
#: at most this many "did you mean" values
MAX_SUGGESTIONS = 3


def value_key(text: str) -> str:
    """``text`` as values are compared: folded, spaces removed."""
    return "".join(fold(text).split())


def _spellings(label: Promise | str) -> set[str]:
    """The label in each language, and for "head (gloss)" the head and the gloss alone."""
    found: set[str] = set()
    for language in LANGUAGES:
        with translation.override(language):
            text = str(label)
        found.add(text)
        parts = _GLOSS.match(text)
        if parts:
            found.update((parts["head"], parts["inner"]))
    return {value_key(s) for s in found if value_key(s)}


class ValueTable:
    """Every way to type one field's values, each leading to the codes it names."""

    def __init__(self, choices: Choices) -> None:
        pairs = list(choices)
        self.codes: tuple[str, ...] = tuple(dict.fromkeys(code for code, _label in pairs))
        aliases: dict[str, list[str]] = {}
        for code, label in pairs:
            for key in {value_key(code), *_spellings(label)}:
                names = aliases.setdefault(key, [])
                if code not in names:
                    names.append(code)
        self.aliases = {key: tuple(codes) for key, codes in aliases.items()}

    def resolve(self, value: str) -> tuple[str, ...]:
        """The codes ``value`` names (usually one; a label two games share may name two);
        empty when it names none."""
        exact = value.casefold()
        if exact in self.codes:
            return (exact,)
        return self.aliases.get(value_key(value), ())

    def suggestions(self, value: str) -> list[str]:
        """The codes a value that names nothing probably meant, best first."""
        key = value_key(value)
        found: list[str] = []
        # close to a code as typed (a typo: great-swrd), then the start or a part of a code
        # or label (fusui, 五), then close to a label in either language
        found += difflib.get_close_matches(value.casefold(), self.codes, n=3, cutoff=0.6)
        if key:
            for alias, codes in self.aliases.items():
                if alias.startswith(key) or (len(key) > 1 and key in alias):
                    found += codes
        for alias in difflib.get_close_matches(key, list(self.aliases), n=3, cutoff=0.6):
            found += self.aliases[alias]
        return list(dict.fromkeys(found))[:MAX_SUGGESTIONS]


#: tables by the identity of what they were built from (kept alive beside them, so an id is
#: never reused while its entry stands): labels and translations do not change while the
#: process runs, and a game registered later (a test's toy game) gets tables of its own
_TABLES: dict[tuple[int, ...], tuple[tuple[object, ...], ValueTable]] = {}


def _cached(sources: tuple[object, ...], build: Callable[[], ValueTable]) -> ValueTable:
    key = tuple(id(source) for source in sources)
    hit = _TABLES.get(key)
    if hit is not None and all(a is b for a, b in zip(hit[0], sources, strict=True)):
        return hit[1]
    table = build()
    _TABLES[key] = (sources, table)
    return table


def field_table(field: SearchField) -> ValueTable:
    """The values of a game's ``choice``/``list`` field (codes, or ``paired`` values)."""
    if field.paired:
        return _cached((field,), lambda: ValueTable((c, c) for c in field.paired))
    return _cached((field,), lambda: ValueTable(field.choices))


def type_table(specs: Sequence[GameSpec]) -> ValueTable:
    """The card types of these games (one game, or every game for a search across games)."""
    sources = tuple(spec.card_types for spec in specs)
    return _cached(
        sources, lambda: ValueTable((t.code, t.label) for types in sources for t in types)
    )


def bool_table() -> ValueTable:
    return _cached((BOOL_CHOICES,), lambda: ValueTable(BOOL_CHOICES))


def _bool_choices() -> tuple[tuple[str, Promise | str], ...]:
    from django.utils.translation import gettext_lazy as _

    # Django's own catalogs translate these (はい, いいえ)
    return (("yes", _("yes")), ("no", _("no")))


BOOL_CHOICES = _bool_choices()
