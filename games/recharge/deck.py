"""Marvel Recharge deck construction: shared/rules/recharge.md lines 23-30."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from decks.game_rules import DeckRules, Stat, Variant, Zone
from decks.legality.facts import DeckFacts, EntryFacts
from decks.legality.problems import Cite, Problem, Severity, Text
from decks.legality.rules import StandardSize
from games.recharge import GAME
from games.recharge.catalog import POWER_PLUS
from games.recharge.schedule import OPENING_HAND

DIGEST = "recharge.md"
BASIC, TOURNAMENT = "basic", "tournament"
MAX_CHIPS, CHIP_MIN, CHIP_MAX, TOTAL_MIN, TOTAL_MAX = 25, 1, 5, 50, 65
CHIPS = Cite(DIGEST, 30)


def _is_power_plus(entry: EntryFacts) -> bool:
    return entry.printing is not None and entry.printing.variant == POWER_PLUS


def all_different(deck: DeckFacts, rules: DeckRules) -> list[Problem]:
    """Line 29: all cards different. Basic rules (line 24): a Power Plus card is the same card
    as its normal version; tournament rules (line 25): a different card."""
    tournament = deck.variant == TOURNAMENT
    groups: dict[Any, list[EntryFacts]] = defaultdict(list)
    for entry in deck.in_zone("main"):
        key = (entry.card.code, _is_power_plus(entry)) if tournament else entry.card.code
        groups[key].append(entry)
    problems = []
    for entries in groups.values():
        total = sum(e.quantity for e in entries)
        if total <= 1:
            continue
        card = entries[0].card
        both = {_is_power_plus(e) for e in entries} == {True, False}
        if both and not tournament:
            problems.append(
                Problem(
                    code="power-plus-same-card",
                    severity=Severity.ERROR,
                    cite=Cite(DIGEST, 24),
                    message=Text(
                        _(
                            "%(card)s and its Power Plus version count as the same card "
                            "under basic rules; only one may be in the deck."
                        ),
                        {},
                        {"card": card},
                    ),
                    fix=Text(
                        _(
                            "Keep either the Power Plus or the normal version of %(card)s, "
                            "or switch the deck to tournament rules."
                        ),
                        {},
                        {"card": card},
                    ),
                    cards=(card,),
                    zone="main",
                    expected=1,
                    actual=total,
                )
            )
        else:
            problems.append(
                Problem(
                    code="all-different",
                    severity=Severity.ERROR,
                    cite=Cite(DIGEST, 29),
                    message=Text(
                        _(
                            "%(card)s is in the deck %(actual)d times; every card must be "
                            "different."
                        ),
                        {"actual": total},
                        {"card": card},
                    ),
                    fix=Text(_("Remove %(n)d × %(card)s."), {"n": total - 1}, {"card": card}),
                    cards=(card,),
                    zone="main",
                    expected=1,
                    actual=total,
                )
            )
    return problems


def chip_values(deck: DeckFacts) -> list[Any]:
    chips = deck.extras.get("chips") or []
    return list(chips) if isinstance(chips, list | tuple) else []


def chips(deck: DeckFacts, rules: DeckRules) -> list[Problem]:
    """Line 30: at most 25 chips, each worth 1-5 points, totalling 50-65 points."""
    values = chip_values(deck)
    problems = []
    if len(values) > MAX_CHIPS:
        problems.append(
            Problem(
                code="chip-count",
                severity=Severity.ERROR,
                cite=CHIPS,
                message=Text(
                    _("%(actual)d counter chips; at most %(expected)d are allowed."),
                    {"actual": len(values), "expected": MAX_CHIPS},
                ),
                fix=Text(
                    ngettext_lazy(
                        "Remove %(n)d chip.", "Remove %(n)d chips.", len(values) - MAX_CHIPS
                    ),
                    {"n": len(values) - MAX_CHIPS},
                ),
                expected=MAX_CHIPS,
                actual=len(values),
            )
        )
    # bool is an int in Python; a chip of "true" is not a 1-point chip
    bad = [
        v
        for v in values
        if isinstance(v, bool) or not isinstance(v, int) or not CHIP_MIN <= v <= CHIP_MAX
    ]
    if bad:
        problems.append(
            Problem(
                code="chip-value",
                severity=Severity.ERROR,
                cite=CHIPS,
                message=Text(
                    _("Chips are worth %(min)d to %(max)d points; these are not: %(values)s."),
                    {"min": CHIP_MIN, "max": CHIP_MAX, "values": ", ".join(str(v) for v in bad)},
                ),
                fix=Text(
                    _("Change each chip to a value from %(min)d to %(max)d."),
                    {"min": CHIP_MIN, "max": CHIP_MAX},
                ),
                expected=[CHIP_MIN, CHIP_MAX],
                actual=bad,
            )
        )
    total = sum(v for v in values if isinstance(v, int) and not isinstance(v, bool))
    if not TOTAL_MIN <= total <= TOTAL_MAX:
        if total < TOTAL_MIN:
            missing = TOTAL_MIN - total
            fix = Text(
                ngettext_lazy("Add %(n)d point of chips.", "Add %(n)d points of chips.", missing),
                {"n": missing},
            )
        else:
            extra = total - TOTAL_MAX
            fix = Text(
                ngettext_lazy(
                    "Remove %(n)d point of chips.", "Remove %(n)d points of chips.", extra
                ),
                {"n": extra},
            )
        problems.append(
            Problem(
                code="chip-total",
                severity=Severity.ERROR,
                cite=CHIPS,
                message=Text(
                    _(
                        "The chips total %(actual)d points; the total must be from "
                        "%(min)d to %(max)d."
                    ),
                    {"actual": total, "min": TOTAL_MIN, "max": TOTAL_MAX},
                ),
                fix=fix,
                expected=[TOTAL_MIN, TOTAL_MAX],
                actual=total,
            )
        )
    return problems


RULES = DeckRules(
    game=GAME.slug,
    construction=Cite(DIGEST, 28),
    zones=(
        Zone("main", _("main deck"), ("hero", "teamwork", "power"), Cite(DIGEST, 29), is_deck=True),
    ),
    variants=(
        Variant(BASIC, _("Basic rules")),  # line 24
        Variant(TOURNAMENT, _("Tournament rules")),  # line 25
    ),
    # line 29: 50 is the standard (a smaller deck is warned); line 33: the opening draws
    # OPENING_HAND cards, so a deck with fewer cannot start a game
    rules=(
        StandardSize(
            "main",
            50,
            Cite(DIGEST, 29),
            below=Severity.WARNING,
            playable=OPENING_HAND,
            playable_cite=Cite(DIGEST, 33),
        ),
    ),
    checks=(all_different, chips),
    stats=(
        Stat("left", _("Left edge colours")),
        Stat("right", _("Right edge colours")),
        Stat("power", _("Power"), numeric=True),
    ),
)
