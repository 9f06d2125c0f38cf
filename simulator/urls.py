"""Simulation pages, mounted at /sim/."""

from __future__ import annotations

from django.urls import URLPattern, path

from simulator.views import pages, tuning

app_name = "simulator"

urlpatterns: list[URLPattern] = [
    path("runs/", pages.runs, name="runs"),
    path("runs/<str:public_id>/", pages.run_detail, name="run"),
    path("runs/<str:public_id>/cancel/", pages.cancel, name="cancel"),
    path("runs/<str:public_id>/replay/", pages.replay, name="replay"),
    path("decks/<str:public_id>/", pages.simulate, name="simulate"),
    path("decks/<str:public_id>/tune/", tuning.tune, name="tune"),
    path("tunings/<str:public_id>/", tuning.tuning_detail, name="tuning"),
    path("tunings/<str:public_id>/cancel/", tuning.tuning_cancel_view, name="tuning-cancel"),
    path("tunings/<str:public_id>/apply/", tuning.tuning_apply_view, name="tuning-apply"),
]
