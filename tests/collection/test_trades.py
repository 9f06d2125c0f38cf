"""The trade list: copies a player marks for trade, shown on their public profile only while
the collection is public (collections are private by default)."""

from __future__ import annotations

from typing import Any

from django.test import Client
from django.urls import reverse

from collection.services import collection_settings_update
from tests.collection.conftest import Shelf, add


def trades_url(user: Any) -> str:
    return reverse("collection:trades", args=[user.get_username()])


def profile_url(user: Any) -> str:
    return reverse("accounts:profile", args=[user.get_username()])


def test_only_copies_marked_for_trade_are_listed(
    shelf: Shelf, owner: Any, owner_client: Client
) -> None:
    add(owner, shelf.base_printings[0], 3, trade_quantity=2)
    add(owner, shelf.base_printings[1], 4)  # none for trade
    page = owner_client.get(trades_url(owner)).content.decode()
    assert 'data-trade="2"' in page and "Flame Fox" in page
    assert "Stone, Wall" not in page


def test_a_private_collections_trades_are_404_to_others(
    shelf: Shelf, owner: Any, stranger_client: Client, client: Client
) -> None:
    add(owner, shelf.base_printings[0], 3, trade_quantity=1)
    assert stranger_client.get(trades_url(owner)).status_code == 404
    assert client.get(trades_url(owner)).status_code == 404
    assert "profile-trades" not in stranger_client.get(profile_url(owner)).content.decode()


def test_a_public_collections_trades_show_on_the_profile(
    shelf: Shelf, owner: Any, stranger_client: Client, client: Client
) -> None:
    add(owner, shelf.base_printings[0], 3, trade_quantity=1)
    add(owner, shelf.base_printings[2], 2, trade_quantity=2)
    collection_settings_update(owner=owner, is_public=True)
    profile = stranger_client.get(profile_url(owner)).content.decode()
    assert "2 cards for trade" in profile
    page = client.get(trades_url(owner)).content.decode()
    assert page.count("data-trade=") == 2


def test_the_owner_sees_the_link_while_private_with_the_reason(
    shelf: Shelf, owner: Any, owner_client: Client
) -> None:
    add(owner, shelf.base_printings[0], 1, trade_quantity=1)
    profile = owner_client.get(profile_url(owner)).content.decode()
    assert "1 card for trade" in profile
    assert "Others see this list only while your collection is public." in profile


def test_the_deck_page_offers_mark_as_built_to_its_owner_only(
    shelf: Shelf, owner: Any, owner_client: Client, stranger_client: Client
) -> None:
    from decks.models import Deck
    from tests.collection.conftest import make_deck

    deck = make_deck(owner, shelf.game, [(shelf.cards[0], 1)])
    Deck.objects.filter(pk=deck.pk).update(visibility="public")
    url = reverse("decks:detail", args=[deck.public_id])
    assert 'id="mark-built"' in owner_client.get(url).content.decode()
    assert 'id="mark-built"' not in stranger_client.get(url).content.decode()
