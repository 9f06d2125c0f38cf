"""Deck pages, mounted at /decks/. Fixed paths come before ``<public_id>/`` so they are never
read as a deck id."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from decks.views import browse, chart_css, editor, history, pages, transfer

app_name = "decks"

urlpatterns: list[URLPattern | URLResolver] = [
    path("charts.css", chart_css.stylesheet, name="chart-stylesheet"),
    path("new/", pages.create, name="create"),
    path("from-product/", pages.from_product_pick, name="from-product-pick"),
    path("from-product/<slug:game>/<slug:code>/", pages.from_product, name="from-product"),
    path("import/", transfer.import_deck, name="import"),
    path("browse/<slug:game>/", browse.browse, name="browse"),
    path("<str:public_id>/", pages.detail, name="detail"),
    path("<str:public_id>/clone/", pages.clone, name="clone"),
    path("<str:public_id>/delete/", pages.delete, name="delete"),
    path("<str:public_id>/export/<slug:fmt>/", transfer.export, name="export"),
    path("<str:public_id>/import/", transfer.import_into, name="import-into"),
    path("<str:public_id>/history/", history.history, name="history"),
    path("<str:public_id>/diff/", history.diff, name="diff"),
    path("<str:public_id>/history/<int:number>/restore/", history.restore, name="restore"),
    path("<str:public_id>/edit/", editor.edit, name="edit"),
    path("<str:public_id>/edit/search/", editor.search, name="edit-search"),
    path("<str:public_id>/edit/add/", editor.add, name="edit-add"),
    path("<str:public_id>/edit/entry/<int:entry_id>/", editor.entry, name="edit-entry"),
    path("<str:public_id>/edit/settings/", editor.settings, name="edit-settings"),
    path("<str:public_id>/edit/extras/<str:key>/", editor.edit_extra, name="edit-extra"),
]
