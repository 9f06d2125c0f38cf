"""The catalog editors' pages: the review queue, a proposal's diff and decision, reverts and
set locks. Every page is for editors (403 for anyone else); a proposal's page answers 404 to
a player who is neither an editor nor its author, so its existence is not given away."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Count, Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST, require_safe

from catalog.models import CardSet, Game
from contributions import services
from contributions.diff import near_duplicates, proposal_diff
from contributions.errors import NotAllowed, ProposalError
from contributions.models import CatalogChange, Proposal, ProposalEvent
from contributions.selectors import review_queue

#: rows of a proposal's diff (and proposals of the queue) per page
DIFF_PAGE = 100
QUEUE_PAGE = 100


def _require_editor(request: HttpRequest) -> None:
    if not services.is_editor(request.user):
        raise PermissionDenied(_("Only catalog editors can review proposals."))


def _get_proposal_for_editor(request: HttpRequest, pk: int) -> Proposal:
    """The proposal, for an editor; its author (not an editor) is refused (403), anyone else
    finds nothing (404)."""
    proposal = get_object_or_404(
        Proposal.objects.select_related("game", "author", "decided_by").prefetch_related(
            Prefetch("events", queryset=ProposalEvent.objects.select_related("actor"))
        ),
        pk=pk,
    )
    if services.is_editor(request.user):
        return proposal
    if proposal.author_id == request.user.pk:
        raise PermissionDenied(_("Only catalog editors can review proposals."))
    raise Http404


def _get_game(slug: str) -> Game:
    return get_object_or_404(Game, slug=slug)


@require_safe
@login_required
def review_home(request: HttpRequest) -> HttpResponse:
    """The games with proposals waiting for an editor, and how many."""
    _require_editor(request)
    games = (
        Game.objects.filter(proposals__state__in=services.WAITING)
        .annotate(waiting=Count("proposals"))
        .order_by("slug")
    )
    return render(request, "contributions/review/index.html", {"games": games})


@require_safe
@login_required
def review_game(request: HttpRequest, game: str) -> HttpResponse:
    """A game's queue: open proposals and those waiting for their author, oldest first; and
    the game's sets with their lock, to lock or unlock one."""
    _require_editor(request)
    the_game = _get_game(game)
    waiting = review_queue(game=the_game, editor=request.user) + list(
        Proposal.objects.filter(game=the_game, state=Proposal.State.CHANGES_REQUESTED)
        .select_related("author", "game")
        .order_by("created_at", "id")
    )
    waiting.sort(key=lambda p: (p.created_at, p.pk))
    page = Paginator(waiting, QUEUE_PAGE).get_page(request.GET.get("page"))
    sets = (
        CardSet.objects.filter(game=the_game, owner__isnull=True)
        .select_related("lock", "lock__locked_by")
        .order_by("-release_date", "code")
    )
    context = {"game": the_game, "page": page, "total": len(waiting), "sets": sets}
    return render(request, "contributions/review/game.html", context)


def _proposal_page(
    request: HttpRequest,
    proposal: Proposal,
    *,
    refused: list[Any] | None = None,
    note_errors: dict[str, str] | None = None,
    status: int = 200,
) -> HttpResponse:
    bundle, problems = services.payload_problems(game=proposal.game, payload=proposal.payload)
    diffs = proposal_diff(proposal.game, bundle)
    page = Paginator(diffs, DIFF_PAGE).get_page(request.GET.get("page"))
    context = {
        "proposal": proposal,
        "game": proposal.game,
        "page": page,
        "rows": len(diffs),
        "problems": problems,
        "duplicates": near_duplicates(proposal.game, bundle),
        "refused": refused or [],
        "note_errors": note_errors or {},
        "waiting": proposal.state in services.WAITING,
        "can_approve": proposal.state == Proposal.State.OPEN
        and proposal.author_id != request.user.pk,
        "own": proposal.author_id == request.user.pk,
        "applied": list(proposal.changes.order_by("id"))
        if proposal.state == Proposal.State.APPROVED
        else [],
    }
    return render(request, "contributions/review/proposal.html", context, status=status)


@require_safe
@login_required
def proposal_review(request: HttpRequest, pk: int) -> HttpResponse:
    proposal = _get_proposal_for_editor(request, pk)
    return _proposal_page(request, proposal)


def _refusal(request: HttpRequest, proposal: Proposal, exc: ProposalError) -> HttpResponse:
    status = 403 if isinstance(exc, NotAllowed) else 400
    notes = {p.where: p.message for p in exc.problems if p.where == "note"}
    others = [p for p in exc.problems if p.where != "note"]
    proposal.refresh_from_db()
    return _proposal_page(request, proposal, refused=others, note_errors=notes, status=status)


@require_POST
@login_required
def proposal_approve(request: HttpRequest, pk: int) -> HttpResponse:
    proposal = _get_proposal_for_editor(request, pk)
    try:
        changes = services.proposal_approve(
            proposal=proposal, editor=request.user, note=request.POST.get("note", "")
        )
    except ProposalError as exc:
        return _refusal(request, proposal, exc)
    count = len(changes)
    text = ngettext(
        "Approved: %(count)d catalog row changed.",
        "Approved: %(count)d catalog rows changed.",
        count,
    )
    messages.success(request, text % {"count": count})
    return redirect("contributions:review-proposal", pk=proposal.pk)


@require_POST
@login_required
def proposal_reject(request: HttpRequest, pk: int) -> HttpResponse:
    return _send_back(
        request, pk, services.proposal_reject, _("Rejected; the contributor sees your note.")
    )


@require_POST
@login_required
def proposal_ask(request: HttpRequest, pk: int) -> HttpResponse:
    return _send_back(
        request, pk, services.proposal_ask, _("Sent back to the contributor with your note.")
    )


def _send_back(
    request: HttpRequest, pk: int, decide: Callable[..., Any], done: str
) -> HttpResponse:
    """A decision that returns the proposal to its author with the editor's note (reject, ask
    for a change), then the game's queue."""
    proposal = _get_proposal_for_editor(request, pk)
    try:
        decide(proposal=proposal, editor=request.user, note=request.POST.get("note", ""))
    except ProposalError as exc:
        return _refusal(request, proposal, exc)
    messages.success(request, done)
    return redirect("contributions:review-game", game=proposal.game.slug)


@require_POST
@login_required
def proposal_revert(request: HttpRequest, pk: int) -> HttpResponse:
    proposal = _get_proposal_for_editor(request, pk)
    try:
        reverts = services.proposal_revert(proposal=proposal, editor=request.user)
    except ProposalError as exc:
        return _refusal(request, proposal, exc)
    count = len(reverts)
    text = ngettext(
        "Reverted: %(count)d catalog row restored.",
        "Reverted: %(count)d catalog rows restored.",
        count,
    )
    messages.success(request, text % {"count": count})
    return redirect("contributions:review-proposal", pk=proposal.pk)


def _back(request: HttpRequest, change: CatalogChange) -> str:
    """Where a revert returns: the page it was asked from (this site only), else the card."""
    wanted = request.POST.get("next", "")
    if wanted and url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return wanted
    if change.object_kind in ("card", "printing"):
        code = change.object_code.split("/", 1)[0]
        return reverse("catalog:card", args=[change.game.slug, code])
    return reverse("contributions:review-game", args=[change.game.slug])


@require_POST
@login_required
def change_revert(request: HttpRequest, pk: int) -> HttpResponse:
    """Revert one change (from the card's history); a refusal ("used by 3 decks") is shown on
    the page the editor came from."""
    _require_editor(request)
    change = get_object_or_404(CatalogChange.objects.select_related("game"), pk=pk)
    try:
        services.change_revert(change=change, editor=request.user)
    except ProposalError as exc:
        for problem in exc.problems:
            messages.error(request, problem.message)
    else:
        messages.success(request, _("The change was reverted."))
        if change.object_kind == "card" and change.before is None:
            # the revert removed the card: its page is gone, show its game instead
            return redirect(change.game.get_absolute_url())
    return redirect(_back(request, change))


def _lock_action(request: HttpRequest, game: str, code: str, *, lock: bool) -> HttpResponse:
    _require_editor(request)
    card_set = get_object_or_404(CardSet, game__slug=game, code=code, owner__isnull=True)
    try:
        if lock:
            services.set_lock(
                card_set=card_set, editor=request.user, note=request.POST.get("note", "")
            )
            messages.success(request, _("Set “%(set)s” is locked.") % {"set": card_set.name})
        else:
            services.set_unlock(card_set=card_set, editor=request.user)
            messages.success(request, _("Set “%(set)s” is unlocked.") % {"set": card_set.name})
    except ProposalError as exc:
        for problem in exc.problems:
            messages.error(request, problem.message)
    return redirect("contributions:review-game", game=game)


@require_POST
@login_required
def set_lock(request: HttpRequest, game: str, code: str) -> HttpResponse:
    return _lock_action(request, game, code, lock=True)


@require_POST
@login_required
def set_unlock(request: HttpRequest, game: str, code: str) -> HttpResponse:
    return _lock_action(request, game, code, lock=False)


urlpatterns = [
    path("review/", review_home, name="review"),
    path("review/proposals/<int:pk>/", proposal_review, name="review-proposal"),
    path("review/proposals/<int:pk>/approve/", proposal_approve, name="review-approve"),
    path("review/proposals/<int:pk>/reject/", proposal_reject, name="review-reject"),
    path("review/proposals/<int:pk>/ask/", proposal_ask, name="review-ask"),
    path("review/proposals/<int:pk>/revert/", proposal_revert, name="review-revert"),
    path("review/changes/<int:pk>/revert/", change_revert, name="change-revert"),
    path("review/<slug:game>/", review_game, name="review-game"),
    path("review/<slug:game>/sets/<slug:code>/lock/", set_lock, name="set-lock"),
    path("review/<slug:game>/sets/<slug:code>/unlock/", set_unlock, name="set-unlock"),
]
