"""``{% game_stylesheets %}``: a link to every registered game's ``static/face.css``."""

from __future__ import annotations

from django import template
from django.templatetags.static import static
from django.utils.html import format_html_join
from django.utils.safestring import SafeString

from games import registry

register = template.Library()


@register.simple_tag
def game_stylesheets() -> SafeString:
    sheets = [
        (static(f"games/{game.slug}/face.css"),)
        for game in registry.all_games()
        if (game.static_dir / "face.css").is_file()
    ]
    return format_html_join("\n  ", '<link rel="stylesheet" href="{}">', sheets)
