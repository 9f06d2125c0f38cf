"""The deck API, mounted at /api/v1/ before the catalog API.

The fixed paths (validate/, import/, from-product/) come before ``<public_id>/``; a public id
is 16 URL-safe characters, so it can never be one of them anyway.
"""

from __future__ import annotations

from django.urls import URLPattern, path

from decks.api import views_decks, views_entries, views_history, views_io

app_name = "decks-api"

urlpatterns: list[URLPattern] = [
    path("decks/", views_decks.DeckCollectionApi.as_view(), name="deck-list"),
    path("decks/validate/", views_io.DeckValidateApi.as_view(), name="deck-validate"),
    path("decks/import/", views_io.DeckImportApi.as_view(), name="deck-import"),
    path("decks/from-product/", views_decks.DeckFromProductApi.as_view(), name="deck-from-product"),
    path("decks/<str:public_id>/", views_decks.DeckDetailApi.as_view(), name="deck-detail"),
    path(
        "decks/<str:public_id>/entries/",
        views_entries.EntryCollectionApi.as_view(),
        name="entry-list",
    ),
    path(
        "decks/<str:public_id>/entries/<int:entry_id>/",
        views_entries.EntryDetailApi.as_view(),
        name="entry-detail",
    ),
    path("decks/<str:public_id>/clone/", views_decks.DeckCloneApi.as_view(), name="deck-clone"),
    path(
        "decks/<str:public_id>/revisions/",
        views_history.RevisionListApi.as_view(),
        name="revision-list",
    ),
    path(
        "decks/<str:public_id>/revisions/<int:number>/",
        views_history.RevisionDetailApi.as_view(),
        name="revision-detail",
    ),
    path("decks/<str:public_id>/diff/", views_history.DeckDiffApi.as_view(), name="deck-diff"),
    path(
        "decks/<str:public_id>/restore/",
        views_history.DeckRestoreApi.as_view(),
        name="deck-restore",
    ),
    path("decks/<str:public_id>/export/", views_io.DeckExportApi.as_view(), name="deck-export"),
    path(
        "decks/<str:public_id>/import/",
        views_io.DeckImportIntoApi.as_view(),
        name="deck-import-into",
    ),
]
