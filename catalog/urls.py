from __future__ import annotations

from django.urls import path

from catalog import upload_views, views

app_name = "catalog"

urlpatterns = [
    path("", views.home, name="home"),
    path("search/", views.search_help, name="search-help"),
    path("games/<slug:game>/", views.game_detail, name="game"),
    path("games/<slug:game>/sets/<slug:code>/", views.set_detail, name="set"),
    path("games/<slug:game>/cards/<slug:code>/", views.card_detail, name="card"),
    path("games/<slug:game>/products/<slug:code>/", views.product_detail, name="product"),
    path("catalog-imports/", upload_views.upload, name="upload"),
    path("catalog-imports/<int:pk>/", upload_views.upload_status, name="upload-status"),
]
