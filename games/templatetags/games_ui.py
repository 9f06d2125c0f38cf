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


def _rule_url(digest: str, line: str | None) -> str:
    from django.urls import reverse

    from games.reference import anchor_of

    found = anchor_of(digest, int(line) if line else None)
    if found is None:
        return ""
    slug, anchor = found
    url = reverse("games:rules", args=[slug])
    return f"{url}#{anchor}" if anchor else url


@register.filter
def rule_url(cite: object) -> str:
    """The rules reference page (and anchor) a citation like "unmatched.md:18" points at."""
    from games.reference import CITATION

    found = CITATION.fullmatch(str(cite))
    return _rule_url(found["digest"], found["line"]) if found else ""


@register.filter
def cite_links(text: object) -> SafeString:
    """Text whose citations ("(recharge.md:53)", "shared/rules/ouka-fushin.md") become links to
    the game's rules reference; everything else is escaped as usual."""
    from django.utils.html import conditional_escape, format_html
    from django.utils.translation import gettext

    from games.reference import CITATION

    source = str(text)
    parts: list[str] = []
    end = 0
    for found in CITATION.finditer(source):
        url = _rule_url(found["digest"], found["line"])
        if not url:
            continue
        parts.append(conditional_escape(source[end : found.start()]))
        parts.append(
            format_html(
                '<a href="{}" class="rule-link" title="{}">{}</a>',
                url,
                gettext("The rule, in the game's rules reference"),
                found.group(0),
            )
        )
        end = found.end()
    parts.append(conditional_escape(source[end:]))
    return SafeString("".join(parts))


@register.filter
def rules_page_url(cite: object) -> str:
    """The rules reference page of the game a citation belongs to (no anchor)."""
    return rule_url(cite).split("#", 1)[0]
