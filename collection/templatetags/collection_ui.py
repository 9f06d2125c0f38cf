"""Template helpers of the collection: the choices of a game's add form."""

from __future__ import annotations

from typing import Any

from django import template

from collection.vocab import Condition, finish_label, finishes_for, language_label, languages_for

register = template.Library()


@register.simple_tag
def collection_choices(game_slug: str) -> dict[str, Any]:
    return {
        "conditions": Condition.choices,
        "finishes": finishes_for(game_slug),
        "languages": [(c, language_label(c)) for c in languages_for(game_slug)],
    }


@register.filter
def condition_label(code: str) -> str:
    return str(dict(Condition.choices).get(code, code))


@register.filter
def language_name(code: str) -> str:
    return language_label(code)


@register.filter
def finish_name(code: str, game_slug: str) -> str:
    return finish_label(game_slug, code)


@register.inclusion_tag("collection/_profile_trades.html")
def profile_trades(player: Any, viewer: Any) -> dict[str, Any]:
    """A player's profile's link to their trade list: shown when the collection is public
    (to anyone) or to the player themself."""
    from collection.models import CollectionSettings
    from collection.selectors import trade_list

    is_self = bool(viewer.is_authenticated and viewer.pk == player.pk)
    public, all_cards = False, False
    if not is_self:
        # both in one query (none for the player themself): the profile's query count is fixed
        settings = CollectionSettings.objects.filter(owner=player)
        public, all_cards = settings.values_list("is_public", "shows_all_cards").first() or (
            False,
            False,
        )
    shown = is_self or public
    count = trade_list(owner=player).count() if shown else 0
    all_cards = public and all_cards
    return {
        "player": player,
        "shown": shown,
        "count": count,
        "is_self": is_self,
        "all_cards": all_cards,
    }


@register.inclusion_tag("collection/_card_copies.html", takes_context=True)
def card_copies_panel(context: Any, card: Any) -> dict[str, Any]:
    """The card page's "my copies": printings, binders and the decks that use them."""
    from collection.selectors import card_copies

    request = context.get("request")
    user = getattr(request, "user", None)
    signed_in = user is not None and user.is_authenticated
    copies = card_copies(owner=user, card=card) if signed_in else None
    return {
        "my_copies": copies,
        "card": card,
        "game": context.get("game"),
        "printings": context.get("printings"),
        "user": user,
        "request": request,
        "csrf_token": context.get("csrf_token"),
    }


@register.inclusion_tag("collection/_deck_report.html", takes_context=True)
def deck_collection_panel(context: Any, deck: Any) -> dict[str, Any]:
    """A deck's owned and missing cards for the signed-in reader (nothing for visitors)."""
    from collection.report import deck_collection_report

    request = context.get("request")
    user = getattr(request, "user", None)
    signed_in = user is not None and user.is_authenticated
    report = deck_collection_report(deck=deck, viewer=user) if signed_in else None
    return {
        "collection_report": report,
        "deck": deck,
        "user": user,
        "request": request,
        "csrf_token": context.get("csrf_token"),
    }
