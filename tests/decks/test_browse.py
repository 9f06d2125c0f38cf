"""The public deck browser: only public decks, filters by legality, card and player,
pagination, and the same number of queries however many decks there are."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from catalog.models import Card, Game
from decks.models import Deck
from decks.services import deck_create
from decks.specs import EntrySpec
from decks.views.browse import DECKS_PER_PAGE

BROWSE_BUDGET = 10


@pytest.fixture
def mh(db: None) -> Game:
    call_command("import_catalog", "games/monster_hunter/catalog.json", verbosity=0)
    return Game.objects.get(slug="monster-hunter")


def browse(client: Client, game: Game, query: str = "", **headers: Any) -> str:
    response = client.get(reverse("decks:browse", args=[game.slug]) + query, **headers)
    assert response.status_code == 200
    return response.content.decode()


def legal_entries(game: Game) -> list[EntrySpec]:
    hunter = Card.objects.filter(game=game, card_type="hunter").order_by("code").first()
    assert hunter is not None
    main = list(Card.objects.filter(game=game).exclude(card_type="hunter").order_by("code")[:10])
    return [EntrySpec(hunter, "hunter", 1)] + [EntrySpec(c, "main", 4) for c in main]


def make(owner: Any, game: Game, name: str, visibility: str = "public", **kwargs: Any) -> Deck:
    return deck_create(owner=owner, game=game, name=name, visibility=visibility, **kwargs)


def test_only_public_decks_are_listed(
    owner: Any, mh: Game, friend_client: Client, owner_client: Client
) -> None:
    public = make(owner, mh, "Shown to all")
    unlisted = make(owner, mh, "Link only", visibility="unlisted")
    private = make(owner, mh, "Mine only", visibility="private")
    for client in (Client(), friend_client, owner_client):
        html = browse(client, mh)
        assert f'data-deck="{public.public_id}"' in html
        assert unlisted.public_id not in html and private.public_id not in html
        assert "Link only" not in html and "Mine only" not in html


def test_the_legal_filter_keeps_legal_decks(owner: Any, mh: Game) -> None:
    legal = make(owner, mh, "Legal one", entries=legal_entries(mh))
    draft = make(owner, mh, "Draft")
    html = browse(Client(), mh, "?legal=on")
    assert legal.public_id in html and draft.public_id not in html
    assert draft.public_id in browse(Client(), mh)


def test_decks_are_found_by_a_card_code_or_name_in_either_language(owner: Any, mh: Game) -> None:
    reed = Card.objects.get(game=mh, code="MHD-007")
    with_reed = make(owner, mh, "Reed deck", entries=[EntrySpec(reed, "main", 2)])
    other = Card.objects.get(game=mh, code="MHD-008")
    without = make(owner, mh, "Other deck", entries=[EntrySpec(other, "main", 2)])
    for query in ("?card=MHD-007", "?card=mhd-007", "?card=reedskip", "?card=リードスキッパー"):
        html = browse(Client(), mh, query)
        assert with_reed.public_id in html, query
        assert without.public_id not in html, query
    empty = browse(Client(), mh, "?card=nothing-like-this")
    assert "No public deck holds a card matching" in empty


def test_decks_are_filtered_by_player(owner: Any, friend: Any, mh: Game) -> None:
    mine = make(owner, mh, "Owner's")
    theirs = make(friend, mh, "Friend's")
    html = browse(Client(), mh, "?player=FRIEND")
    assert theirs.public_id in html and mine.public_id not in html


def test_pages_of_decks(owner: Any, mh: Game) -> None:
    for n in range(DECKS_PER_PAGE + 3):
        make(owner, mh, f"Deck {n}")
    first = browse(Client(), mh)
    assert first.count("data-deck=") == DECKS_PER_PAGE
    assert f'data-total="{DECKS_PER_PAGE + 3}"' in first
    second = browse(Client(), mh, "?page=2")
    assert second.count("data-deck=") == 3


def test_htmx_gets_only_the_results(owner: Any, mh: Game) -> None:
    make(owner, mh, "Listed")
    html = browse(Client(), mh, "?legal=", HTTP_HX_REQUEST="true")
    assert "<html" not in html and 'id="public-decks"' in html


def test_an_unknown_game_is_404(db: None) -> None:
    assert Client().get(reverse("decks:browse", args=["chess"])).status_code == 404


def test_the_browser_costs_the_same_queries_however_many_decks(
    owner: Any, mh: Game, friend_client: Client
) -> None:
    users = get_user_model()
    counts = []
    for total in (3, 30):
        while Deck.objects.count() < total:
            n = Deck.objects.count()
            player = users.objects.create_user(username=f"player{n}", password="x")
            make(player, mh, f"Deck {n}", entries=legal_entries(mh) if n % 2 else ())
        for query in ("", "?legal=on&card=reed&player=player1"):
            with CaptureQueriesContext(connection) as queries:
                browse(friend_client, mh, query)
            assert len(queries) <= BROWSE_BUDGET, [q["sql"] for q in queries]
            counts.append(len(queries))
    assert counts[:2] == counts[2:]
