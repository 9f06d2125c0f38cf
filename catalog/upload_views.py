"""Staff catalog upload: the file is checked here, then imported by a Celery task with progress.

The form only checks what can be judged without reading the catalog (extension, size, text
encoding, the game); the rows themselves are the worker's job and come back as problems.
"""

from __future__ import annotations

from pathlib import Path

from django import forms
from django.conf import settings
from django.contrib.admin.views.decorators import staff_member_required
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.defaultfilters import filesizeformat
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_http_methods
from django_htmx.middleware import HtmxDetails

from catalog.importers.jobs import catalog_import_job_submit
from catalog.models import CatalogImportJob
from catalog.spec import all_games
from decklab import safe_input

ALLOWED_SUFFIXES = (".csv", ".json")
RECENT_JOBS = 10

WRONG_EXTENSION = _("Upload a .csv or .json file.")
TOO_BIG = _("The file is %(size)s; the limit is %(limit)s.")
EMPTY_FILE = _("The file is empty.")
NOT_UTF8 = _("The file is not UTF-8 text (byte %(byte)d).")


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def _game_choices() -> list[tuple[str, str]]:
    japanese = (get_language() or "en").startswith("ja")
    return [("", str(_("From the file (a game column or the JSON's game)")))] + [
        (spec.slug, spec.name_ja if japanese else spec.name_en) for spec in all_games()
    ]


class CatalogUploadForm(forms.Form):
    file = forms.FileField(
        label=_("Catalog file"),
        help_text=_(
            "DeckLab catalog JSON, a CSV card list, or a file in one of the games' own formats."
        ),
        widget=forms.ClearableFileInput(
            attrs={"class": "form-control", "accept": ",".join(ALLOWED_SUFFIXES)}
        ),
    )
    game = forms.ChoiceField(
        label=_("Game"),
        required=False,
        choices=_game_choices,
        help_text=_("Needed for a CSV file without a game column."),
        widget=forms.Select(attrs={"class": "form-select"}),
    )

    def clean_file(self) -> UploadedFile:
        upload: UploadedFile = self.cleaned_data["file"]
        if Path(upload.name or "").suffix.lower() not in ALLOWED_SUFFIXES:
            raise ValidationError(WRONG_EXTENSION, code="extension")
        limit = settings.CATALOG_UPLOAD_MAX_BYTES
        if upload.size is not None and upload.size > limit:
            raise ValidationError(
                TOO_BIG,
                code="too_big",
                params={"size": filesizeformat(upload.size), "limit": filesizeformat(limit)},
            )
        raw = upload.read(limit + 1)
        try:
            # utf-8-sig: spreadsheet exports often start with a byte order mark.
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ValidationError(NOT_UTF8, code="encoding", params={"byte": exc.start}) from exc
        if not text.strip():
            raise ValidationError(EMPTY_FILE, code="empty")
        try:
            # the job stores the text in PostgreSQL, which refuses NUL characters
            safe_input.check_text(text)
        except safe_input.UnsafeInput as exc:
            raise ValidationError(str(exc), code="nul") from exc
        self.text = text
        return upload


@staff_member_required
@require_http_methods(["GET", "POST"])
def upload(request: HttpRequest) -> HttpResponse:
    status = 200
    if request.method == "POST":
        form = CatalogUploadForm(request.POST, request.FILES)
        if form.is_valid():
            job = catalog_import_job_submit(
                user=request.user,
                file_name=Path(form.cleaned_data["file"].name).name[:255],
                content=form.text,
                game=form.cleaned_data["game"],
                # LocaleMiddleware's choice for this request: the worker reports in it
                language=get_language() or settings.LANGUAGE_CODE,
            )
            return redirect(job)
        status = 400
    else:
        form = CatalogUploadForm()
    recent = CatalogImportJob.objects.select_related("uploaded_by").defer("content", "problems")
    context = {"form": form, "recent": recent[:RECENT_JOBS]}
    return render(request, "catalog/upload/form.html", context, status=status)


@staff_member_required
@require_GET
def upload_status(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    job = get_object_or_404(
        CatalogImportJob.objects.select_related("uploaded_by").defer("content"), pk=pk
    )
    # htmx polls the fragment; it carries no trigger once the job is finished, so polling stops.
    # A history restore (back button) wants the whole page, not the fragment.
    fragment = bool(request.htmx) and not request.htmx.history_restore_request
    template = "catalog/upload/_status.html" if fragment else "catalog/upload/status.html"
    return render(request, template, {"job": job})
