"""Freezing a serving process's warmed heap out of the garbage collector.

A process that serves requests builds most of what it keeps on its first ones: the search
grammar's parser, serializers, URL and template caches, a hundred thousand objects. Python's
full collection walks every one of them each time it runs, about once every fifty requests
here, and a request that triggers it waits 25 ms on a quiet core and some 300 ms when eight
processes run theirs at once on two cores (their requests allocate alike, so their collections
fall together): every slow sample of the concurrent search benchmark (bench/scale.py, issue 19)
was a request with a full collection inside it, and no other request was slow.

``gc.freeze`` moves what exists into a generation the collector never walks (made for
processes that keep a large, long-lived heap). So a process collects and freezes once after
its first few requests and again as they double, while what it builds lazily still settles:
after that a full collection walks only what requests left behind since. gunicorn's master
freezes what it loaded before forking (gunicorn.conf.py); this does the rest in each worker.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import MiddlewareNotUsed
from django.http import HttpRequest, HttpResponse

#: requests served before each freeze (then none: what is left grows by a few objects a request)
FREEZE_AT = frozenset({25, 100, 400, 1_600})

_lock = threading.Lock()
_served = 0


def request_served() -> bool:
    """Count a served request; collect and freeze at the counts of ``FREEZE_AT``. Whether it
    froze (tests)."""
    global _served
    with _lock:
        _served += 1
        due = _served in FREEZE_AT
    if due:
        gc.collect()  # garbage frozen would never be freed
        gc.freeze()
    return due


class FreezeWarmHeapMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        if not settings.FREEZE_WARM_HEAP:
            raise MiddlewareNotUsed
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        request_served()
        return response
