"""The editor's version logic on the server: each answer carries the version the next change
must name, so one tab that sends its changes one after the other (static/decks/editor.js) is
never refused, while changes naming a version another writer has moved past are refused
with 409 and change nothing."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connections
from django.test import Client

from catalog.models import Card, Game
from decks import errors
from decks.models import Deck, DeckEntry, DeckRevision
from decks.services import deck_create
from tests.decks.test_editor import add, version_in

THREADS = 20


@pytest.fixture
def mh(db: None) -> Game:
    call_command("import_catalog", "games/monster_hunter/catalog.json", verbosity=0)
    return Game.objects.get(slug="monster-hunter")


@pytest.fixture
def deck(owner: Any, mh: Game) -> Deck:
    return deck_create(owner=owner, game=mh, name="One tab at a time")


def test_fifty_adds_each_naming_the_version_the_last_answer_carried_all_save(
    deck: Deck, mh: Game, owner_client: Client
) -> None:
    card = Card.objects.get(game=mh, code="MHD-025")
    version = 1
    for _ in range(50):
        response = add(owner_client, deck, version, card, "main")
        assert response.status_code == 200
        version = version_in(response.content.decode())
    deck.refresh_from_db()
    assert deck.version == version == 51
    assert DeckEntry.objects.get(deck=deck, card=card).quantity == 50


def test_a_second_change_naming_the_version_the_first_already_used_is_refused(
    deck: Deck, mh: Game, owner_client: Client
) -> None:
    card = Card.objects.get(game=mh, code="MHD-025")
    assert add(owner_client, deck, 1, card, "main").status_code == 200
    refused = add(owner_client, deck, 1, card, "main")
    assert refused.status_code == 409
    assert str(errors.STALE_DECK) in refused.content.decode()
    assert 'data-status="409"' in refused.content.decode()
    deck.refresh_from_db()
    assert deck.version == 2
    assert DeckEntry.objects.get(deck=deck, card=card).quantity == 1


@pytest.mark.django_db(transaction=True)
def test_twenty_changes_released_at_once_with_one_version_save_exactly_one(
    deck: Deck, mh: Game, owner: Any
) -> None:
    card = Card.objects.get(game=mh, code="MHD-025")
    clients = []
    for _ in range(THREADS):
        client = Client(raise_request_exception=False)
        client.force_login(owner)
        clients.append(client)
    start = threading.Barrier(THREADS)
    statuses = [0] * THREADS

    def run(index: int) -> None:
        try:
            start.wait()
            statuses[index] = add(clients[index], deck, 1, card, "main").status_code
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(statuses) == [200] + [409] * (THREADS - 1)
    deck.refresh_from_db()
    assert deck.version == 2
    assert list(DeckEntry.objects.filter(deck=deck).values_list("card__code", "quantity")) == [
        ("MHD-025", 1)
    ]
    assert DeckRevision.objects.filter(deck=deck).count() == 2
