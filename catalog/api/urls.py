"""The catalog API, mounted at /api/v1/, with the schema and its two offline readers."""

from __future__ import annotations

from django.urls import URLPattern, path
from drf_spectacular.views import SpectacularAPIView

from catalog.api import views

app_name = "catalog-api"

urlpatterns: list[URLPattern] = [
    path("games/", views.GameListApi.as_view(), name="game-list"),
    path("games/<slug:game>/", views.GameDetailApi.as_view(), name="game-detail"),
    path("games/<slug:game>/sets/", views.SetListApi.as_view(), name="set-list"),
    path("games/<slug:game>/sets/<slug:code>/", views.SetDetailApi.as_view(), name="set-detail"),
    path("games/<slug:game>/cards/", views.CardListApi.as_view(), name="card-list"),
    path("games/<slug:game>/cards/<slug:code>/", views.CardDetailApi.as_view(), name="card-detail"),
    path("games/<slug:game>/printings/", views.PrintingListApi.as_view(), name="printing-list"),
    path("games/<slug:game>/products/", views.ProductListApi.as_view(), name="product-list"),
    path(
        "games/<slug:game>/products/<slug:code>/",
        views.ProductDetailApi.as_view(),
        name="product-detail",
    ),
    path("cards/", views.CardSearchApi.as_view(), name="card-search"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", views.SwaggerDocsView.as_view(), name="docs"),
    path("redoc/", views.RedocDocsView.as_view(), name="redoc"),
]
