"""Pages of the collection's big jobs: a job's progress (polled with htmx), its outcome, and
an export's download. The pages that start them are in ``collection.views``."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST, require_safe

from catalog.models import Game
from collection.forms import EXPORT_CHOICES
from collection.imports import dialect_or_none
from collection.jobs import (
    collection_job_submit,
    collection_job_supervise_on_read,
    collection_jobs_of,
)
from collection.models import CollectionJob

Kind = CollectionJob.Kind


def _my_job(request: HttpRequest, job_id: int) -> CollectionJob:
    job = collection_jobs_of(owner_id=request.user.pk).select_related("batch").filter(pk=job_id)
    job = job.first()
    if job is None:
        raise Http404
    # the page's poll sweeps the job: a lost worker is noticed with no beat running
    return collection_job_supervise_on_read(job)


@login_required
@require_safe
def job_page(request: HttpRequest, job_id: int) -> HttpResponse:
    job = _my_job(request, job_id)
    context = {"job": job, "formats": dict(EXPORT_CHOICES)}
    if getattr(request, "htmx", False):
        return render(request, "collection/_job_status.html", context)
    return render(request, "collection/job.html", context)


@login_required
@require_safe
def job_download(request: HttpRequest, job_id: int) -> HttpResponse:
    job = _my_job(request, job_id)
    if job.kind != Kind.EXPORT or not job.has_file:  # type: ignore[attr-defined]
        raise Http404
    code = job.params.get("format", "decklab")
    slug = job.params.get("game", "")
    response = HttpResponse(job.content, content_type="text/csv; charset=utf-8")
    name = f"collection-{code}{'-' + slug if slug else ''}.csv"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
@require_POST
def export_job(request: HttpRequest) -> HttpResponse:
    """Prepare a big export on a worker; its page offers the file when it is ready."""
    code = request.POST.get("format", "decklab")
    if dialect_or_none(code) is None:
        raise Http404
    slug = request.POST.get("game", "")
    if slug and not Game.objects.filter(slug=slug).exists():
        raise Http404
    params = {"format": code, "game": slug}
    job = collection_job_submit(owner=request.user, kind=Kind.EXPORT, params=params)
    return redirect("collection:job", job.pk)
