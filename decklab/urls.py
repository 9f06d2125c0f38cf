from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("decks/", include("decks.urls")),
    path("collection/", include("collection.urls")),
    path("decks/<str:public_id>/", include("simulator.testhands.urls")),
    path("sim/", include("simulator.urls")),
    path("api/v1/", include("collection.api.urls")),
    path("api/v1/", include("decks.api.urls")),
    path("api/v1/", include("simulator.testhands.api")),
    path("api/v1/", include("simulator.api.urls")),
    path("api/v1/", include("catalog.api.urls")),
    path("", include("catalog.urls")),
]
