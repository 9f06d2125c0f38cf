"""Generic construction rules, configured per game as data (each game's ``deck.py``).

Each rule is a small frozen object with a ``check(deck, rules) -> list[Problem]``; a game's
rule list is read by one checker (``decks.legality.check``). Game-specific rules (a game's
own extras, who may use a card, cards that must differ) live beside their game and use the
same records.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from decks.legality.facts import CardFacts, DeckFacts, EntryFacts
from decks.legality.problems import Bilingual, Cite, Problem, Severity, Text

if TYPE_CHECKING:
    from decks.game_rules import DeckRules

MAX_QUANTITY = 99


def _join_labels(zones: Iterable[Any]) -> str:
    return ", ".join(str(z.label) for z in zones)


def _label_of_type(rules: Any, card_type: str) -> str:
    return str(rules.type_label(card_type))


# a message is rendered in each language later (the API gives both): labels left lazy
_zone_list = lazy(_join_labels, str)
_type_label = lazy(_label_of_type, str)


@dataclass(frozen=True)
class ZoneSize:
    """A zone's card count: exactly, at least or at most (the boundaries 39/40/41)."""

    zone: str
    cite: Cite
    exactly: int | None = None
    minimum: int | None = None
    maximum: int | None = None
    severity: Severity = Severity.ERROR
    code: str = "zone-size"

    def check(self, deck: DeckFacts, rules: DeckRules) -> list[Problem]:
        actual = deck.count(self.zone)
        label = rules.zone_name(self.zone)
        low = self.exactly if self.exactly is not None else self.minimum
        high = self.exactly if self.exactly is not None else self.maximum
        if low is not None and actual < low:
            missing = low - actual
            fix = Text(
                ngettext_lazy(
                    "Add %(n)d card to the %(zone)s.", "Add %(n)d cards to the %(zone)s.", missing
                ),
                {"n": missing, "zone": label},
            )
        elif high is not None and actual > high:
            extra = actual - high
            fix = Text(
                ngettext_lazy(
                    "Remove %(n)d card from the %(zone)s.",
                    "Remove %(n)d cards from the %(zone)s.",
                    extra,
                ),
                {"n": extra, "zone": label},
            )
        else:
            return []
        # plural by the count actually found ("1 card", "0 cards")
        if self.exactly is not None:
            message = ngettext_lazy(
                "The %(zone)s has %(actual)d card; it must have exactly %(expected)d.",
                "The %(zone)s has %(actual)d cards; it must have exactly %(expected)d.",
                "actual",
            )
            expected: object = self.exactly
        elif low is not None and actual < low:
            message = ngettext_lazy(
                "The %(zone)s has %(actual)d card; it needs at least %(expected)d.",
                "The %(zone)s has %(actual)d cards; it needs at least %(expected)d.",
                "actual",
            )
            expected = low
        else:
            message = ngettext_lazy(
                "The %(zone)s has %(actual)d card; it may have at most %(expected)d.",
                "The %(zone)s has %(actual)d cards; it may have at most %(expected)d.",
                "actual",
            )
            expected = high
        return [
            Problem(
                code=self.code,
                severity=self.severity,
                cite=self.cite,
                message=Text(message, {"zone": label, "actual": actual, "expected": expected}),
                fix=fix,
                zone=self.zone,
                expected=expected,
                actual=actual,
            )
        ]


@dataclass(frozen=True)
class StandardSize:
    """A size that is customary, not required: reported as information, or with
    ``below`` as that severity when the deck is smaller; under ``playable`` (what the game's
    opening draws) a deck cannot even start a game, which is an error citing ``playable_cite``."""

    zone: str
    size: int
    cite: Cite
    below: Severity = Severity.INFO
    playable: int = 0
    playable_cite: Cite | None = None

    def check(self, deck: DeckFacts, rules: DeckRules) -> list[Problem]:
        actual = deck.count(self.zone)
        if actual == self.size:
            return []
        if actual < self.playable:
            return [
                Problem(
                    code="too-few-to-play",
                    severity=Severity.ERROR,
                    cite=self.playable_cite or self.cite,
                    message=Text(
                        ngettext_lazy(
                            "The %(zone)s has %(actual)d card; the opening draws "
                            "%(expected)d, so a game cannot start.",
                            "The %(zone)s has %(actual)d cards; the opening draws "
                            "%(expected)d, so a game cannot start.",
                            "actual",
                        ),
                        {
                            "zone": rules.zone_name(self.zone),
                            "actual": actual,
                            "expected": self.playable,
                        },
                    ),
                    fix=Text(
                        ngettext_lazy(
                            "Add %(n)d card to the %(zone)s.",
                            "Add %(n)d cards to the %(zone)s.",
                            "n",
                        ),
                        {"n": self.playable - actual, "zone": rules.zone_name(self.zone)},
                    ),
                    zone=self.zone,
                    expected=self.playable,
                    actual=actual,
                )
            ]
        return [
            Problem(
                code="standard-size",
                severity=self.below if actual < self.size else Severity.INFO,
                cite=self.cite,
                message=Text(
                    ngettext_lazy(
                        "The %(zone)s has %(actual)d card; %(expected)d is the standard size.",
                        "The %(zone)s has %(actual)d cards; %(expected)d is the standard size.",
                        "actual",
                    ),
                    {"zone": rules.zone_name(self.zone), "actual": actual, "expected": self.size},
                ),
                zone=self.zone,
                expected=self.size,
                actual=actual,
            )
        ]


CopyKey = Callable[[EntryFacts, DeckFacts], object]


def by_card(entry: EntryFacts, deck: DeckFacts) -> object:
    return entry.card.code


@dataclass(frozen=True)
class CopyLimit:
    """At most ``limit`` copies of the same card over ``zones`` (a card's own text may allow
    more: ``CardFacts.copy_limit``). ``key`` says what "the same card" means for the game."""

    zones: tuple[str, ...]
    limit: int
    cite: Cite
    key: CopyKey = by_card
    honour_card_override: bool = True
    code: str = "copy-limit"

    def check(self, deck: DeckFacts, rules: DeckRules) -> list[Problem]:
        counts: Counter[object] = Counter()
        cards: dict[object, CardFacts] = {}
        for entry in deck.entries:
            if entry.zone in self.zones:
                key = self.key(entry, deck)
                counts[key] += entry.quantity
                cards.setdefault(key, entry.card)
        problems = []
        for key, actual in counts.items():
            card = cards[key]
            limit = self.limit
            if self.honour_card_override and card.copy_limit is not None:
                limit = card.copy_limit
            if actual > limit:
                problems.append(
                    Problem(
                        code=self.code,
                        severity=Severity.ERROR,
                        cite=self.cite,
                        message=Text(
                            ngettext_lazy(
                                "%(card)s: %(actual)d copies; at most %(expected)d is allowed.",
                                "%(card)s: %(actual)d copies; at most %(expected)d are allowed.",
                                "expected",
                            ),
                            {"actual": actual, "expected": limit},
                            {"card": card},
                        ),
                        fix=Text(
                            _("Remove %(n)d × %(card)s."), {"n": actual - limit}, {"card": card}
                        ),
                        cards=(card,),
                        expected=limit,
                        actual=actual,
                    )
                )
        return problems


@dataclass(frozen=True)
class ExactlyOneOfType:
    """A zone beside the deck that holds exactly one card (the character a deck is built around)."""

    zone: str
    cite: Cite
    severity: Severity = Severity.ERROR
    code: str = "needs-one"
    missing_message: object = None
    missing_fix: object = None

    def check(self, deck: DeckFacts, rules: DeckRules) -> list[Problem]:
        actual = deck.count(self.zone)
        label = rules.zone_name(self.zone)
        if actual == 1:
            return []
        if actual == 0:
            message = self.missing_message or _("The %(zone)s is empty; it needs exactly one card.")
            fix = self.missing_fix or _("Add one card to the %(zone)s.")
        else:
            message = _("The %(zone)s has %(actual)d cards; it must have exactly one.")
            fix = _("Keep one card in the %(zone)s and remove the others.")
        return [
            Problem(
                code=self.code,
                severity=self.severity,
                cite=self.cite,
                message=Text(message, {"zone": label, "actual": actual}),
                fix=Text(fix, {"zone": label}),
                cards=tuple(e.card for e in deck.in_zone(self.zone)),
                zone=self.zone,
                expected=1,
                actual=actual,
            )
        ]


def _withdrawn(card: CardFacts, entry: EntryFacts, cite: Cite) -> Problem:
    """A card the catalog no longer lists: the deck keeps it, and says so (with the catalog's
    note, as written) until the player replaces it."""
    if card.withdrawn_note or card.withdrawn_note_ja:
        message = Text(
            _("%(card)s was withdrawn from the catalog: %(note)s"),
            {"note": Bilingual(card.withdrawn_note, card.withdrawn_note_ja)},
            {"card": card},
        )
    else:
        message = Text(_("%(card)s was withdrawn from the catalog."), {}, {"card": card})
    return Problem(
        code="withdrawn-card",
        severity=Severity.ERROR,
        cite=cite,
        message=message,
        fix=Text(_("Replace %(card)s with a card of the catalog."), {}, {"card": card}),
        cards=(card,),
        zone=entry.zone,
    )


def common_problems(deck: DeckFacts, rules: DeckRules, cite: Cite) -> list[Problem]:
    """Every game: a card of another game, a card withdrawn from the catalog, an unknown
    zone, a card type the zone does not take, a quantity below 1 (or above the bound)."""
    problems: list[Problem] = []
    for entry in deck.entries:
        card = entry.card
        if card.game != deck.game:
            problems.append(
                Problem(
                    code="foreign-card",
                    severity=Severity.ERROR,
                    cite=cite,
                    message=Text(
                        _("%(card)s is a card of another game (%(game)s)."),
                        {"game": card.game},
                        {"card": card},
                    ),
                    fix=Text(_("Remove %(card)s."), {}, {"card": card}),
                    cards=(card,),
                    zone=entry.zone,
                )
            )
            continue
        if card.withdrawn:
            problems.append(_withdrawn(card, entry, cite))
        zone = rules.zone(entry.zone)
        if zone is None:
            problems.append(
                Problem(
                    code="unknown-zone",
                    severity=Severity.ERROR,
                    cite=cite,
                    message=Text(
                        _("%(card)s is in a zone this game does not have (%(zone)s)."),
                        {"zone": entry.zone},
                        {"card": card},
                    ),
                    fix=Text(
                        _("Move %(card)s to one of: %(zones)s."),
                        {"zones": _zone_list(rules.zones)},
                        {"card": card},
                    ),
                    cards=(card,),
                    zone=entry.zone,
                )
            )
        elif card.card_type not in zone.card_types:
            home = rules.home_zone(card.card_type)
            fix = (
                Text(_("Move %(card)s to the %(zone)s."), {"zone": home.label}, {"card": card})
                if home
                else Text(_("Remove %(card)s."), {}, {"card": card})
            )
            problems.append(
                Problem(
                    code="zone-type",
                    severity=Severity.ERROR,
                    cite=zone.cite or cite,
                    message=Text(
                        _("%(card)s is a %(type)s card; the %(zone)s does not take that type."),
                        {"type": _type_label(rules, card.card_type), "zone": zone.label},
                        {"card": card},
                    ),
                    fix=fix,
                    cards=(card,),
                    zone=entry.zone,
                    expected=list(zone.card_types),
                    actual=card.card_type,
                )
            )
        if entry.quantity < 1 or entry.quantity > MAX_QUANTITY:
            problems.append(
                Problem(
                    code="quantity",
                    severity=Severity.ERROR,
                    cite=cite,
                    message=Text(
                        _("%(card)s has quantity %(actual)d; a quantity is from 1 to %(max)d."),
                        {"actual": entry.quantity, "max": MAX_QUANTITY},
                        {"card": card},
                    ),
                    fix=Text(
                        _("Set the quantity of %(card)s to at least 1, or remove it."),
                        {},
                        {"card": card},
                    ),
                    cards=(card,),
                    zone=entry.zone,
                    expected=1,
                    actual=entry.quantity,
                )
            )
    return problems


def group_by(
    entries: Iterable[EntryFacts], key: Callable[[EntryFacts], object]
) -> dict[object, list[EntryFacts]]:
    grouped: dict[object, list[EntryFacts]] = defaultdict(list)
    for entry in entries:
        grouped[key(entry)].append(entry)
    return grouped
