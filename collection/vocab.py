"""Our words for a copy: conditions, finishes (declared by each game) and languages.

A game declares ``FINISHES`` and ``LANGUAGES`` in ``games/<pkg>/collection.py``; a game that
declares nothing has the normal finish only and Japanese and English.
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games import registry

DEFAULT_FINISHES: tuple[tuple[str, Any], ...] = (("normal", _("Normal")),)
DEFAULT_LANGUAGES: tuple[str, ...] = ("ja", "en")
NORMAL = "normal"


class Condition(models.TextChoices):
    """Cardmarket's seven grades, best first."""

    MINT = "mint", _("Mint")
    NEAR_MINT = "near_mint", _("Near Mint")
    EXCELLENT = "excellent", _("Excellent")
    GOOD = "good", _("Good")
    LIGHTLY_PLAYED = "lightly_played", _("Lightly Played")
    PLAYED = "played", _("Played")
    POOR = "poor", _("Poor")


#: every language a game may declare, with its English and Japanese names (as other tools
#: write them) and its label
LANGUAGE_NAMES: dict[str, tuple[str, str, Any]] = {
    "ja": ("Japanese", "日本語", pgettext_lazy("language", "Japanese")),
    "en": ("English", "英語", pgettext_lazy("language", "English")),
    "zh": ("Chinese", "中国語", pgettext_lazy("language", "Chinese")),
    "ko": ("Korean", "韓国語", pgettext_lazy("language", "Korean")),
    "fr": ("French", "フランス語", pgettext_lazy("language", "French")),
    "de": ("German", "ドイツ語", pgettext_lazy("language", "German")),
}


def finishes_for(game_slug: str) -> tuple[tuple[str, Any], ...]:
    declared = registry.get(game_slug).finishes if registry.is_game(game_slug) else None
    return tuple(declared or DEFAULT_FINISHES)


def finish_codes(game_slug: str) -> list[str]:
    return [code for code, _label in finishes_for(game_slug)]


def languages_for(game_slug: str) -> tuple[str, ...]:
    declared = registry.get(game_slug).languages if registry.is_game(game_slug) else None
    return tuple(declared or DEFAULT_LANGUAGES)


def default_language(game_slug: str) -> str:
    return languages_for(game_slug)[0]


def language_label(code: str) -> str:
    known = LANGUAGE_NAMES.get(code)
    return str(known[2]) if known else code


def finish_label(game_slug: str, code: str) -> str:
    return str(dict(finishes_for(game_slug)).get(code, code))
