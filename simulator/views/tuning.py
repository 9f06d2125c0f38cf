"""Deck tuning pages: start one from a deck's simulation page, follow it as the field
narrows (the page polls itself with htmx while the race goes on, like a run's page), apply a
move to the deck, cancel it.

A tuning is private to its owner, as a run is (404 to anyone else). Applying a move changes
the deck, so only the deck's owner may (the tuning of someone's public deck is read, not
applied). docs/tuning.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import HttpResponseStopPolling

from decks.selectors import deck_get_for_viewer
from decks.views.access import is_htmx
from simulator.decks import sim_deck_for
from simulator.selectors import engine_get, tuning_get_for_owner
from simulator.services import RunError
from simulator.tuning.forms import TuningForm
from simulator.tuning.outcome import move_text, tuning_apply_outcome
from simulator.tuning.report import (
    BEHIND,
    CLOSE,
    DROPPED,
    LEADER,
    MoveRow,
    TuningReport,
    tuning_report_on_read,
)
from simulator.tuning.services import tuning_cancel, tuning_create
from simulator.views.forest import ForestRow, forest
from simulator.views.pages import game_name, simulate_page


@dataclass(frozen=True)
class Shown:
    """A figure in the goal's units as the page shows it: a rate in per cent (its effects in
    percentage points), a mean as it is."""

    value: float | None
    low: float | None
    high: float | None
    decimals: int = 2
    #: a change (signed) rather than a level
    signed: bool = False

    def _text(self, value: float | None) -> str:
        if value is None:
            return "–"
        text = f"{value:+.{self.decimals}f}" if self.signed else f"{value:.{self.decimals}f}"
        return text.replace("-", "−")

    @property
    def text(self) -> str:
        return self._text(self.value)

    @property
    def low_text(self) -> str:
        return self._text(self.low)

    @property
    def high_text(self) -> str:
        return self._text(self.high)


@dataclass(frozen=True)
class RowView:
    row: MoveRow
    move: str
    #: the change the move makes to the goal, in the goal's own direction (a faster win is
    #: a negative change of "the turn of the win")
    change: Shown
    standing: str


def standing_text(row: MoveRow) -> str:
    if row.standing == LEADER:
        return _("best")
    if row.standing == CLOSE:
        return _("cannot be told apart from the best")
    if row.standing == BEHIND:
        return _("behind")
    if row.standing == DROPPED:
        return _("dropped after round %(round)s") % {"round": row.dropped_in}
    return row.standing


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


def _change(row: MoveRow, direction: int, scale: float, decimals: int) -> Shown:
    # the race stores each effect as "better is positive"; the page says the goal's change
    effect = row.effect
    low, high = (effect.low, effect.high) if direction > 0 else (-effect.high, -effect.low)
    return Shown(
        _finite(effect.value * direction * scale),
        _finite(low * scale),
        _finite(high * scale),
        decimals=decimals,
        signed=True,
    )


def tuning_context(report: TuningReport, user: Any) -> dict[str, Any]:
    job = report.job
    goal = report.goal
    percent = goal is not None and goal.kind == "rate"
    scale = 100.0 if percent else 1.0
    # a rate's change in percentage points to 2 places; a mean's (turns, damage) to 3
    decimals = 2 if percent else 3
    direction = goal.direction if goal is not None else 1
    rows = [
        RowView(
            row=row,
            move=move_text(row.cut, row.add),
            change=_change(row, direction, scale, decimals),
            standing=standing_text(row),
        )
        for row in report.rows
    ]
    base = report.baseline
    chart = forest(
        [
            ForestRow(r.move, r.row.standing, r.change.value, r.change.low, r.change.high)
            for r in rows
            if r.change.value is not None and r.change.low is not None and r.change.high is not None
        ]
    )
    return {
        "job": job,
        "report": report,
        "game_name": game_name(job.game),
        "rows": rows,
        "chart": chart,
        "percent": percent,
        "higher_is_better": direction > 0,
        "baseline": Shown(
            _finite(base.value * scale),
            _finite(base.low * scale),
            _finite(base.high * scale),
            decimals=1 if percent else 2,
        ),
        "budget_percent": min(100, report.state.spent * 100 // max(1, report.state.budget)),
        "round_number": report.state.rounds + (0 if job.is_finished else 1),
        "can_apply": job.is_finished
        and job.deck is not None
        and user.is_authenticated
        and job.deck.owner_id == user.pk,
    }


@login_required
@require_POST
def tune(request: HttpRequest, public_id: str) -> HttpResponse:
    """Start a tuning of a deck the player can see, as it is now."""
    deck = deck_get_for_viewer(public_id=public_id, user=request.user)
    engine = engine_get(deck.game.slug)
    if engine is None:
        raise Http404
    sim_deck = sim_deck_for(deck, language=get_language() or "en")
    form = TuningForm(request.POST, engine=engine, sim_deck=sim_deck)
    if form.is_valid():
        try:
            job = tuning_create(owner=request.user, deck=deck, **form.service_kwargs())
        except RunError as exc:
            form.add_run_errors(exc.errors)
        else:
            return redirect(job)
    return simulate_page(request, deck, engine, tuning_form=form, status=400)


@login_required
@require_safe
def tuning_detail(request: HttpRequest, public_id: str) -> HttpResponse:
    job = tuning_get_for_owner(public_id=public_id, user=request.user)
    context = tuning_context(tuning_report_on_read(job), request.user)
    if is_htmx(request):
        response = render(request, "simulator/_tuning_status.html", context)
        if job.is_finished:
            # 286 tells htmx to stop polling; the fragment has no trigger either.
            return HttpResponseStopPolling(response.content)
        return response
    return render(request, "simulator/tuning.html", context)


@login_required
@require_POST
def tuning_cancel_view(request: HttpRequest, public_id: str) -> HttpResponse:
    job = tuning_get_for_owner(public_id=public_id, user=request.user)
    if tuning_cancel(job=job):
        messages.info(request, _("The tuning was cancelled."))
    return redirect(job)


@login_required
@require_POST
def tuning_apply_view(request: HttpRequest, public_id: str) -> HttpResponse:
    job = tuning_get_for_owner(public_id=public_id, user=request.user)
    if job.deck is None or job.deck.owner_id != request.user.pk:
        raise Http404  # only the deck's owner changes it
    try:
        index = int(request.POST.get("move", ""))
    except ValueError:
        index = -1
    try:
        outcome = tuning_apply_outcome(job=job, index=index, user=request.user)
    except RunError as exc:
        for field_messages in exc.errors.values():
            for message in field_messages:
                messages.error(request, str(message))
        return redirect(job)
    messages.success(request, outcome.message)
    return redirect(outcome.deck)
