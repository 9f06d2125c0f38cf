"""A serving process freezes its warmed heap out of the garbage collector after its first
requests (decklab/heap.py): the full collections that stalled concurrent searches (issue 19)
then walk only what requests left behind."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest
from django.core.exceptions import MiddlewareNotUsed
from django.http import HttpRequest, HttpResponse
from django.test import Client

from decklab import heap


@pytest.fixture(autouse=True)
def _thaw() -> Iterator[None]:
    yield
    gc.unfreeze()  # the rest of the test session collects as before


def test_the_heap_is_frozen_at_the_counts_and_only_then(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(heap, "_served", 0)
    froze_at = [n for n in range(1, 2_001) if heap.request_served()]
    assert froze_at == sorted(heap.FREEZE_AT)


@pytest.mark.django_db
def test_a_served_request_is_counted_and_the_twenty_fifth_freezes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    gc.unfreeze()
    monkeypatch.setattr(heap, "_served", 24)
    assert gc.get_freeze_count() == 0
    Client().get("/")
    assert heap._served == 25
    assert gc.get_freeze_count() > 10_000  # Django, the app and this test session's objects


def test_it_can_be_turned_off(settings: object) -> None:
    settings.FREEZE_WARM_HEAP = False  # type: ignore[attr-defined]

    def view(request: HttpRequest) -> HttpResponse:
        return HttpResponse()

    with pytest.raises(MiddlewareNotUsed):
        heap.FreezeWarmHeapMiddleware(view)
