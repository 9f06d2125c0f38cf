"""Staff catalog upload: the file is checked and imported by a Celery task with progress.

(Stub: filled in by the upload work.)
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse


def upload(request: HttpRequest) -> HttpResponse:
    return HttpResponse("upload")


def upload_status(request: HttpRequest, pk: int) -> HttpResponse:
    return HttpResponse(str(pk))
