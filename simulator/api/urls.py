"""The simulation API, mounted at /api/v1/ (beside the deck and catalog APIs)."""

from __future__ import annotations

from django.urls import URLPattern, path

from simulator.api import tuning_views, views

app_name = "simulator-api"

urlpatterns: list[URLPattern] = [
    path("runs/", views.RunCollectionApi.as_view(), name="run-list"),
    path("runs/<str:public_id>/", views.RunDetailApi.as_view(), name="run-detail"),
    path("runs/<str:public_id>/cancel/", views.RunCancelApi.as_view(), name="run-cancel"),
    path("engines/", views.EngineListApi.as_view(), name="engine-list"),
    path(
        "decks/<str:public_id>/tunings/",
        tuning_views.TuningCreateApi.as_view(),
        name="tuning-create",
    ),
    path("tunings/<str:public_id>/", tuning_views.TuningDetailApi.as_view(), name="tuning-detail"),
    path(
        "tunings/<str:public_id>/cancel/",
        tuning_views.TuningCancelApi.as_view(),
        name="tuning-cancel",
    ),
    path(
        "tunings/<str:public_id>/apply/",
        tuning_views.TuningApplyApi.as_view(),
        name="tuning-apply",
    ),
]
