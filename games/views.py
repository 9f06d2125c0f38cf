"""A game's rules reference page (``games/reference.py``): our own words, in the reader's
language, each rule under its own anchor."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from catalog.spec import get_game
from games import registry
from games.reference import reference


@require_safe
def rules(request: HttpRequest, game: str) -> HttpResponse:
    if not registry.is_game(game) or not reference(game):
        raise Http404
    language = get_language() or "en"
    sections = [
        {
            "key": section.key,
            "title": section.title(language),
            "rules": [
                {"anchor": r.anchor, "title": r.title(language), "text": r.text(language)}
                for r in section.rules
            ],
        }
        for section in reference(game)
    ]
    spec = get_game(game)
    name = spec.name_ja if language.startswith("ja") and spec.name_ja else spec.name_en
    context = {"spec": spec, "slug": game, "game_name": name, "sections": sections}
    return render(request, "games/rules.html", context)
