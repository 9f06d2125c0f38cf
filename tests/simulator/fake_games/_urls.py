"""The project's URLs with the simulator's pages (/sim/) and API (/api/v1/) mounted, for the
run tests, whether or not decklab/urls.py mounts them yet (it is not the simulator's file)."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, include, path

from decklab.urls import urlpatterns as project_urlpatterns


def _mounted(namespace: str) -> bool:
    return any(getattr(p, "namespace", None) == namespace for p in project_urlpatterns)


urlpatterns: list[URLPattern | URLResolver] = []
if not _mounted("simulator"):
    urlpatterns.append(path("sim/", include("simulator.urls")))
if not _mounted("simulator-api"):
    urlpatterns.append(path("api/v1/", include("simulator.api.urls")))
urlpatterns += project_urlpatterns
