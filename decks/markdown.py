"""Deck descriptions: Markdown rendered to HTML, then sanitised with nh3 (Ammonia).

Sanitising the *output* (not escaping the input) lets players write Markdown while no tag,
attribute or URL scheme outside the allow-list survives: no script, no event handler, no
javascript: link. Links get rel="nofollow noopener" and open nowhere special.
"""

from __future__ import annotations

import markdown as markdown_lib
import nh3
from django.utils.safestring import SafeString, mark_safe

ALLOWED_TAGS = {
    "p",
    "br",
    "hr",
    "strong",
    "em",
    "del",
    "code",
    "pre",
    "blockquote",
    "ul",
    "ol",
    "li",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "a",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
}
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "th": {"align"}, "td": {"align"}}
URL_SCHEMES = {"http", "https", "mailto"}


def render_markdown(text: str) -> SafeString:
    html = markdown_lib.markdown(text or "", extensions=["tables", "sane_lists"])
    clean = nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes=URL_SCHEMES,
        link_rel="nofollow noopener noreferrer",
    )
    return mark_safe(clean)  # sanitised by nh3 just above
