"""Collection pages, mounted at /collection/."""

from __future__ import annotations

from django.urls import URLPattern, path

from collection import job_views, views

app_name = "collection"

urlpatterns: list[URLPattern] = [
    path("", views.index, name="index"),
    path("add/", views.add_printing, name="add"),
    path("add/product/<slug:game>/<slug:code>/", views.add_product, name="add-product"),
    path("add/set/<slug:game>/<slug:code>/", views.add_set, name="add-set"),
    path("items/<int:item_id>/quantity/", views.item_quantity, name="item-quantity"),
    path("items/<int:item_id>/move/", views.item_move, name="item-move"),
    path("import/", views.import_page, name="import"),
    path("formats/", views.formats_page, name="formats"),
    path("imports/<int:batch_id>/commit/", views.import_commit, name="import-commit"),
    path("imports/<int:batch_id>/undo/", views.import_undo, name="import-undo"),
    path("export/", views.export, name="export"),
    path("export/job/", job_views.export_job, name="export-job"),
    path("jobs/<int:job_id>/", job_views.job_page, name="job"),
    path("jobs/<int:job_id>/download/", job_views.job_download, name="job-download"),
    path("settings/", views.settings, name="settings"),
    path("wishlist/", views.wishlist_page, name="wishlist"),
    path("wishlist/<int:wish_id>/", views.wish_quantity, name="wish-quantity"),
    path("decks/<str:public_id>/wish-missing/", views.deck_wish_missing, name="deck-wish-missing"),
    path("decks/<str:public_id>/build/", views.deck_build, name="deck-build"),
    path("players/<str:username>/trades/", views.player_trades, name="trades"),
    path("players/<str:username>/cards/", views.player_cards, name="player-cards"),
    path("<slug:game>/", views.game_page, name="game"),
    path("<slug:game>/sets/<slug:code>/missing/", views.set_missing, name="set-missing"),
]
