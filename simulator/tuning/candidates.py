"""The cards a tuning may add, and the moves that keep the deck legal.

Where the cards come from is said in the catalog's own search language, with the player's
collection behind it (``is:owned``, ``is:free``: the collection app answers them through
``catalog.query.context``), so the simulator reads no collection table itself. A typed list is
read line by line, by code or by name in either language, with a "did you mean" for a line
that names no card.

A move is kept only if the deck it makes has no legality error the deck itself does not have,
judged by the decks app's one checker (``decks.legality.check.check_deck``): copy limits, zone
sizes and every other rule of the game, never re-implemented here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.db.models import Q, QuerySet
from django.utils.translation import gettext_lazy as _

from catalog.models import Card, Game
from catalog.query.compile import compile_query
from catalog.query.context import search_context
from catalog.query.suggest import near_names
from catalog.search import fold
from decks.imports.text import visible_cards
from decks.legality.check import check_deck
from decks.legality.facts import CardFacts, DeckFacts, EntryFacts
from decks.legality.load import card_facts_for
from decks.legality.problems import Problem
from simulator.decks import sim_card_of
from simulator.engine.cards import SimCard, SimDeck
from simulator.engine.tuning import Move, all_moves
from simulator.models import TuningSource

#: moves a tuning may race: more says the candidates should be narrowed
MAX_MOVES = 1_000
#: lines a typed list may hold, and candidates any source may give
MAX_LIST_LINES = 200
MAX_CANDIDATES = 400

UNKNOWN_CARD = _("Line %(line)s: no card of this game is called “%(name)s”.")
DID_YOU_MEAN = _("Did you mean: %(names)s?")
LIST_TOO_LONG = _("Type at most %(max)s cards, one per line.")
LIST_EMPTY = _("Type the cards to try, one per line.")
TOO_MANY_CANDIDATES = _(
    "These candidates give %(count)s cards; narrow them to at most %(max)s (a typed list, or "
    "the cards you own)."
)
NO_CANDIDATES = _("No card to try: the candidates you chose hold no card of this game.")

_SOURCE_QUERY = {TuningSource.OWNED: "is:owned", TuningSource.FREE: "is:free"}


class CandidateError(Exception):
    def __init__(self, messages: list[Any]) -> None:
        self.messages = messages
        super().__init__("; ".join(str(m) for m in messages))


def _by_line(game: Game, owner: Any, lines: Sequence[str]) -> list[Card]:
    """The cards a typed list names (one query for all), every unknown line reported."""
    wanted = [(number, line.strip()) for number, line in enumerate(lines, 1) if line.strip()]
    if not wanted:
        raise CandidateError([LIST_EMPTY])
    if len(wanted) > MAX_LIST_LINES:
        raise CandidateError([LIST_TOO_LONG % {"max": MAX_LIST_LINES}])
    texts = {text for _n, text in wanted}
    folded = {fold(text) for text in texts}
    cards = visible_cards(game=game, user=owner)
    found = list(
        cards.filter(Q(code__in=texts) | Q(name_en__in=texts) | Q(name_ja__in=texts)).order_by("pk")
    )
    if len(found) < len(texts):
        # names typed in another case or width: compared folded, among these few cards only
        found += [
            card for card in cards.filter(search_key__in=folded).order_by("pk") if card not in found
        ]
    index: dict[str, Card] = {}
    for card in found:
        for key in (card.code, card.name_en, card.name_ja):
            if key:
                index.setdefault(key, card)
                index.setdefault(fold(key), card)
    chosen: list[Card] = []
    problems: list[Any] = []
    for number, text in wanted:
        named = index.get(text) or index.get(fold(text))
        if named is None:
            message = str(UNKNOWN_CARD % {"line": number, "name": text})
            close = near_names(cards, text.split())
            if close:
                names = ", ".join(f"“{c.name_en or c.name_ja}”" for c in close[:3])
                message += " " + str(DID_YOU_MEAN % {"names": names})
            problems.append(message)
        elif named not in chosen:
            chosen.append(named)
    if problems:
        raise CandidateError(problems)
    return chosen


def candidate_cards(
    *, game: Game, owner: Any, source: str, lines: Sequence[str] = ()
) -> list[Card]:
    """The cards a tuning of ``owner``'s deck of ``game`` may add, in catalog order."""
    if source == TuningSource.LIST:
        cards = _by_line(game, owner, lines)
    else:
        found: QuerySet[Card] = visible_cards(game=game, user=owner)
        query = _SOURCE_QUERY.get(TuningSource(source))
        if query:
            compiled = compile_query(
                query, slug=game.slug, context=search_context(user=owner), per_printing=False
            )
            found = found.filter(compiled.condition)
        cards = list(found.order_by("pk")[: MAX_CANDIDATES + 1])
    if len(cards) > MAX_CANDIDATES:
        raise CandidateError(
            [TOO_MANY_CANDIDATES % {"count": f"{MAX_CANDIDATES}+", "max": MAX_CANDIDATES}]
        )
    return cards


# --- moves --------------------------------------------------------------------------------


def moved_facts(
    facts: DeckFacts, zone: str, move: Move, by_code: dict[str, CardFacts]
) -> DeckFacts:
    """The deck's facts after ``move`` in ``zone`` (the cut copy from the card's last entry
    there, the added one to its first, or a new entry)."""
    entries = list(facts.entries)
    if move.cut is not None:
        at = max(i for i, e in enumerate(entries) if e.zone == zone and e.card.code == move.cut)
        left = entries[at].quantity - 1
        if left:
            entries[at] = replace(entries[at], quantity=left)
        else:
            del entries[at]
    if move.add is not None:
        at_add = next(
            (i for i, e in enumerate(entries) if e.zone == zone and e.card.code == move.add),
            None,
        )
        if at_add is None:
            entries.append(EntryFacts(card=by_code[move.add], zone=zone, quantity=1))
        else:
            entries[at_add] = replace(entries[at_add], quantity=entries[at_add].quantity + 1)
    return replace(facts, entries=tuple(entries))


def _key(problem: Problem) -> tuple[str, tuple[str, ...]]:
    return problem.code, tuple(card.code for card in problem.cards)


def error_keys(facts: DeckFacts) -> set[tuple[str, tuple[str, ...]]]:
    """The deck's legality errors, each by its rule and the cards it names."""
    return {_key(problem) for problem in check_deck(facts) if problem.is_error}


def new_errors(before: set[tuple[str, tuple[str, ...]]], after: DeckFacts) -> list[Problem]:
    """The errors of ``after`` that are not among ``before`` (``error_keys`` of the deck the
    move starts from): what the move would break."""
    return [p for p in check_deck(after) if p.is_error and _key(p) not in before]


@dataclass
class MoveSet:
    moves: list[Move]
    #: the candidates as the engine plays them, by code (those the deck does not hold)
    new_cards: dict[str, SimCard]
    #: the candidates' facts by code
    facts: dict[str, CardFacts] = field(default_factory=dict)
    #: moves left out because the deck they make breaks a rule the deck keeps
    illegal: int = 0


def legal_moves(
    *,
    facts: DeckFacts,
    deck: SimDeck,
    cards: Sequence[Card],
    pins: Sequence[str],
    sizes: bool,
) -> MoveSet:
    """Every move of the deck (``all_moves``) whose deck breaks no rule the deck keeps."""
    card_facts = card_facts_for(cards)
    by_code = {f.code: f for f in card_facts.values()}
    for entry in facts.entries:
        by_code.setdefault(entry.card.code, entry.card)
    before = error_keys(facts)
    kept: list[Move] = []
    illegal = 0
    candidates = [f.code for f in card_facts.values()]
    for move in all_moves(deck, candidates, pins=pins, sizes=sizes):
        if new_errors(before, moved_facts(facts, deck.draw_zone, move, by_code)):
            illegal += 1
        else:
            kept.append(move)
    held = {card.code for card in deck.cards}
    added = {m.add for m in kept if m.add is not None} - held
    new_cards = {code: sim_card_of(by_code[code]) for code in sorted(added)}
    return MoveSet(moves=kept, new_cards=new_cards, facts=by_code, illegal=illegal)
