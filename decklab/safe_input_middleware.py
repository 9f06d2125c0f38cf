"""Query parameters and form fields holding a NUL character are a 400, everywhere, in one place.

PostgreSQL refuses NUL in text, so ``?owner=a%00b`` reached a filter and answered 500
(``DataError``) on 25 parameter/endpoint combinations, anonymous ones included. Rather than
guard every filter, this refuses the request before any view reads it: in the API's error shape
under /api/v1/ (the parameter named with the reason), and with the site's 400 page elsewhere.
The API's own form bodies are checked by its parsers (decklab/api/parsers.py), JSON bodies by
``safe_input.loads``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import render

from decklab import safe_input
from decklab.api.middleware import API_PREFIX

#: keys of the API's error shape that are not field names (decklab/api/schema.py)
_RESERVED = frozenset({"detail", "problems", "current_version"})
_FORMS = ("application/x-www-form-urlencoded", "multipart/form-data")


def first_unsafe_field(data: QueryDict) -> str | None:
    """The name of the first field whose name or any value holds a NUL, or None."""
    for name, values in data.lists():
        if safe_input.NUL in name or any(_has_nul(value) for value in values):
            return name
    return None


def _has_nul(value: object) -> bool:
    return isinstance(value, str) and safe_input.NUL in value


def _printable(name: str) -> str:
    return name.replace(safe_input.NUL, "\\u0000")


def _refusal(request: HttpRequest, name: str) -> HttpResponse:
    message = safe_input.nul_message()
    if request.path.startswith(API_PREFIX):
        body: dict[str, Any] = (
            {"detail": f"{_printable(name)}: {message}"} if name in _RESERVED else {name: [message]}
        )
        return JsonResponse(body, status=400)
    context = {"field": _printable(name), "reason": message}
    return render(request, "bad_request.html", context, status=400)


class RefuseUnsafeInputMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Any, args: Any, kwargs: Any
    ) -> HttpResponse | None:
        try:
            for data in self._inputs(request):
                name = first_unsafe_field(data)
                if name is not None:
                    return _refusal(request, name)
        except RequestDataTooBig:
            # an urlencoded body is refused before a byte is read: left to the view, which may
            # allow more (an import page) or answer as it always has
            return None
        return None

    def _inputs(self, request: HttpRequest) -> Iterable[QueryDict]:
        yield request.GET
        # The API's bodies are read by its parsers, which refuse NUL themselves; reading the
        # body here would also take the API's own body limits and 413 answers away from it.
        if request.method != "POST" or request.path.startswith(API_PREFIX):
            return
        if request.content_type in _FORMS:
            # any other body Django cannot read raises here as it would in the view (a 400)
            yield request.POST
