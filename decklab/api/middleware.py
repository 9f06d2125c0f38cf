"""Under /api/v1/ every answer is JSON in the API's error shape, whatever Django decides first.

- a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` is a 413 naming the limit (Django answers an HTML
  "Bad Request (400)");
- a path no URL pattern matches is a JSON 404 (Django's is an HTML page);
- a query parameter the endpoint does not document is a 400 naming it: ``?search=`` on the card
  list used to be ignored silently and return every card. The documented parameters are read
  from the OpenAPI schema itself, so the schema and the check cannot disagree.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _

from games import registry

log = logging.getLogger(__name__)

API_PREFIX = "/api/v1/"
#: DRF's own override of the response format, accepted everywhere
ALWAYS_ALLOWED = frozenset({"format"})
_CONVERTER = re.compile(r"<(?:\w+:)?(\w+)>")


#: drf-spectacular's generator is not thread-safe: threads of a fresh worker building the schema
#: at once crashed some of them (3-8 of 16 first requests answered 500). One builds, the others
#: wait for its result; the WSGI module builds it before the worker serves at all (warm_up).
_build_lock = threading.Lock()
_built: dict[tuple[str, ...], dict[tuple[str, str], frozenset[str]]] = {}


def documented_query_parameters() -> dict[tuple[str, str], frozenset[str]]:
    """The documented parameters for the games registered now (a game registered later, such
    as one named in DECKLAB_EXTRA_GAMES or a test's, brings its own facets)."""
    games = tuple(registry.slugs())
    found = _built.get(games)
    if found is None:
        with _build_lock:
            found = _built.get(games)
            if found is None:
                found = _built[games] = _documented_for(games)
    return found


def warm_up() -> None:
    """Build the schema now (decklab/wsgi.py): before gunicorn forks, or before a worker serves."""
    try:
        documented_query_parameters()
    except Exception:  # never keep the site from starting: the first request builds it instead
        log.exception("The API schema could not be built at start-up")


def _documented_for(games: tuple[str, ...]) -> dict[tuple[str, str], frozenset[str]]:
    """(OpenAPI path, method) -> the query parameters the schema documents for it."""
    from drf_spectacular.generators import SchemaGenerator

    schema: dict[str, Any] = SchemaGenerator().get_schema(request=None, public=True)
    documented: dict[tuple[str, str], frozenset[str]] = {}
    for path, operations in schema.get("paths", {}).items():
        for method, operation in operations.items():
            names = {p["name"] for p in operation.get("parameters", []) if p.get("in") == "query"}
            documented[(path, method.upper())] = frozenset(names)
    return documented


def _openapi_path(route: str) -> str:
    return "/" + _CONVERTER.sub(r"{\1}", route)


def unknown_parameters_response(
    request: HttpRequest, route: str, also: frozenset[str] = frozenset()
) -> JsonResponse | None:
    """A 400 naming the query parameters this endpoint does not read, or None. ``also``: what
    the view reads beyond the schema (a game's own facets, for a game registered after the
    schema was built)."""
    if not request.GET:
        return None
    known = documented_query_parameters().get((_openapi_path(route), request.method or "GET"))
    if known is None:  # not an operation of the schema (the schema itself, the docs pages)
        return None
    known = known | also
    unknown = sorted(set(request.GET) - known - ALWAYS_ALLOWED)
    if not unknown:
        return None
    message = (
        _("Unknown query parameter. This endpoint reads: %(known)s.")
        % {"known": ", ".join(sorted(known)) or "-"}
        if known
        else _("Unknown query parameter: this endpoint reads none.")
    )
    return JsonResponse({name: [message] for name in unknown}, status=400)


class ApiErrorsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            response.status_code == 404
            and request.path.startswith(API_PREFIX)
            and not response.get("Content-Type", "").startswith("application/json")
        ):
            return JsonResponse({"detail": str(_("Not found."))}, status=404)
        return response

    def process_view(
        self, request: HttpRequest, view: Any, args: Any, kwargs: Any
    ) -> HttpResponse | None:
        match = request.resolver_match
        if not request.path.startswith(API_PREFIX) or match is None:
            return None
        # a view may read more than the schema lists: ``query_parameters_for(kwargs)``
        extra = getattr(getattr(view, "view_class", None), "query_parameters_for", None)
        also = frozenset(extra(kwargs)) if extra is not None else frozenset()
        return unknown_parameters_response(request, match.route, also)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, RequestDataTooBig) and request.path.startswith(API_PREFIX):
            limit = filesizeformat(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
            message = _("The request body is larger than the limit of %(limit)s.") % {
                "limit": limit
            }
            return JsonResponse({"detail": message}, status=413)
        return None
