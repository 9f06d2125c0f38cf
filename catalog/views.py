"""Catalog pages (placeholder until the pages land)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse


def home(request: HttpRequest) -> HttpResponse:
    return HttpResponse("DeckLab")


def game_detail(request: HttpRequest, game: str) -> HttpResponse:
    return HttpResponse(game)


def set_detail(request: HttpRequest, game: str, code: str) -> HttpResponse:
    return HttpResponse(code)


def card_detail(request: HttpRequest, game: str, code: str) -> HttpResponse:
    return HttpResponse(code)


def product_detail(request: HttpRequest, game: str, code: str) -> HttpResponse:
    return HttpResponse(code)
