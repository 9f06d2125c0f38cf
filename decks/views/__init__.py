"""Deck pages and the editor, split by concern; ``decks/urls.py`` wires them."""

from __future__ import annotations

from decks.views import browse, editor, history, pages, transfer

__all__ = ["browse", "editor", "history", "pages", "transfer"]
