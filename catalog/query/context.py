"""Who is searching: the apps that know what a player owns or is editing hand the search
language its ``is:owned``/``is:missing`` and ``in:deck`` conditions through one provider,
registered when the app starts, so the catalog (which the others build on) imports none of
them. Without a provider those fields answer "not available here"."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from catalog.query.compile import SearchContext

#: (user, deck being edited or None) -> the searcher's context
Provider = Callable[[Any, Any], SearchContext]
_provider: Provider | None = None


def register_search_context(provider: Provider) -> None:
    """Install the provider (the collection app's, at start-up)."""
    global _provider
    _provider = provider


def search_context(*, user: Any, deck: Any = None) -> SearchContext:
    if _provider is not None:
        return _provider(user, deck)
    signed_in = bool(user is not None and user.is_authenticated)
    return SearchContext(signed_in=signed_in)
