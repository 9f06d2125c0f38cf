"""What a game declares to the decks app (zones, rules variants, extras and its rules, in its
``deck.py``), and ``deck_rules(slug)``, the way in through the games registry."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from django.utils.functional import Promise

from catalog.spec import get_game
from decks.legality.facts import DeckFacts
from decks.legality.problems import Cite, Problem
from decks.legality.rules import common_problems
from games import registry


@dataclass(frozen=True)
class Zone:
    code: str
    label: Promise | str
    card_types: tuple[str, ...]
    #: the digest line saying which cards belong here
    cite: Cite | None = None
    #: whether the zone is the deck proper (shuffled, counted in statistics and odds)
    is_deck: bool = False
    #: other names players write for the zone in a text list, in either language (the code
    #: and the label in both languages are read already)
    aliases: tuple[str, ...] = ()


class Rule(Protocol):
    def check(self, deck: DeckFacts, rules: DeckRules) -> list[Problem]: ...


@dataclass(frozen=True)
class Stat:
    """A statistic the deck page charts: copies per value of an attribute.

    ``key`` "card_type" counts types; otherwise an attribute of the card (or, with
    ``on="printing"``, of the entry's printing); list values count once per member;
    ``split_by`` makes one series per value of another key (values by character, say).
    """

    key: str
    label: Promise | str
    on: str = "card"
    split_by: str | None = None
    numeric: bool = False


@dataclass(frozen=True)
class Variant:
    code: str
    label: Promise | str


@dataclass(frozen=True)
class DeckRules:
    game: str
    zones: tuple[Zone, ...]
    rules: tuple[Rule, ...]
    #: the digest line of the construction section, cited by the rules every game shares
    construction: Cite
    variants: tuple[Variant, ...] = ()
    #: extra checks written in Python for what data cannot say
    checks: tuple[Callable[[DeckFacts, DeckRules], list[Problem]], ...] = ()
    #: what the deck page charts, beyond card types (which every game gets)
    stats: tuple[Stat, ...] = ()
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def default_variant(self) -> str:
        return self.variants[0].code if self.variants else ""

    @property
    def deck_zones(self) -> tuple[Zone, ...]:
        return tuple(z for z in self.zones if z.is_deck)

    def zone(self, code: str) -> Zone | None:
        return next((z for z in self.zones if z.code == code), None)

    def zone_label(self, code: str) -> str:
        found = self.zone(code)
        return str(found.label) if found else code

    def zone_name(self, code: str) -> Promise | str:
        """The zone's label left lazy, so a message rendered later in another language (the
        API gives both) names the zone in that language."""
        found = self.zone(code)
        return found.label if found else code

    def home_zone(self, card_type: str) -> Zone | None:
        """The first zone that takes a card type: where a misplaced card should go."""
        return next((z for z in self.zones if card_type in z.card_types), None)

    def type_label(self, card_type: str) -> str:
        return get_game(self.game).card_type_label(card_type)

    def variant_label(self, code: str) -> str:
        return str(next((v.label for v in self.variants if v.code == code), code))

    def check(self, deck: DeckFacts) -> list[Problem]:
        """Every problem of the deck under these rules: errors, warnings and information."""
        problems = common_problems(deck, self, self.construction)
        for rule in self.rules:
            problems.extend(rule.check(deck, self))
        for extra in self.checks:
            problems.extend(extra(deck, self))
        return problems


def deck_rules(slug: str) -> DeckRules:
    """The deck rules (``deck.py``'s ``RULES``) of a registered game; LookupError otherwise."""
    rules = registry.get(slug).deck_rules
    if not isinstance(rules, DeckRules):
        raise LookupError(f"No deck rules for the game {slug!r}")
    return rules


def has_deck_rules(slug: str) -> bool:
    return registry.is_game(slug) and registry.get(slug).has_deck_rules
