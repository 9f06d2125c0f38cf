"""Collection pages, mounted at /collection/."""

from __future__ import annotations

from django.urls import URLPattern, path

from collection import views

app_name = "collection"

urlpatterns: list[URLPattern] = [
    path("", views.index, name="index"),
    path("add/", views.add_printing, name="add"),
    path("add/product/<slug:game>/<slug:code>/", views.add_product, name="add-product"),
    path("add/set/<slug:game>/<slug:code>/", views.add_set, name="add-set"),
    path("items/<int:item_id>/quantity/", views.item_quantity, name="item-quantity"),
    path("items/<int:item_id>/move/", views.item_move, name="item-move"),
    path("import/", views.import_page, name="import"),
    path("imports/<int:batch_id>/commit/", views.import_commit, name="import-commit"),
    path("imports/<int:batch_id>/undo/", views.import_undo, name="import-undo"),
    path("export/", views.export, name="export"),
    path("settings/", views.settings, name="settings"),
    path("wishlist/", views.wishlist_page, name="wishlist"),
    path("wishlist/<int:wish_id>/", views.wish_quantity, name="wish-quantity"),
    path("decks/<str:public_id>/wish-missing/", views.deck_wish_missing, name="deck-wish-missing"),
    path("decks/<str:public_id>/build/", views.deck_build, name="deck-build"),
    path("players/<str:username>/trades/", views.player_trades, name="trades"),
    path("<slug:game>/", views.game_page, name="game"),
    path("<slug:game>/sets/<slug:code>/missing/", views.set_missing, name="set-missing"),
]
