"""The collection API, mounted at /api/v1/ (``collection/…`` and a deck's ``collection/``)."""

from __future__ import annotations

from django.urls import URLPattern, path

from collection.api import job_views, views

app_name = "collection-api"

urlpatterns: list[URLPattern] = [
    path("collection/items/", views.ItemListApi.as_view(), name="item-list"),
    path("collection/items/bulk/", views.ItemBulkApi.as_view(), name="item-bulk"),
    path("collection/items/<int:item_id>/", views.ItemDetailApi.as_view(), name="item-detail"),
    path("collection/imports/", views.ImportPreviewApi.as_view(), name="import-preview"),
    path(
        "collection/imports/<int:batch_id>/commit/",
        views.ImportCommitApi.as_view(),
        name="import-commit",
    ),
    path(
        "collection/imports/<int:batch_id>/undo/", views.ImportUndoApi.as_view(), name="import-undo"
    ),
    path("collection/export/", views.ExportApi.as_view(), name="export"),
    path("collection/jobs/<int:job_id>/", job_views.JobApi.as_view(), name="job"),
    path(
        "collection/jobs/<int:job_id>/download/",
        job_views.JobDownloadApi.as_view(),
        name="job-download",
    ),
    path("collection/wishlist/", views.WishlistApi.as_view(), name="wishlist"),
    path("collection/wishlist/export/", views.WishlistExportApi.as_view(), name="wishlist-export"),
    path("collection/wishlist/<int:wish_id>/", views.WishDetailApi.as_view(), name="wish-detail"),
    path("collection/settings/", views.SettingsApi.as_view(), name="settings"),
    path("decks/<str:public_id>/collection/", views.DeckReportApi.as_view(), name="deck-report"),
    path("decks/<str:public_id>/build/", views.DeckBuildApi.as_view(), name="deck-build"),
    path(
        "decks/<str:public_id>/wish-missing/",
        views.DeckWishMissingApi.as_view(),
        name="deck-wish-missing",
    ),
]
