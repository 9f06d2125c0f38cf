"""The chart stylesheet, served from the installed pygal rather than kept in the repository.

The rules are pygal's own output for ``CHART_STYLE`` (decks/charts.py): generating them when the
process first asks keeps them in step with whatever pygal is installed, and keeps a library's
stylesheet out of our source tree.
"""

from __future__ import annotations

from functools import cache

from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from decks.charts import chart_stylesheet


@cache
def _stylesheet() -> bytes:
    return chart_stylesheet().encode("utf-8")


@require_safe
@cache_control(public=True, max_age=3600)
def stylesheet(request: HttpRequest) -> HttpResponse:
    return HttpResponse(_stylesheet(), content_type="text/css; charset=utf-8")
