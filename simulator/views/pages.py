"""Simulation pages: the form for a deck, a run's page (progress, then results), cancel,
replay and the player's list of runs.

A player may simulate any deck they can see. A run's page is its owner's, and anyone with its
link may read it when its deck is public or unlisted (404 otherwise, as for private decks);
only the owner cancels or replays it. The run page polls itself with htmx while the run is
going; the fragment of a finished run carries no trigger (and answers 286), so polling stops.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseStopPolling

from catalog.spec import get_game, is_game
from decks.models import Deck
from decks.selectors import deck_get_for_viewer
from decks.views.access import is_htmx
from simulator.cost import MAX_RUN_WORKER_SECONDS, run_estimate
from simulator.engine.engine import Engine
from simulator.forms import SimulateForm
from simulator.models import SimulationRun
from simulator.selectors import engine_get, run_get_for_owner, run_get_for_viewer, runs_of_owner
from simulator.services import DEFAULT_GAMES, RunError, run_cancel, run_create, run_replay
from simulator.supervisor import run_supervise_on_read
from simulator.tuning.forms import TuningForm
from simulator.views.results import results_view
from simulator.views.tuning_section import tuning_section

RUNS_PER_PAGE = 50


def game_name(slug: str) -> str:
    if not is_game(slug):
        return slug
    spec = get_game(slug)
    japanese = (get_language() or "en").startswith("ja")
    return (spec.name_ja or spec.name_en) if japanese else spec.name_en


def _param_rows(run: SimulationRun, engine: Engine[Any, Any] | None) -> list[tuple[str, Any]]:
    if engine is None:
        return sorted(run.params.items())
    rows = []
    for param in engine.params.params:
        value = run.params.get(param.name, param.default)
        if param.kind == "choice":
            value = _(dict(param.choices).get(value, str(value)))
        rows.append((_(param.label), value))
    return rows


def _run_context(run: SimulationRun) -> dict[str, Any]:
    engine = engine_get(run.engine)
    context: dict[str, Any] = {
        "run": run,
        "engine": engine,
        "game_name": game_name(run.game),
        "param_rows": _param_rows(run, engine),
    }
    if run.results:
        context["results"] = results_view(run.results.get("summary") or {}, engine)
        wall = run.wall_seconds
        context["games_per_second"] = run.games / wall if wall else None
    if engine is not None:
        context["not_modelled"] = [_(line) for line in engine.not_modelled]
        context["assumptions"] = [_(line) for line in engine.assumptions]
        context["cites"] = list(engine.cites)
        context["engine_changed"] = engine.version != run.engine_version
    return context


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def simulate(request: HttpRequest, public_id: str) -> HttpResponse:
    deck = deck_get_for_viewer(public_id=public_id, user=request.user)
    engine = engine_get(deck.game.slug)
    if engine is None or request.method != "POST":
        return simulate_page(request, deck, engine)
    form = SimulateForm(request.POST, engine=engine)
    if form.is_valid():
        try:
            run = run_create(
                owner=request.user,
                deck=deck,
                engine_slug=engine.slug,
                params=form.params(),
                games=form.cleaned_data["games"],
                seed=form.cleaned_data["seed"],
            )
        except RunError as exc:
            form.add_run_errors(exc.errors)
        else:
            return redirect(run)
    return simulate_page(request, deck, engine, form=form, status=400)


def simulate_page(
    request: HttpRequest,
    deck: Deck,
    engine: Engine[Any, Any] | None,
    *,
    form: SimulateForm | None = None,
    tuning_form: TuningForm | None = None,
    status: int = 200,
) -> HttpResponse:
    """A deck's simulation page: the run form and the "Improve this deck" section (either
    form bound when the player sent it back with errors)."""
    context: dict[str, Any] = {
        "deck": deck,
        "engine": engine,
        "game_name": game_name(deck.game.slug),
    }
    if engine is None:
        return render(request, "simulator/simulate.html", context, status=status)
    # What a run costs, said before it starts (with the default settings; the form refuses a
    # run beyond the bound with the actual ones).
    estimate = run_estimate(engine, engine.params.clean({}), DEFAULT_GAMES)
    context |= {
        "estimate": estimate,
        "estimate_games": DEFAULT_GAMES,
        "max_run_minutes": MAX_RUN_WORKER_SECONDS / 60,
        "form": form or SimulateForm(engine=engine),
        "not_modelled": [_(line) for line in engine.not_modelled],
        "assumptions": [_(line) for line in engine.assumptions],
        "cites": list(engine.cites),
    }
    context |= tuning_section(request, deck, engine, tuning_form)
    return render(request, "simulator/simulate.html", context, status=status)


@require_safe
def run_detail(request: HttpRequest, public_id: str) -> HttpResponse:
    # No login needed: a run on a public or unlisted deck is shared by its link.
    run = run_get_for_viewer(public_id=public_id, user=request.user)
    # The page polls every second: each poll also sweeps this run (lost workers, lost messages).
    run = run_supervise_on_read(run)
    context = _run_context(run)
    context["is_owner"] = request.user.is_authenticated and run.owner_id == request.user.pk
    if is_htmx(request):
        response = render(request, "simulator/_run_status.html", context)
        if run.is_finished:
            # 286 tells htmx to stop polling; the fragment has no trigger either.
            return HttpResponseStopPolling(response.content)
        return response
    return render(request, "simulator/run.html", context)


@login_required
@require_POST
def cancel(request: HttpRequest, public_id: str) -> HttpResponse:
    run = run_get_for_owner(public_id=public_id, user=request.user)
    cancelled = run_cancel(run=run)
    if is_htmx(request):
        run.refresh_from_db()
        context = _run_context(run) | {"is_owner": True}
        fragment = render(request, "simulator/_run_status.html", context)
        return HttpResponseStopPolling(fragment.content)
    if cancelled:
        messages.info(request, _("The simulation was cancelled."))
    return redirect(run)


@login_required
@require_POST
def replay(request: HttpRequest, public_id: str) -> HttpResponse:
    run = run_get_for_owner(public_id=public_id, user=request.user)
    try:
        again = run_replay(run=run, owner=request.user)
    except RunError as exc:
        for field_messages in exc.errors.values():
            for message in field_messages:
                messages.error(request, str(message))
        return redirect(run)
    return redirect(again)


@login_required
@require_safe
def runs(request: HttpRequest) -> HttpResponse:
    page = Paginator(runs_of_owner(user=request.user), RUNS_PER_PAGE).get_page(
        request.GET.get("page")
    )
    return render(request, "simulator/runs.html", {"page": page})
