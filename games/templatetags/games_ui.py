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
    from games.links import path_for

    return path_for(digest, line)


@register.filter
def rule_url(cite: object) -> str:
    """The rules reference page (and anchor) a citation like "unmatched.md:18" points at."""
    from games.links import rule_path

    return rule_path(cite)


@register.filter
def rule_title(cite: object) -> str:
    """The cited rule's title in the page's language, as the rules reference names it ("" when
    no rule of the reference covers the citation)."""
    from django.utils.translation import get_language

    from games.links import rule_of

    rule = rule_of(cite)
    return rule.title(get_language() or "en") if rule else ""


@register.filter
def cite_links(text: object) -> SafeString:
    """Text whose citations ("(recharge.md:53)", "shared/rules/ouka-fushin.md") become links to
    the game's rules reference; everything else is escaped as usual."""
    from django.utils.html import conditional_escape, format_html
    from django.utils.translation import get_language, gettext

    from games.links import rule_of
    from games.reference import CITATION

    language = get_language() or "en"
    source = str(text)
    parts: list[str] = []
    end = 0
    for found in CITATION.finditer(source):
        url = _rule_url(found["digest"], found["line"])
        if not url:
            continue
        parts.append(conditional_escape(source[end : found.start()]))
        # named by its title, as the rules reference names it; the citation stays in the tooltip
        rule = rule_of(found.group(0))
        parts.append(
            format_html(
                '<a href="{}" class="rule-link" title="{} ({})" data-cite="{}">{}</a>',
                url,
                gettext("The rule, in the game's rules reference"),
                found.group(0),
                found.group(0),
                rule.title(language) if rule else found.group(0),
            )
        )
        end = found.end()
    parts.append(conditional_escape(source[end:]))
    return SafeString("".join(parts))


@register.filter
def rules_page_url(cite: object) -> str:
    """The rules reference page of the game a citation belongs to (no anchor)."""
    return rule_url(cite).split("#", 1)[0]
