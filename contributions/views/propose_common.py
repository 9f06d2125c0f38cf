"""What the player's contribution pages share: fetching a game or a proposal once with its
access check, and turning a refused submission into messages beside the form's fields."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django import forms
from django.http import Http404, HttpRequest

from catalog.importers.bundle import ImportProblem
from catalog.models import Game
from catalog.spec import GameSpec, get_game, is_game
from contributions.errors import ProposalError, RateLimited
from contributions.models import Proposal
from contributions.services import is_editor

#: the form field classes of the site's Bootstrap layout, by widget
_SELECTS = (forms.Select, forms.SelectMultiple)


def game_or_404(slug: str) -> tuple[Game, GameSpec]:
    """The game's row and its declaration; 404 for an unknown game or one with no catalog."""
    if not is_game(slug):
        raise Http404
    game = Game.objects.filter(slug=slug).first()
    if game is None:
        raise Http404
    return game, get_game(slug)


def get_proposal_for_user(request: HttpRequest, proposal_id: int) -> Proposal:
    """The proposal, when the user wrote it or edits the catalog: 404 to anyone else (a
    stranger does not learn that the number exists)."""
    proposal = (
        Proposal.objects.select_related("game", "author", "decided_by")
        .filter(pk=proposal_id)
        .first()
    )
    if proposal is None:
        raise Http404
    if proposal.author_id != request.user.pk and not is_editor(request.user):
        raise Http404
    return proposal


FormT = TypeVar("FormT", bound=forms.Form)


def styled(form: FormT) -> FormT:
    """The form's widgets with the site's Bootstrap classes (the generated forms set none)."""
    for field in form.fields.values():
        widget = field.widget
        css = "form-select" if isinstance(widget, _SELECTS) else "form-control"
        if isinstance(widget, forms.CheckboxInput):
            css = "form-check-input"
        widget.attrs.setdefault("class", css)
    return form


def place_problems(form: forms.Form | None, problems: list[ImportProblem]) -> list[ImportProblem]:
    """Each problem beside its field when the form has one; the others, returned to be listed
    with their place."""
    unplaced: list[ImportProblem] = []
    for problem in problems:
        if form is not None and problem.where in form.fields:
            form.add_error(problem.where, problem.message)
        else:
            unplaced.append(problem)
    return unplaced


def try_submit(
    action: Callable[[], Proposal], form: forms.Form | None
) -> tuple[Proposal | None, list[ImportProblem], int]:
    """Run a submission: (the proposal, [], 200) or (None, problems left to list, status).

    A rate limit answers 429; any other refusal re-renders the page (200) with each problem
    shown, as an invalid form does."""
    try:
        return action(), [], 200
    except RateLimited as exc:
        return None, place_problems(form, exc.problems), 429
    except ProposalError as exc:
        return None, place_problems(form, exc.problems), 200


def source_initial(proposal: Proposal) -> dict[str, Any]:
    return {
        "source_kind": proposal.source_kind,
        "source_detail": proposal.source_detail,
        "source_url": proposal.source_url,
        "reason": proposal.reason,
    }
