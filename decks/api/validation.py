"""Check a posted deck list without saving anything: the validation endpoint's reading.

A list is turned into ``DeckFacts`` (never a Deck row) and checked by the game's rules. What
could not be read becomes a problem too, shaped like the checker's records plus where it is:
``line`` and ``text`` for a text list, ``path`` for JSON entries, each with a did-you-mean when
a catalog card is close. A card of another game is kept, so the checker reports ``foreign-card``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.utils import translation

from catalog.models import Card, Game, Printing
from decks.api import errors
from decks.api.cards import LANGUAGES, Say, resolve_entries
from decks.game_rules import deck_rules
from decks.legality.check import check_deck
from decks.legality.facts import DeckFacts, EntryFacts
from decks.legality.load import card_facts_for, printing_facts
from decks.legality.problems import Problem, Severity, is_legal


def _problem(
    *,
    code: str,
    message: Mapping[str, str],
    fix: Mapping[str, str] | None = None,
    zone: str | None = None,
    actual: Any = None,
    line: int | None = None,
    text: str | None = None,
    path: str | None = None,
) -> dict[str, Any]:
    """A list problem, with the same keys as ``Problem.as_dict()`` plus where it is."""
    return {
        "code": code,
        "severity": str(Severity.ERROR),
        "rule": "",
        "zone": zone,
        "expected": None,
        "actual": actual,
        "message": dict(message),
        "fix": dict(fix) if fix else None,
        "cards": [],
        "line": line,
        "text": text,
        "path": path,
    }


def _legality(problem: Problem) -> dict[str, Any]:
    return {**problem.as_dict(), "line": None, "text": None, "path": None}


def _facts(
    *,
    game: Game,
    variant: str,
    extras: Mapping[str, Any],
    entries: Iterable[tuple[Card, str, int, Printing | None]],
) -> DeckFacts:
    """DeckFacts of an unsaved list (one query, for the cards' printings)."""
    rows = list(entries)
    for card, _zone, _quantity, _printing in rows:
        if not Card.game.is_cached(card) and card.game_id == game.pk:
            card.game = game
    cards = card_facts_for(card for card, _z, _q, _p in rows)
    return DeckFacts(
        game=game.slug,
        variant=variant or deck_rules(game.slug).default_variant,
        extras=dict(extras),
        entries=tuple(
            EntryFacts(
                card=cards[card.pk],
                zone=zone,
                quantity=quantity,
                printing=printing_facts(printing) if printing else None,
            )
            for card, zone, quantity, printing in rows
        ),
    )


def _answer(facts: DeckFacts, unread: list[dict[str, Any]]) -> dict[str, Any]:
    problems = check_deck(facts)
    deck_zones = {z.code for z in deck_rules(facts.game).deck_zones}
    return {
        "legal": not unread and is_legal(problems),
        "card_count": sum(e.quantity for e in facts.entries if e.zone in deck_zones),
        "problems": unread + [_legality(p) for p in problems],
    }


def validate_entries(
    *,
    game: Game,
    user: Any,
    entries: Sequence[Mapping[str, Any]],
    variant: str = "",
    extras: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """{legal, card_count, problems} of a JSON list ({card, zone, quantity, printing?})."""
    unread: list[dict[str, Any]] = []
    rows: list[tuple[Card, str, int, Printing | None]] = []
    for item in resolve_entries(game=game, user=user, entries=entries):
        if item.card is None:
            assert item.card_error is not None
            unread.append(
                _problem(
                    code="unknown-card",
                    message=item.card_error.both(),
                    fix=Say(errors.FIX_UNKNOWN_CARD).both(),
                    zone=item.zone,
                    actual=item.ref,
                    text=item.ref,
                    path=f"entries[{item.index}].card",
                )
            )
            continue
        if item.printing_error is not None:
            unread.append(
                _problem(
                    code="unknown-printing",
                    message=item.printing_error.both(),
                    fix=Say(errors.FIX_UNKNOWN_PRINTING).both(),
                    zone=item.zone,
                    text=item.ref,
                    path=f"entries[{item.index}].printing",
                )
            )
        rows.append((item.card, item.zone, item.quantity, item.printing))
    facts = _facts(game=game, variant=variant, extras=extras or {}, entries=rows)
    return _answer(facts, unread)


def validate_text(
    *,
    game: Game,
    user: Any,
    text: str,
    variant: str = "",
    extras: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """{legal, card_count, problems} of a list in the DeckLab text format.

    The list's own ``rules:`` and extras' lines win over ``variant`` and ``extras``.
    """
    from decks.imports.text import parse_deck_text  # written beside this API; imported late

    with translation.override(LANGUAGES[0]):
        parsed = parse_deck_text(text, game=game, user=user)
    messages: list[dict[str, str]] = [{LANGUAGES[0]: p.message} for p in parsed.problems]
    if parsed.problems:
        # The reader words its problems in the active language: read again for the others.
        for language in LANGUAGES[1:]:
            with translation.override(language):
                again = parse_deck_text(text, game=game, user=user).problems
            for found, problem in zip(messages, again, strict=False):
                found[language] = problem.message
    unread = [
        _problem(
            code=problem.code or "unreadable",
            message={lang: found.get(lang, problem.message) for lang in LANGUAGES},
            line=problem.line,
            text=problem.text,
        )
        for problem, found in zip(parsed.problems, messages, strict=True)
    ]
    facts = _facts(
        game=game,
        variant=parsed.variant or variant,
        extras={**(extras or {}), **parsed.extras},
        entries=((e.card, e.zone, e.quantity, e.printing) for e in parsed.entries),
    )
    return _answer(facts, unread)
