"""The editors' merge page: merge a duplicate card into the card it duplicates, by their codes,
and see the game's latest merges with what each moved, each with its Revert button (the revert
goes through the history's own revert, contributions.views.review.change_revert).

For editors only: 403 to any other player, as the review pages."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import URLPattern, path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from catalog.models import Game
from contributions.errors import ProposalError
from contributions.merge_requests import MergeSummary, card_merge_by_codes, merge_summary, merges_of
from contributions.services import is_editor
from contributions.views.propose_common import place_problems, styled

TEMPLATE = "contributions/review/merge.html"


class MergeForm(forms.Form):
    duplicate = forms.CharField(
        label=gettext_lazy("Duplicate card (its code)"),
        max_length=100,
        help_text=gettext_lazy("The card that goes: its decks, collections and wishes move."),
    )
    into = forms.CharField(label=gettext_lazy("Card that stays (its code)"), max_length=100)
    reason = forms.CharField(
        label=gettext_lazy("Why they are the same card"),
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


def _require_editor(request: HttpRequest) -> None:
    if not is_editor(request.user):
        raise PermissionDenied(_("Only catalog editors can merge cards."))


def _done(summary: MergeSummary) -> str:
    return _(
        "“%(duplicate)s” was merged into “%(into)s” (deck entries moved: %(entries)d; "
        "collection items moved: %(items)d)."
    ) % {
        "duplicate": summary.duplicate,
        "into": summary.into,
        "entries": summary.deck_entries,
        "items": summary.collection_items,
    }


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def merge_page(request: HttpRequest, game: str) -> HttpResponse:
    """The form (``?duplicate=`` and ``?into=`` fill it in) and the game's latest merges; a
    refused merge is shown on the form (400) and changes nothing."""
    _require_editor(request)
    the_game = get_object_or_404(Game, slug=game)
    posted = request.method == "POST"
    initial = {key: request.GET.get(key, "") for key in ("duplicate", "into")}
    form = styled(MergeForm(request.POST if posted else None, initial=initial))
    problems: list[Any] = []
    status = 200
    if posted:
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            try:
                change = card_merge_by_codes(
                    game=the_game,
                    duplicate=data["duplicate"],
                    into=data["into"],
                    editor=request.user,
                    reason=data["reason"],
                )
            except ProposalError as exc:
                problems = place_problems(form, exc.problems)
            else:
                summary = merge_summary(change)
                messages.success(request, _done(summary))
                return redirect("catalog:card", the_game.slug, summary.into)
    context = {
        "game": the_game,
        "form": form,
        "problems": problems,
        "merges": merges_of(game=the_game, editor=request.user),
    }
    return render(request, TEMPLATE, context, status=status)


urlpatterns: list[URLPattern] = [
    path("review/<slug:game>/merge/", merge_page, name="merge"),
]
