"""Test hand and odds pages, mounted under /decks/<public_id>/ (every view gets the deck's
``public_id`` from that prefix).

Their own namespace, ``testhands``: ``simulator`` is the simulation runs' (simulator/urls.py,
mounted at /sim/), and two URL modules sharing an application namespace cannot both be
reversed.
"""

from __future__ import annotations

from django.urls import URLPattern, path

from simulator.testhands import views

app_name = "testhands"

urlpatterns: list[URLPattern] = [
    path("test-hand/", views.test_hand, name="test-hand"),
    path("odds/", views.odds, name="odds"),
]
