"""The games' own pages: each game's rules reference."""

from __future__ import annotations

from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("rules/<slug:game>/", views.rules, name="rules"),
]
