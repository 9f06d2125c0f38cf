"""The simulation API, mounted at /api/v1/ (beside the deck and catalog APIs)."""

from __future__ import annotations

from django.urls import URLPattern, path

from simulator.api import views

app_name = "simulator-api"

urlpatterns: list[URLPattern] = [
    path("runs/", views.RunCollectionApi.as_view(), name="run-list"),
    path("runs/<str:public_id>/", views.RunDetailApi.as_view(), name="run-detail"),
    path("runs/<str:public_id>/cancel/", views.RunCancelApi.as_view(), name="run-cancel"),
    path("engines/", views.EngineListApi.as_view(), name="engine-list"),
]
