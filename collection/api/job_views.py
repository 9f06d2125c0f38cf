"""The API views of the collection's big jobs (the helpers are in ``collection.api.jobs``)."""

from __future__ import annotations

from django.http import HttpResponse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from collection.api.jobs import JOB_ID, NOT_READY, CollectionJobOutputSerializer, job_body
from collection.api.views import NOT_FOUND, TAG, UNAUTHORIZED, CollectionApiView
from collection.jobs import collection_job_supervise_on_read, collection_jobs_of
from collection.models import CollectionJob


def _job_of(request: Request, job_id: int) -> CollectionJob:
    job = collection_jobs_of(owner_id=request.user.pk).filter(pk=job_id).first()
    if job is None:
        raise NotFound()
    # polling sweeps the job: a lost worker is noticed with no beat running
    return collection_job_supervise_on_read(job)


class JobApi(CollectionApiView):
    @extend_schema(
        tags=[TAG],
        summary=_("A collection job"),
        parameters=[JOB_ID],
        responses={200: CollectionJobOutputSerializer, 401: UNAUTHORIZED, 404: NOT_FOUND},
    )
    def get(self, request: Request, job_id: int) -> Response:
        """A big preview, commit, undo or export: its state and progress, then its result or
        every problem. Polling it also recovers a job whose worker was lost."""
        return Response(CollectionJobOutputSerializer(job_body(_job_of(request, job_id))).data)


class JobDownloadApi(CollectionApiView):
    @extend_schema(
        tags=[TAG],
        summary=_("Download an export job's file"),
        parameters=[JOB_ID],
        responses={
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description=_("The CSV file.")),
            401: UNAUTHORIZED,
            404: NOT_FOUND,
        },
    )
    def get(self, request: Request, job_id: int) -> HttpResponse:
        job = _job_of(request, job_id)
        if job.kind != CollectionJob.Kind.EXPORT or not job.has_file:  # type: ignore[attr-defined]
            raise NotFound(NOT_READY)
        return HttpResponse(job.content, content_type="text/csv; charset=utf-8")
