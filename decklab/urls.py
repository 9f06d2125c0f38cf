from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path

from decklab import health
from decklab.api_root import ApiRootApi


def favicon(request: HttpRequest) -> HttpResponse:
    return HttpResponsePermanentRedirect(static("favicon.svg"))


urlpatterns = [
    path("health/live", health.live, name="health-live"),
    path("health/ready", health.ready, name="health-ready"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("decks/", include("decks.urls")),
    path("collection/", include("collection.urls")),
    path("contribute/", include("contributions.urls")),
    path("decks/<str:public_id>/", include("simulator.testhands.urls")),
    path("sim/", include("simulator.urls")),
    path("api/v1/", ApiRootApi.as_view(), name="api-root"),
    path("api/v1/", include("collection.api.urls")),
    path("api/v1/", include("decks.api.urls")),
    path("api/v1/", include("simulator.testhands.api")),
    path("api/v1/", include("simulator.api.urls")),
    path("api/v1/", include("catalog.api.urls")),
    path("api/v1/", include("contributions.api.urls")),
    path("", include("games.urls")),
    path("", include("catalog.urls")),
    # browsers ask for /favicon.ico whatever the page links: answer with the static icon
    # (its address is looked up per request: the static manifest may not be read at import)
    path("favicon.ico", favicon),
]
