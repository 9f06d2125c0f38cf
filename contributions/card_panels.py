"""What contributions adds to the catalog's card page (catalog.panels), registered from
``ContributionsConfig.ready``: the links to propose a correction or the card's missing name
(and, for an editor, to merge the card into another), and the card's history with, for an
editor, its Revert buttons."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from catalog.models import Card
from catalog.panels import CardPanel, card_panel_register
from contributions.diff import history_entries
from contributions.merge_revert import public_before
from contributions.selectors import card_history
from contributions.services import is_editor


def _editor(request: HttpRequest) -> bool:
    """Whether the viewer edits the catalog, asked once per page: both panels want it and
    each asking costs a query."""
    known = getattr(request, "_catalog_editor", None)
    if known is None:
        known = is_editor(request.user)
        request._catalog_editor = known  # type: ignore[attr-defined]
    return bool(known)


def _actions(request: HttpRequest, card: Card) -> dict[str, Any]:
    # for an editor, the way to merge this card when it duplicates another
    return {"can_merge": _editor(request)}


def card_history_context(request: HttpRequest, card: Card) -> dict[str, Any]:
    """The card's history (one query) and, for an editor, its Revert buttons: the card page's
    panel and the history page (contributions/views/history.py) show the same."""
    changes = card_history(card=card)
    for change in changes:  # shown, never saved: a merge's moved rows are not for the page
        change.before = public_before(change.before)
    return {"history": history_entries(changes), "can_revert": _editor(request)}


PANELS = (
    CardPanel("contributions-actions", "actions", "contributions/card_actions.html", _actions),
    CardPanel(
        "contributions-history",
        "end",
        "contributions/review/_card_history.html",
        card_history_context,
    ),
)


def register() -> None:
    for panel in PANELS:
        card_panel_register(panel)
