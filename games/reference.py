"""Each game's rules reference, in our own words and both languages: ``reference.json`` in the
game's package. Its sections are the game's own (a key for the page anchor and a heading in
both languages), each holding rules with an anchor and the lines of the rule digest they
explain. The pages show it (``games/views.py``); a legality problem, an odds note or a
simulation assumption that cites ``<digest>:<line>`` links to the rule covering that line.

Pure Python apart from the URL, which shared code builds with ``rule_url``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache

from games import registry

#: a digest citation as the checker and the engines write it: "unmatched.md:18", "recharge.md:9-26"
CITATION = re.compile(r"(?:shared/rules/)?(?P<digest>[a-z0-9-]+\.md)(?::(?P<line>\d+)(?:-\d+)?)?")


@dataclass(frozen=True)
class Rule:
    anchor: str
    first: int
    last: int
    title_en: str
    title_ja: str
    text_en: str
    text_ja: str

    def title(self, language: str) -> str:
        return self.title_ja if language.startswith("ja") and self.title_ja else self.title_en

    def text(self, language: str) -> str:
        return self.text_ja if language.startswith("ja") and self.text_ja else self.text_en


@dataclass(frozen=True)
class Section:
    """A section of the page: its key (the page anchor) and its heading, both the game's own,
    so a new game's sections appear without any shared list of them."""

    key: str
    title_en: str
    title_ja: str
    rules: tuple[Rule, ...]

    def title(self, language: str) -> str:
        return self.title_ja if language.startswith("ja") and self.title_ja else self.title_en


@lru_cache(maxsize=32)
def reference(slug: str) -> tuple[Section, ...]:
    """The game's rules reference; empty when the game has none."""
    if not registry.is_game(slug):
        return ()
    path = registry.get(slug).reference_file
    if not path.is_file():
        return ()
    raw = json.loads(path.read_text(encoding="utf-8"))
    return tuple(
        Section(
            key=section["key"],
            title_en=section["en"]["title"],
            title_ja=section["ja"]["title"],
            rules=tuple(
                Rule(
                    anchor=rule["anchor"],
                    first=rule["lines"][0],
                    last=rule["lines"][-1],
                    title_en=rule["en"]["title"],
                    title_ja=rule["ja"]["title"],
                    text_en=rule["en"]["text"],
                    text_ja=rule["ja"]["text"],
                )
                for rule in section["rules"]
            ),
        )
        for section in raw["sections"]
    )


def rule_for(slug: str, line: int | None) -> Rule | None:
    """The rule explaining digest line ``line`` of the game (the first that covers it)."""
    if line is None:
        return None
    return next((r for s in reference(slug) for r in s.rules if r.first <= line <= r.last), None)


def game_of_digest(digest: str) -> str | None:
    """The slug of the game whose rules digest is ``digest`` ("unmatched.md")."""
    return next((g.slug for g in registry.all_games() if g.digest == digest), None)


def anchor_of(digest: str, line: int | None) -> tuple[str, str] | None:
    """(game slug, anchor) of the rule a citation points at; the page top (anchor "") when
    the game has a reference but no rule covers the line; None for an unknown digest."""
    slug = game_of_digest(digest)
    if slug is None or not reference(slug):
        return None
    rule = rule_for(slug, line)
    return slug, rule.anchor if rule else ""
