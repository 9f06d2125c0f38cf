"""央華封神 deck construction: shared/rules/ouka-fushin.md lines 34-40 (and 43-44 on what a
missing substitute costs)."""

from __future__ import annotations

from collections import Counter

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from decks.game_rules import DeckRules, Stat, Zone
from decks.legality.facts import DeckFacts
from decks.legality.problems import Cite, Problem, Severity, Text
from decks.legality.rules import CopyLimit, ExactlyOneOfType, ZoneSize
from games.ouka_fushin import GAME

DIGEST = "ouka-fushin.md"
SUBSTITUTE = Cite(DIGEST, 38)  # "a substitute protagonist set"
DIFFERENT_SUBSTITUTE = Cite(DIGEST, 39)  # "(a different protagonist)"
CANNOT_SUBSTITUTE = Cite(DIGEST, 40)  # "A player who must substitute and cannot, loses"


def missions_differ(deck: DeckFacts, rules: DeckRules) -> list[Problem]:
    """Line 38: two *different* mission cards."""
    counts = Counter(e.card.code for e in deck.in_zone("missions") for _ in range(e.quantity))
    problems = []
    for entry in deck.in_zone("missions"):
        if counts[entry.card.code] > 1:
            problems.append(
                Problem(
                    code="missions-differ",
                    severity=Severity.ERROR,
                    cite=Cite(DIGEST, 38),
                    message=Text(
                        _(
                            "The two missions must be different; %(card)s is there "
                            "%(actual)d times."
                        ),
                        {"actual": counts[entry.card.code]},
                        {"card": entry.card},
                    ),
                    fix=Text(
                        _("Replace one %(card)s with another mission."), {}, {"card": entry.card}
                    ),
                    cards=(entry.card,),
                    zone="missions",
                    expected=1,
                    actual=counts[entry.card.code],
                )
            )
            counts[entry.card.code] = 0  # one record per card, not per copy
    return problems


def substitute_protagonist(deck: DeckFacts, rules: DeckRules) -> list[Problem]:
    """Lines 38-40: a substitute protagonist, different from the protagonist; without one,
    meeting the same protagonist and losing the dice-off loses the game (lines 40, 43-44)."""
    substitutes = deck.in_zone("substitute")
    count = sum(e.quantity for e in substitutes)
    if count == 0:
        return [
            Problem(
                code="substitute-missing",
                severity=Severity.WARNING,
                cite=CANNOT_SUBSTITUTE,
                message=Text(
                    _(
                        "No substitute protagonist: if your opponent brings the same "
                        "protagonist and wins the dice-off, you cannot substitute and "
                        "you lose the game."
                    )
                ),
                fix=Text(_("Add a protagonist different from yours to the substitute zone.")),
                zone="substitute",
                expected=1,
                actual=0,
            )
        ]
    if count > 1:
        return [
            Problem(
                code="substitute-count",
                severity=Severity.ERROR,
                cite=SUBSTITUTE,
                message=Text(
                    _("The substitute zone has %(actual)d cards; it holds one protagonist."),
                    {"actual": count},
                ),
                fix=Text(_("Keep one protagonist in the substitute zone.")),
                cards=tuple(e.card for e in substitutes),
                zone="substitute",
                expected=1,
                actual=count,
            )
        ]
    chosen = {e.card.code for e in deck.in_zone("protagonist")}
    substitute = substitutes[0].card
    if substitute.code in chosen or _character(substitute) in {
        _character(e.card) for e in deck.in_zone("protagonist")
    }:
        return [
            Problem(
                code="substitute-same",
                severity=Severity.ERROR,
                cite=DIFFERENT_SUBSTITUTE,
                message=Text(
                    _(
                        "The substitute %(card)s is the same protagonist as yours; it "
                        "must be a different one."
                    ),
                    {},
                    {"card": substitute},
                ),
                fix=Text(_("Choose another protagonist as the substitute.")),
                cards=(substitute,),
                zone="substitute",
            )
        ]
    return _spares_cover_rebuild(deck)


def _character(card: object) -> str:
    attributes = getattr(card, "attributes", {})
    return str(attributes.get("character") or getattr(card, "code", ""))


def _spares_cover_rebuild(deck: DeckFacts) -> list[Problem]:
    """Line 44: substituting swaps the protagonist's character cards in the deck for the
    substitute's; say when the spares could not cover that swap."""
    protagonist = next(iter(deck.in_zone("protagonist")), None)
    substitute = deck.in_zone("substitute")[0].card
    if protagonist is None:
        return []
    own = _character(protagonist.card)
    to_swap = sum(
        e.quantity
        for e in deck.in_zone("main")
        if e.card.card_type == "character" and _character(e.card) == own
    )
    spares = sum(
        e.quantity for e in deck.in_zone("spares") if _character(e.card) == _character(substitute)
    )
    if to_swap <= spares:
        return []
    return [
        Problem(
            code="spares-short",
            severity=Severity.INFO,
            cite=Cite(DIGEST, 39),
            message=Text(
                _(
                    "A rebuild for %(card)s would swap %(needed)d character cards of "
                    "your protagonist; the spares hold %(actual)d of the substitute's."
                ),
                {"needed": to_swap, "actual": spares},
                {"card": substitute},
            ),
            fix=Text(
                ngettext_lazy(
                    "Add %(n)d spare character card of %(card)s.",
                    "Add %(n)d spare character cards of %(card)s.",
                    to_swap - spares,
                ),
                {"n": to_swap - spares},
                {"card": substitute},
            ),
            cards=(substitute,),
            zone="spares",
            expected=to_swap,
            actual=spares,
        )
    ]


RULES = DeckRules(
    game=GAME.slug,
    construction=Cite(DIGEST, 34),
    zones=(
        # line 36: no protagonist or mission cards in the deck
        Zone(
            "main", _("main deck"), ("character", "story", "climax"), Cite(DIGEST, 36), is_deck=True
        ),
        Zone(
            "protagonist", _("protagonist"), ("protagonist",), Cite(DIGEST, 38), aliases=("主人公",)
        ),
        # zone labels read as a singular noun: "The mission zone has 0 cards" (issue 18)
        Zone(
            "missions",
            _("mission zone"),
            ("mission",),
            Cite(DIGEST, 38),
            aliases=("mission", "使命", "ミッション"),
        ),
        Zone(
            "substitute",
            _("substitute protagonist"),
            ("protagonist",),
            Cite(DIGEST, 38),
            aliases=("substitute protagonist", "代役"),
        ),
        Zone(
            "spares",
            _("spare character zone"),
            ("character",),
            Cite(DIGEST, 39),
            aliases=("spare", "spare characters", "予備", "再構築用"),
        ),
    ),
    rules=(
        ZoneSize("main", Cite(DIGEST, 35), minimum=40),  # line 35: at least 40 cards
        CopyLimit(("main",), 3, Cite(DIGEST, 37)),  # line 37: at most 3 of the same card
        ExactlyOneOfType("protagonist", Cite(DIGEST, 38)),
        ZoneSize("missions", Cite(DIGEST, 38), exactly=2, code="missions-count"),
    ),
    checks=(missions_differ, substitute_protagonist),
    stats=(
        Stat("school", _("Schools")),
        Stat("destiny", _("Destiny levels"), numeric=True),
        Stat("keywords", _("Keywords")),
    ),
)
