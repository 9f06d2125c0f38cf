"""The API of the collection's big jobs: ``collection/jobs/<id>/`` (state, progress, result,
problems) and an export job's file. The endpoints that start a job answer 202 with it."""

from __future__ import annotations

import io
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers, status
from rest_framework.response import Response

from collection import limits
from collection.models import CollectionJob

JOB_ID = OpenApiParameter("job_id", OpenApiTypes.INT, OpenApiParameter.PATH)
NOT_READY = _("This job is not a finished export.")


class CollectionJobOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(
        choices=CollectionJob.Kind.choices, help_text=_("preview, commit, undo or export.")
    )
    # a string rather than an enum: the runs' "status" enum keeps its schema name
    status = serializers.CharField(
        help_text=_("queued, running, succeeded or failed; poll until it is finished.")
    )
    progress = serializers.IntegerField(min_value=0, max_value=100, help_text=_("Percent done."))
    finished = serializers.BooleanField()
    batch = serializers.IntegerField(
        allow_null=True,
        help_text=_(
            "The import batch: the one a preview stored (commit it next), committed or undone."
        ),
    )
    result = serializers.JSONField(
        help_text=_(
            "When it succeeded: a preview's counts and first rows (as the import endpoint "
            "answers), a commit's or undo's batch, an export's format, rows and warnings."
        )
    )
    problems = serializers.ListField(
        child=serializers.DictField(),
        help_text=_("When it failed: every problem, as {line, column, message} or {message}."),
    )
    url = serializers.CharField(help_text=_("This job, to poll."))
    download = serializers.CharField(
        allow_null=True,
        help_text=_("A finished export's CSV file (kept a day); empty otherwise."),
    )
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)


def job_body(job: CollectionJob) -> dict[str, Any]:
    has_file = getattr(job, "has_file", None)
    if has_file is None:  # a job read whole, as it was just submitted
        has_file = bool(job.content)
    done_export = job.kind == CollectionJob.Kind.EXPORT and has_file
    return {
        "id": job.pk,
        "kind": job.kind,
        "status": job.status,
        "progress": job.progress,
        "finished": job.is_finished,
        "batch": job.batch_id,
        "result": job.result,
        "problems": job.problems,
        "url": reverse("collection-api:job", args=[job.pk]),
        "download": reverse("collection-api:job-download", args=[job.pk]) if done_export else None,
        "created_at": job.created_at,
        "started_at": job.started_at,
        "finished_at": job.finished_at,
    }


def job_accepted(job: CollectionJob) -> Response:
    """202 with the job: the work runs on a worker; poll ``url``."""
    body = CollectionJobOutputSerializer(job_body(job)).data
    return Response(body, status=status.HTTP_202_ACCEPTED, headers={"Location": body["url"]})


JOB_ACCEPTED = OpenApiResponse(
    CollectionJobOutputSerializer,
    description=_(
        "Above COLLECTION_JOB_THRESHOLD rows or items the work runs on a worker: the job to poll."
    ),
)


def preload_body(request: HttpRequest, *, limit: int) -> HttpResponse | None:
    """Read the body of an import endpoint with the import's own size limit rather than
    DATA_UPLOAD_MAX_MEMORY_SIZE, which keeps every other body small; a 413 above it."""
    length = int(request.META.get("CONTENT_LENGTH") or 0)
    if length > limit:
        message = limits.BODY_TOO_LARGE % {"limit": limits.import_max_bytes() >> 20}
        return JsonResponse({"detail": str(message)}, status=413)
    if length and not hasattr(request, "_body"):
        data = request.read(length)
        # Django reads the body from here, without its own limit, once it is set
        request._body = data
        request._stream = io.BytesIO(data)
    return None
