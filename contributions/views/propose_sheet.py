"""The sheet pages: download a game's card sheet (or a set's names sheet), upload it filled,
see every problem or a preview, and confirm to propose it.

Between the preview and the confirmation the sheet's text travels in the page (a hidden
field), and the confirmation checks it again from scratch: what is proposed is always what
the checker passed, whatever the browser sends back."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import URLPattern, path, reverse
from django.utils.translation import gettext_lazy as _

from catalog.models import CardSet, Game
from catalog.spec import GameSpec
from collection.interchange.read import decode
from contributions.form_fields import (
    LABEL_SOURCE_DETAIL,
    LABEL_SOURCE_KIND,
    LABEL_SOURCE_URL,
    MAX_SOURCE,
    SOURCE_KINDS,
)
from contributions.models import Proposal
from contributions.payload import bundle_to_data
from contributions.services import WAITING, proposal_resubmit, proposal_submit
from contributions.sheet import (
    names_sheet_check,
    names_sheet_template,
    sheet_check,
    sheet_template,
)
from contributions.views.propose_common import (
    game_or_404,
    get_proposal_for_user,
    styled,
    try_submit,
)

TEMPLATE = "contributions/propose/sheet.html"
#: rows of a clean sheet shown in its preview
PREVIEW_ROWS = 20

NEEDS_A_FILE = _("Choose the CSV file to check.")
TOO_BIG = _("The file is larger than %(max)d KB.")
NOT_TEXT = _("The file is not text: save the sheet as CSV (UTF-8 or Shift_JIS).")
LABEL_FILE = _("Filled sheet (CSV)")
LABEL_TITLE = _("Title (optional)")
LABEL_NOTE = _("Note for the editor (optional)")


def max_bytes() -> int:
    """A sheet's size bound: the catalog upload's, and small enough that the confirmation,
    which sends the text back as a form field, fits in a request body."""
    return min(settings.CATALOG_UPLOAD_MAX_BYTES, settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 2)


class SheetForm(forms.Form):
    """The upload (``file``) or the confirmation (``text``, the checked text sent back)."""

    file = forms.FileField(
        label=LABEL_FILE,
        required=False,
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,.txt"}),
    )
    text = forms.CharField(required=False, strip=False, widget=forms.HiddenInput)
    title = forms.CharField(label=LABEL_TITLE, max_length=200, required=False)
    source_kind = forms.ChoiceField(label=LABEL_SOURCE_KIND, choices=SOURCE_KINDS)
    source_detail = forms.CharField(label=LABEL_SOURCE_DETAIL, max_length=MAX_SOURCE)
    source_url = forms.URLField(
        label=LABEL_SOURCE_URL, max_length=500, required=False, assume_scheme="https"
    )
    note = forms.CharField(label=LABEL_NOTE, max_length=2000, required=False)

    def __init__(self, *args: Any, resubmit: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if resubmit:
            # the proposal keeps its source and title; only a note goes with the new sheet
            for name in ("title", "source_kind", "source_detail", "source_url"):
                del self.fields[name]
        else:
            del self.fields["note"]

    def sheet_text(self) -> str | None:
        """The uploaded file's text, or the confirmed text; None with an error added."""
        upload = self.cleaned_data.get("file")
        limit = max_bytes()
        if upload is not None:
            if upload.size is not None and upload.size > limit:
                self.add_error("file", TOO_BIG % {"max": limit // 1024})
                return None
            try:
                return decode(upload.read(limit + 1))
            except ValueError:
                self.add_error("file", NOT_TEXT)
                return None
        text: str = self.cleaned_data.get("text") or ""
        if not text:
            self.add_error("file", NEEDS_A_FILE)
            return None
        if len(text.encode("utf-8", "surrogatepass")) > limit:
            self.add_error("file", TOO_BIG % {"max": limit // 1024})
            return None
        return text


def _sheet_page(
    request: HttpRequest,
    game: Game,
    spec: GameSpec,
    *,
    names: bool,
    proposal: Proposal | None = None,
) -> HttpResponse:
    resubmit = proposal is not None
    posted = request.method == "POST"
    form = styled(
        SheetForm(
            request.POST if posted else None,
            request.FILES if posted else None,
            resubmit=resubmit,
        )
    )
    context: dict[str, Any] = {
        "form": form,
        "game": game,
        "spec": spec,
        "names": names,
        "proposal": proposal,
        "sets": CardSet.objects.filter(game=game, owner__isnull=True).order_by("code"),
        "action": request.path,
    }
    if not posted or not form.is_valid():
        return render(request, TEMPLATE, context)
    text = form.sheet_text()
    if text is None:
        return render(request, TEMPLATE, context)
    result: Any = (
        names_sheet_check(text, game_slug=spec.slug)
        if names
        else sheet_check(text, game_slug=spec.slug)
    )
    context["result"] = result
    if not result.is_clean:
        # nothing is proposed: the table lists every problem
        return render(request, TEMPLATE, context)
    if request.POST.get("step") != "confirm":
        context["text"] = text
        context["preview_cards"] = result.bundle.cards[:PREVIEW_ROWS]
        context["changes"] = getattr(result, "changes", [])[:PREVIEW_ROWS]
        return render(request, TEMPLATE, context)
    payload = bundle_to_data(result.bundle)
    kind = Proposal.Kind.NAMES if names else Proposal.Kind.SHEET
    data = form.cleaned_data
    if proposal is not None:
        note = data.get("note", "")

        def action() -> Proposal:
            return proposal_resubmit(
                proposal=proposal, author=request.user, payload=payload, note=note
            )

    else:
        # a second click on the confirmation finds the proposal the first one made
        same = Proposal.objects.filter(
            author_id=request.user.pk, game=game, kind=kind, state__in=WAITING, payload=payload
        ).first()
        if same is not None:
            return redirect("contributions:proposal", same.pk)

        def action() -> Proposal:
            return proposal_submit(
                author=request.user,
                game=game,
                kind=kind,
                payload=payload,
                title=data.get("title", ""),
                source_kind=data["source_kind"],
                source_detail=data["source_detail"],
                source_url=data.get("source_url", ""),
            )

    done, problems, status = try_submit(action, form)
    if done is not None:
        return redirect("contributions:proposal", done.pk)
    context.update({"problems": problems, "text": text})
    return render(request, TEMPLATE, context, status=status)


def _csv(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text.encode("utf-8"), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _set_of(game: Game, code: str) -> CardSet:
    card_set = CardSet.objects.filter(game=game, code=code, owner__isnull=True).first()
    if card_set is None:
        raise Http404
    return card_set


@login_required
def card_sheet_template(request: HttpRequest, game: str) -> HttpResponse:
    row, spec = game_or_404(game)
    code = request.GET.get("set", "")
    if code:
        code = _set_of(row, code).code
    suffix = f"-{code}" if code else ""
    return _csv(sheet_template(spec.slug, set_code=code), f"{spec.slug}{suffix}-sheet.csv")


@login_required
def card_sheet(request: HttpRequest, game: str) -> HttpResponse:
    row, spec = game_or_404(game)
    return _sheet_page(request, row, spec, names=False)


@login_required
def names_template(request: HttpRequest, game: str) -> HttpResponse:
    row, spec = game_or_404(game)
    card_set = _set_of(row, request.GET.get("set", ""))
    text = names_sheet_template(spec.slug, card_set.code)
    return _csv(text, f"{spec.slug}-{card_set.code}-names.csv")


@login_required
def names_sheet(request: HttpRequest, game: str) -> HttpResponse:
    row, spec = game_or_404(game)
    return _sheet_page(request, row, spec, names=True)


def resubmit_url(proposal: Proposal) -> str:
    return reverse("contributions:proposal-resubmit-sheet", args=[proposal.pk])


@login_required
def sheet_resubmit(request: HttpRequest, proposal_id: int) -> HttpResponse:
    """A new sheet for a sheet proposal the editor asked to change."""
    proposal = get_proposal_for_user(request, proposal_id)
    if (
        proposal.author_id != request.user.pk
        or proposal.state != Proposal.State.CHANGES_REQUESTED
        or proposal.kind not in (Proposal.Kind.SHEET, Proposal.Kind.NAMES)
        or proposal.target_code
    ):
        raise Http404
    row, spec = game_or_404(proposal.game.slug)
    names = proposal.kind == Proposal.Kind.NAMES
    return _sheet_page(request, row, spec, names=names, proposal=proposal)


urlpatterns: list[URLPattern] = [
    path("<slug:game>/sheet/template.csv", card_sheet_template, name="sheet-template"),
    path("<slug:game>/sheet/", card_sheet, name="sheet"),
    path("<slug:game>/names-sheet/template.csv", names_template, name="names-sheet-template"),
    path("<slug:game>/names-sheet/", names_sheet, name="names-sheet"),
    path("proposals/<int:proposal_id>/sheet/", sheet_resubmit, name="proposal-resubmit-sheet"),
]
