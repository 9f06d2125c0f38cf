"""The test hand page and the odds panel, at /decks/<public_id>/test-hand/ and …/odds/.

A test hand lives entirely in its address (``?seed=…&turn=…``, plus the game's adjustable
numbers), so it can be shared and replayed; "Draw next turn" is a plain link that htmx turns
into a fragment swap, and "New hand" is the address without a seed, which redirects to a
fresh one. Private decks are 404 to everyone but their owner (``deck_get_for_viewer``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language, gettext, ngettext
from django.views.decorators.http import require_safe

from catalog.models import Card, Printing
from catalog.spec import GameSpec, get_game
from decks.models import Deck
from decks.selectors import deck_entries, deck_get_for_viewer
from decks.views.access import is_htmx
from simulator.decks import sim_deck_for
from simulator.engine.cards import SimDeck
from simulator.engine.schedule import DrawSchedule
from simulator.testhands.dealing import (
    MAX_DEAL_TURNS,
    Deal,
    GameSetup,
    Group,
    deal,
    game_setup,
    group_odds,
)
from simulator.testhands.forms import (
    DEFAULT_K,
    DEFAULT_ODDS_TURNS,
    OddsForm,
    TestHandForm,
    field_errors,
    group_label,
)
from simulator.testhands.panels import DealFacts, panel_results

#: fresh seeds stay short, so a shared link stays readable (any seed up to 2**63-1 replays)
NEW_SEED_BOUND = 1_000_000_000


# --- The deck as test hands see it -----------------------------------------------------------


@dataclass(frozen=True)
class FaceRef:
    """What ``{% card_face %}`` draws for one card of the deck."""

    card: Card
    printing: Printing | None


@dataclass(frozen=True)
class HandDeck:
    deck: Deck
    sim: SimDeck
    setup: GameSetup
    spec: GameSpec
    #: by card index of ``sim``; empty unless faces were asked for
    faces: tuple[FaceRef, ...] = ()


def _faces(sim: SimDeck, entries: list[Any]) -> tuple[FaceRef, ...]:
    """Each sim card's catalog card and printing: the pinned one, else its first printing
    (the one the sim deck read the card's printing attributes from), in one query."""
    by_key: dict[tuple[str, str], Any] = {}
    for entry in entries:
        by_key.setdefault(
            (entry.card.code, entry.printing.variant if entry.printing else ""), entry
        )
    unpinned = {e.card_id for e in by_key.values() if e.printing is None}
    first: dict[int, Printing] = {}
    if unpinned:
        for printing in (
            Printing.objects.filter(card_id__in=unpinned).select_related("card_set").order_by("pk")
        ):
            first.setdefault(printing.card_id, printing)
    refs = []
    for card in sim.cards:
        entry = by_key[(card.code, card.variant)]
        refs.append(FaceRef(card=entry.card, printing=entry.printing or first.get(entry.card_id)))
    return tuple(refs)


def hand_deck(deck: Deck, *, faces: bool = False) -> HandDeck:
    """``deck`` ready for dealing and odds (two queries; two more with ``faces``)."""
    try:
        setup = game_setup(deck.game.slug)
    except LookupError:
        raise Http404 from None  # a game without a draw schedule has no test hands
    sim = sim_deck_for(deck, language=get_language())
    return HandDeck(
        deck=deck,
        sim=sim,
        setup=setup,
        spec=get_game(deck.game.slug),
        faces=_faces(sim, deck_entries(deck=deck)) if faces else (),
    )


def schedule_summary(schedule: DrawSchedule) -> str:
    first = 1 if schedule.draws_on_first_turn else 2
    opening = ngettext(
        "Opening hand: %(opening)d card;", "Opening hand: %(opening)d cards;", schedule.opening
    ) % {"opening": schedule.opening}
    then = ngettext(
        "then %(per_turn)d card a turn from turn %(first)d.",
        "then %(per_turn)d cards a turn from turn %(first)d.",
        schedule.per_turn,
    ) % {"per_turn": schedule.per_turn, "first": first}
    if schedule.end_phase_draws:
        refill = ngettext(
            "Each end phase draws %(n)d more (back to %(size)d).",
            "Each end phase draws %(n)d more (back to %(size)d).",
            schedule.end_phase_draws,
        ) % {"n": schedule.end_phase_draws, "size": schedule.refill_to}
        return f"{opening} {then} {refill}"
    return f"{opening} {then}"


def _test_hand_url(deck: Deck, **query: Any) -> str:
    url = reverse("testhands:test-hand", kwargs={"public_id": deck.public_id})
    return f"{url}?{urlencode(query)}" if query else url


def _odds_url(deck: Deck) -> str:
    return reverse("testhands:odds", kwargs={"public_id": deck.public_id})


# --- The test hand ---------------------------------------------------------------------------


@dataclass(frozen=True)
class TurnView:
    turn: int
    faces: list[FaceRef]
    wanted: int
    missing: int


def _turn_views(hd: HandDeck, dealt: Deal) -> list[TurnView]:
    return [
        TurnView(
            turn=d.turn,
            faces=[hd.faces[i] for i in d.cards],
            wanted=d.wanted,
            missing=d.missing,
        )
        for d in dealt.draws
    ]


def _can_draw(hd: HandDeck, dealt: Deal) -> bool:
    if dealt.turns >= MAX_DEAL_TURNS:
        return False
    # a game whose players take damage for each card an empty deck cannot give goes on past
    # it; elsewhere an empty deck ends what a test hand can show
    return dealt.remaining > 0 or hd.setup.damage_per_missing_card > 0


@require_safe
def test_hand(request: HttpRequest, public_id: str) -> HttpResponse:
    hd = hand_deck(deck_get_for_viewer(public_id=public_id, user=request.user), faces=True)
    form = TestHandForm(request.GET, setup=hd.setup)
    if not form.is_valid():
        problem = {
            "deck": hd.deck,
            "errors": _labelled_errors(form),
            "retry": _test_hand_url(hd.deck),
        }
        return render(request, "simulator/testhand/problem.html", problem, status=400)
    params = form.changed_params
    seed = form.cleaned_data["seed"]
    if seed is None:
        # "New hand": a fresh seed, put in the address so the hand can be shared and replayed
        fresh = random.SystemRandom().randrange(1, NEW_SEED_BOUND)
        return redirect(_test_hand_url(hd.deck, seed=fresh, turn=0, **params))
    turn = form.turn
    dealt = deal(hd.sim, seed=seed, turns=turn, schedule=form.schedule)
    hand = dealt.hand
    context: dict[str, Any] = {
        "deck": hd.deck,
        "form": form,
        "seed": seed,
        "turn": turn,
        "deal": dealt,
        "turn_views": _turn_views(hd, dealt),
        "hand_count": len(hand),
        "schedule_summary": schedule_summary(form.schedule),
        "note": hd.setup.note_for(form.schedule, gettext, ngettext),
        "empty": dealt.remaining == 0,
        "empty_note": gettext(hd.setup.empty_note),
        "can_draw": _can_draw(hd, dealt),
        "next_url": _test_hand_url(hd.deck, seed=seed, turn=turn + 1, **params),
        "restart_url": _test_hand_url(hd.deck, seed=seed, turn=0, **params),
        "new_url": _test_hand_url(hd.deck, **params),
        "share_url": request.build_absolute_uri(
            _test_hand_url(hd.deck, seed=seed, turn=turn, **params)
        ),
        "panels": panel_results(hd.deck.game.slug, hd.sim, hand, DealFacts(missing=dealt.missing)),
    }
    if is_htmx(request):
        return render(request, "simulator/testhand/_hand.html", context)
    # the panel below the hand asks with the hand's own schedule numbers
    query = QueryDict(mutable=True)
    query.update({name: str(value) for name, value in form.changed_params.items()})
    context.update(_odds_context(hd, odds_form_for(hd, query)))
    return render(request, "simulator/testhand/page.html", context)


# --- The odds panel --------------------------------------------------------------------------


@dataclass(frozen=True)
class OddsRow:
    turn: int
    seen: int
    probability: float
    percent: str

    @property
    def exact(self) -> str:
        """The probability written out in full (the table's data attribute)."""
        return repr(self.probability)

    @property
    def width(self) -> int:
        """The bar's width in percent."""
        return round(self.probability * 100)


@dataclass(frozen=True)
class OddsResult:
    group: str
    label: str
    size: int
    deck_size: int
    k: int
    turns: int
    schedule: DrawSchedule
    rows: list[OddsRow]
    assumptions: list[str]


def percent(probability: float) -> str:
    """A chance as people read it: exact ends stay exact, tiny ones are not shown as 0."""
    if probability <= 0:
        return "0%"
    if probability >= 1:
        return "100%"
    if probability < 0.0005:
        return "<0.1%"
    if probability > 0.9995:
        return ">99.9%"
    return f"{probability * 100:.1f}%"


def odds_assumptions(setup: GameSetup, schedule: DrawSchedule) -> list[str]:
    items = [
        gettext(
            "Exact odds (hypergeometric): the draw pile is shuffled once, and only drawing takes "
            "cards from it (no searching, no cards put back)."
        ),
        gettext("Turn 0 is the opening hand.") + " " + schedule_summary(schedule),
    ]
    if setup.note:
        items.append(setup.note_for(schedule, gettext, ngettext))
    return items


def odds_result(hd: HandDeck, form: OddsForm) -> OddsResult:
    """The odds of a valid form: exact probabilities by turn, with what they assume."""
    group: Group = form.cleaned_data["group"]
    k, turns = form.cleaned_data["k"], form.cleaned_data["turns"]
    schedule = form.schedule
    odds = group_odds(hd.sim, group, k=k, schedule=schedule, turns=turns)
    return OddsResult(
        group=str(group),
        label=group_label(group, spec=hd.spec, deck=hd.sim),
        size=odds.size,
        deck_size=odds.deck_size,
        k=k,
        turns=turns,
        schedule=schedule,
        rows=[OddsRow(r.turn, r.seen, r.probability, percent(r.probability)) for r in odds.rows],
        assumptions=odds_assumptions(hd.setup, schedule),
    )


def default_group(hd: HandDeck) -> str:
    """The group a panel opens with: the game's first card type in the deck, else nothing
    (an empty deck has nothing to ask about)."""
    pile = {hd.sim.cards[i].card_type for i, _n in hd.sim.zones.get(hd.sim.draw_zone, ())}
    return next((f"type:{t.code}" for t in hd.spec.card_types if t.code in pile), "")


def _labelled_errors(form: Any) -> list[tuple[str, str, list[str]]]:
    """(field, its label, reasons) for the 400 answers of the pages."""
    labelled = []
    for name, messages in field_errors(form).items():
        field = form.fields.get(name)
        label = str(field.label) if field is not None and field.label else name
        labelled.append((name, label, messages))
    return labelled


def odds_form_for(
    hd: HandDeck, query: QueryDict, *, default: bool = True, choices: bool = True
) -> OddsForm:
    """The odds form of a request. With ``default``, a question without a group asks about
    the first card type (a panel opens with an answer; the API asks for the group);
    ``choices=False`` skips the group select's options, for answers that do not show it."""
    data = query.copy()
    if default and not data.get("group"):
        data["group"] = default_group(hd)
    # numbers left out take their defaults, and the form shows them
    defaults = {"k": DEFAULT_K, "turns": DEFAULT_ODDS_TURNS, **hd.setup.params.defaults}
    for name, value in defaults.items():
        if data.get(name) in (None, ""):
            data[name] = str(value)
    return OddsForm(data, setup=hd.setup, spec=hd.spec, deck=hd.sim, choices=choices)


def _odds_context(hd: HandDeck, form: OddsForm) -> dict[str, Any]:
    empty = not hd.sim.size
    # an empty deck has nothing to ask about: the panel says so rather than refuse
    valid = form.is_valid() and not empty
    return {
        "deck": hd.deck,
        "odds_form": form,
        "odds_url": _odds_url(hd.deck),
        "odds": odds_result(hd, form) if valid else None,
        "odds_errors": [] if valid or empty else _labelled_errors(form),
        "odds_empty": empty,
    }


@require_safe
def odds(request: HttpRequest, public_id: str) -> HttpResponse:
    """The odds panel: its own page, the panel alone (``?panel=1`` from htmx, for the deck
    page to load lazily), or just the result table (the panel's own htmx requests)."""
    hd = hand_deck(deck_get_for_viewer(public_id=public_id, user=request.user))
    template = "odds.html"
    if is_htmx(request):
        template = "_odds_panel.html" if request.GET.get("panel") else "_odds_result.html"
    # the result alone shows no select, so it needs none of its options
    form = odds_form_for(hd, request.GET, choices=template != "_odds_result.html")
    context = _odds_context(hd, form)
    context["test_hand_url"] = _test_hand_url(hd.deck)
    status = 400 if context["odds_errors"] else 200
    return render(request, f"simulator/testhand/{template}", context, status=status)
