"""Template helpers of the collection: the choices of a game's add form."""

from __future__ import annotations

from typing import Any

from django import template

from collection.vocab import Condition, finish_label, finishes_for, language_label, languages_for

register = template.Library()


@register.simple_tag
def collection_choices(game_slug: str) -> dict[str, Any]:
    return {
        "conditions": Condition.choices,
        "finishes": finishes_for(game_slug),
        "languages": [(c, language_label(c)) for c in languages_for(game_slug)],
    }


@register.filter
def condition_label(code: str) -> str:
    return str(dict(Condition.choices).get(code, code))


@register.filter
def language_name(code: str) -> str:
    return language_label(code)


@register.filter
def finish_name(code: str, game_slug: str) -> str:
    return finish_label(game_slug, code)
