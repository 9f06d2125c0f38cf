"""Card page panels: sections that other apps add to the catalog's card page.

Data flows one way (games and catalog <- decks <- collection / contributions), so the card
page cannot ask an app built on the catalog for its part. Instead such an app registers a
panel from its ``AppConfig.ready``: a template and a function giving that template's context
for one card. The card page renders every registered panel of a slot, in registration order,
and knows nothing else about it; an app that is not installed adds nothing.

Slots: ``actions`` (under the card's facts: links to act on the card) and ``end`` (below
the page's columns, full width).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from catalog.models import Card

SLOTS = ("actions", "end")

PanelContext = Callable[[HttpRequest, Card], dict[str, Any]]


@dataclass(frozen=True)
class CardPanel:
    """A section of the card page: ``template`` rendered with ``context(request, card)``
    (and the page's own ``card``, ``game`` and request context)."""

    key: str
    slot: str
    template: str
    context: PanelContext


_registry: dict[str, CardPanel] = {}


def card_panel_register(panel: CardPanel) -> None:
    """Add ``panel`` to the card page (again under the same key: it replaces the first, so a
    ``ready()`` run twice registers once)."""
    if panel.slot not in SLOTS:
        raise ValueError(f"unknown card page slot {panel.slot!r}; known: {', '.join(SLOTS)}")
    _registry[panel.key] = panel


def card_panel_unregister(key: str) -> None:
    _registry.pop(key, None)


def card_panels() -> list[CardPanel]:
    """The registered panels, in registration order."""
    return list(_registry.values())


def card_panels_render(*, request: HttpRequest, card: Card) -> dict[str, list[SafeString]]:
    """Every registered panel rendered for ``card``, by slot (each slot present, maybe empty)."""
    rendered: dict[str, list[SafeString]] = {slot: [] for slot in SLOTS}
    for panel in _registry.values():
        context = {"card": card, "game": card.game, **panel.context(request, card)}
        rendered[panel.slot].append(render_to_string(panel.template, context, request=request))
    return rendered
