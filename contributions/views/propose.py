"""The pages where a signed-in player proposes catalog facts and follows their proposals.

The forms are ``contributions.forms`` (generated from the game's declaration) and every write
is ``contributions.services``; the sheets' pages are ``propose_sheet``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import URLPattern, path
from django.views.decorators.http import require_POST

from catalog.attributes import StringListField
from catalog.models import Card, Game
from catalog.spec import all_games
from contributions.errors import ProposalError
from contributions.forms import (
    CARD_ATTR,
    PRINTING_ATTR,
    card_proposal_form,
    correction_form,
    names_form,
    set_proposal_form,
)
from contributions.models import Proposal
from contributions.proposal_form import ProposalForm
from contributions.selectors import proposals_of
from contributions.services import WAITING, proposal_resubmit, proposal_submit, proposal_withdraw
from contributions.views import propose_sheet
from contributions.views.propose_common import (
    game_or_404,
    get_proposal_for_user,
    source_initial,
    styled,
    try_submit,
)

FORM_TEMPLATE = "contributions/propose/form.html"


# --- the home and a proposal's page -----------------------------------------------------------


@login_required
def home(request: HttpRequest) -> HttpResponse:
    """Per game, what can be proposed; then the player's own proposals."""
    known = {game.slug: game for game in Game.objects.all()}
    games = [(spec, known[spec.slug]) for spec in all_games() if spec.slug in known]
    context = {"games": games, "proposals": proposals_of(user=request.user)}
    return render(request, "contributions/propose/home.html", context)


def _rows(value: Any) -> list[dict[str, Any]]:
    return [row for row in value if isinstance(row, dict)] if isinstance(value, list) else []


def _pairs(value: Any) -> list[tuple[str, Any]]:
    return [(str(k), v) for k, v in value.items()] if isinstance(value, dict) else []


def payload_view(payload: Any) -> dict[str, list[dict[str, Any]]]:
    """The payload as the page lists it: sets, cards with their printings, products; a
    payload of an unexpected shape shows what it can (it was checked when submitted)."""
    data = payload if isinstance(payload, dict) else {}
    cards = []
    for card in _rows(data.get("cards")):
        printings = [
            {**printing, "attribute_pairs": _pairs(printing.get("attributes"))}
            for printing in _rows(card.get("printings"))
        ]
        cards.append(
            {**card, "attribute_pairs": _pairs(card.get("attributes")), "printing_rows": printings}
        )
    products = [
        {**product, "item_rows": _rows(product.get("items"))}
        for product in _rows(data.get("products"))
    ]
    return {"sets": _rows(data.get("sets")), "cards": cards, "products": products}


@login_required
def proposal_detail(request: HttpRequest, proposal_id: int) -> HttpResponse:
    proposal = get_proposal_for_user(request, proposal_id)
    mine = proposal.author_id == request.user.pk
    context = {
        "proposal": proposal,
        "payload": payload_view(proposal.payload),
        "events": list(proposal.events.select_related("actor")),
        "can_withdraw": mine and proposal.state in WAITING,
        "can_resubmit": mine and proposal.state == Proposal.State.CHANGES_REQUESTED,
    }
    return render(request, "contributions/propose/proposal.html", context)


@login_required
@require_POST
def proposal_withdraw_page(request: HttpRequest, proposal_id: int) -> HttpResponse:
    proposal = get_proposal_for_user(request, proposal_id)
    try:
        proposal_withdraw(
            proposal=proposal, author=request.user, note=request.POST.get("note", "")[:2000]
        )
    except ProposalError as exc:
        context = {"proposal": proposal, "problems": exc.problems}
        return render(request, "contributions/propose/refused.html", context, status=403)
    return redirect("contributions:proposal", proposal.pk)


# --- resubmitting after "changes requested" ---------------------------------------------------


def _field_value(field: forms.Field, value: Any) -> Any:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(field, StringListField) and isinstance(value, list):
        return ", ".join(str(item) for item in value)
    return value


def _attribute_initial(form: forms.Form, prefix: str, attributes: Any) -> dict[str, Any]:
    return {
        prefix + key: _field_value(form.fields[prefix + key], value)
        for key, value in _pairs(attributes)
        if prefix + key in form.fields
    }


def _card_initial(form: forms.Form, card: dict[str, Any]) -> dict[str, Any]:
    """A card row of a payload as the values of a card or correction form."""
    initial: dict[str, Any] = {
        name: card[name] for name in ("code", "name_en", "name_ja", "copy_limit") if name in card
    }
    initial.update(_attribute_initial(form, CARD_ATTR, card.get("attributes")))
    printings = _rows(card.get("printings"))
    if printings and "set" in form.fields:
        first = printings[0]
        initial.update({"set": first.get("set"), "number": first.get("number")})
        initial["variant"] = first.get("variant", "")
        initial.update(_attribute_initial(form, PRINTING_ATTR, first.get("attributes")))
    return initial


def _resubmit_form(proposal: Proposal, data: Any) -> ProposalForm | None:
    """The form the proposal was made with, showing its payload; None for a sheet (a new
    sheet is uploaded instead) or a payload no form can show."""
    payload = payload_view(proposal.payload)
    slug = proposal.game.slug
    form: ProposalForm
    if proposal.kind == Proposal.Kind.CARD and payload["cards"]:
        card = payload["cards"][0]
        try:
            form = card_proposal_form(slug, str(card.get("type", "")), data)
        except LookupError:
            return None
        initial = _card_initial(form, card)
    elif proposal.kind == Proposal.Kind.SET and payload["sets"]:
        form = set_proposal_form(slug, data)
        row = payload["sets"][0]
        initial = {k: row[k] for k in ("code", "name_en", "name_ja", "kind") if k in row}
        initial["official_size"] = row.get("official_size")
        initial["release_date"] = row.get("released")
    elif proposal.kind in (Proposal.Kind.CORRECTION, Proposal.Kind.NAMES):
        target = Card.objects.filter(
            game=proposal.game, code=proposal.target_code, owner__isnull=True
        ).first()
        if target is None or not payload["cards"]:
            return None
        make = correction_form if proposal.kind == Proposal.Kind.CORRECTION else names_form
        form = make(target, data)
        initial = _card_initial(form, payload["cards"][0])
    else:
        return None
    form.initial = {**initial, **source_initial(proposal)}
    return form


@login_required
def proposal_resubmit_page(request: HttpRequest, proposal_id: int) -> HttpResponse:
    proposal = get_proposal_for_user(request, proposal_id)
    if proposal.author_id != request.user.pk or proposal.state != Proposal.State.CHANGES_REQUESTED:
        raise Http404
    if proposal.kind in (Proposal.Kind.SHEET, Proposal.Kind.NAMES) and not proposal.target_code:
        return redirect(propose_sheet.resubmit_url(proposal))
    form = _resubmit_form(proposal, request.POST if request.method == "POST" else None)
    if form is None:
        raise Http404
    styled(form)
    problems: list[Any] = []
    status = 200
    if request.method == "POST" and form.is_valid():
        note = request.POST.get("note", "")[:2000]
        done, problems, status = try_submit(
            lambda: proposal_resubmit(
                proposal=proposal, author=request.user, payload=form.bundle(), note=note
            ),
            form,
        )
        if done is not None:
            return redirect("contributions:proposal", proposal.pk)
    context = {
        "form": form,
        "game": proposal.game,
        "proposal": proposal,
        "problems": problems,
        "resubmit": True,
    }
    return render(request, FORM_TEMPLATE, context, status=status)


# --- proposing with a form --------------------------------------------------------------------


def _form_page(
    request: HttpRequest,
    game: Game,
    make: Callable[[Any], ProposalForm],
    extra: dict[str, Any],
) -> HttpResponse:
    """Show the form; on a valid POST submit it and go to the proposal's page."""
    form = styled(make(request.POST if request.method == "POST" else None))
    problems: list[Any] = []
    status = 200
    if request.method == "POST" and form.is_valid():
        fields = form.proposal_fields()
        proposal, problems, status = try_submit(
            lambda: proposal_submit(author=request.user, game=game, **fields), form
        )
        if proposal is not None:
            return redirect("contributions:proposal", proposal.pk)
    context = {"form": form, "game": game, "problems": problems, **extra}
    return render(request, FORM_TEMPLATE, context, status=status)


@login_required
def card_types(request: HttpRequest, game: str) -> HttpResponse:
    row, spec = game_or_404(game)
    context = {"game": row, "spec": spec, "card_types": spec.card_types}
    return render(request, "contributions/propose/card_types.html", context)


@login_required
def propose_card(request: HttpRequest, game: str, card_type: str) -> HttpResponse:
    row, spec = game_or_404(game)
    found = spec.card_type(card_type)
    if found is None:
        raise Http404
    return _form_page(
        request,
        row,
        lambda data: card_proposal_form(spec.slug, found.code, data),
        {"what": "card", "card_type": found},
    )


@login_required
def propose_set(request: HttpRequest, game: str) -> HttpResponse:
    row, spec = game_or_404(game)
    return _form_page(
        request, row, lambda data: set_proposal_form(spec.slug, data), {"what": "set"}
    )


def _card_or_404(game: Game, code: str) -> Card:
    card = Card.objects.filter(game=game, code=code, owner__isnull=True).first()
    if card is None:
        raise Http404
    return card


@login_required
def correct_card(request: HttpRequest, game: str, code: str) -> HttpResponse:
    row, _spec = game_or_404(game)
    card = _card_or_404(row, code)
    return _form_page(
        request, row, lambda data: correction_form(card, data), {"what": "correct", "card": card}
    )


@login_required
def card_names(request: HttpRequest, game: str, code: str) -> HttpResponse:
    row, _spec = game_or_404(game)
    card = _card_or_404(row, code)
    return _form_page(
        request, row, lambda data: names_form(card, data), {"what": "names", "card": card}
    )


urlpatterns: list[URLPattern] = [
    path("", home, name="home"),
    path("proposals/<int:proposal_id>/", proposal_detail, name="proposal"),
    path("proposals/<int:proposal_id>/withdraw/", proposal_withdraw_page, name="proposal-withdraw"),
    path("proposals/<int:proposal_id>/resubmit/", proposal_resubmit_page, name="proposal-resubmit"),
    path("<slug:game>/card/", card_types, name="propose-card-types"),
    path("<slug:game>/card/<str:card_type>/", propose_card, name="propose-card"),
    path("<slug:game>/set/", propose_set, name="propose-set"),
    path("<slug:game>/cards/<str:code>/correct/", correct_card, name="correct"),
    path("<slug:game>/cards/<str:code>/names/", card_names, name="names"),
    *propose_sheet.urlpatterns,
]
