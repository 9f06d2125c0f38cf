"""Small presentation helpers for the deck pages and the editor."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from catalog.attributes import described
from catalog.models import Card, Printing
from decks.game_rules import deck_rules
from decks.imports.formats import game_formats
from decks.models import Deck

register = template.Library()

FIELD_LABELS: dict[str, Promise] = {
    "card": _("Card"),
    "zone": _("Zone"),
    "quantity": _("Quantity"),
    "delta": _("Quantity"),
    "printing": _("Printing"),
    "entry": _("Entry"),
    "entries": _("Entries"),
    "name": _("Name"),
    "description": _("Description"),
    "visibility": _("Visibility"),
    "variant": _("Rules variant"),
    "version": _("Version"),
    "extras": _("Game extras"),
}
VISIBILITY_STYLE = {
    "public": "text-bg-primary",
    "unlisted": "text-bg-info",
    "private": "text-bg-secondary",
}


@register.filter
def key_attributes(card: Card) -> list[str]:
    """The attributes a card's face shows, as "Label value" (the compact list's detail)."""
    spec = card.game.spec
    schema = spec.schema_for(card.card_type)
    keys = set(schema.face_keys)
    return [
        f"{label} {value}"
        for key, label, value in described(schema, card.attributes)
        if key in keys
    ]


@register.filter
def printing_name(printing: Printing | None, card: Card) -> str:
    """A printing as players write it: set code, number and variant (of ``card``'s game)."""
    if printing is None:
        return ""
    label = " ".join(p for p in (printing.card_set.code, printing.collector_number) if p)
    if printing.variant:
        variant = card.spec.variant_label(printing.variant)
        return f"{label} [{variant}]"
    return label


@register.filter
def field_label(name: str) -> str:
    return str(FIELD_LABELS.get(name, name))


@register.filter
def visibility_style(visibility: str) -> str:
    return VISIBILITY_STYLE.get(visibility, "text-bg-secondary")


@register.filter
def variant_label(deck: Deck) -> str:
    return deck_rules(deck.game.slug).variant_label(deck.variant) if deck.variant else ""


@register.filter
def own_formats(deck: Any) -> tuple[Any, ...]:
    """The deck's game's own list formats (beside the text list every game has)."""
    return game_formats(deck.game.slug)


@register.filter
def relative_time(value: Any) -> str:
    """The time as "5 minutes ago", in a span that static/decks/relative_time.js keeps true."""
    from django.contrib.humanize.templatetags.humanize import naturaltime
    from django.utils.html import format_html

    if value is None:
        return ""
    return format_html(
        '<span data-relative-time="{}">{}</span>', value.isoformat(), naturaltime(value)
    )


@register.filter
def has_engine(deck: Deck) -> bool:
    """Whether the deck's game has a goldfish engine: Simulate is offered only then."""
    from games import registry

    return registry.is_game(deck.game.slug) and registry.get(deck.game.slug).engine is not None
