"""Revision history as data: each revision stores what changed, and the history is written in
the reader's language; an editing session's clicks are one revision, while explicit saves,
imports and restores stay distinct."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from catalog.models import Game
from decks.models import Deck, DeckRevision
from decks.services import SESSION_GAP, deck_create, deck_update

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("committed_catalogs")]
HTMX = {"HTTP_HX_REQUEST": "true"}
ZONE = "hunter"
A, B, C = "MHD-001", "MHD-002", "MHD-003"


@pytest.fixture
def deck(owner: Any) -> Deck:
    return deck_create(owner=owner, game=Game.objects.get(slug="monster-hunter"), name="Hunters")


def add(client: Client, deck: Deck, code: str) -> None:
    deck.refresh_from_db()
    response = client.post(
        f"/decks/{deck.public_id}/edit/add/",
        {"version": deck.version, "card": code, "zone": ZONE},
        **HTMX,
    )
    assert response.status_code == 200, response.content[:300]


def summaries(client: Client, deck: Deck, language: str) -> list[str]:
    client.cookies["django_language"] = language
    page = client.get(f"/decks/{deck.public_id}/history/").content.decode()
    return [s.strip() for s in re.findall(r"<td[^>]*data-summary>([^<]*)</td>", page)]


def test_an_editing_sessions_clicks_are_one_revision_with_every_change(
    deck: Deck, owner_client: Client
) -> None:
    for code in (A, A, B):
        add(owner_client, deck, code)
    revisions = list(DeckRevision.objects.filter(deck=deck).order_by("number"))
    assert [r.number for r in revisions] == [1, 2]
    assert sorted((e["card"], e["delta"]) for e in revisions[1].changes["entries"]) == [
        (A, 2),
        (B, 1),
    ]
    deck.refresh_from_db()
    assert deck.version == 4  # every click still a version of its own


def test_an_edit_after_the_session_gap_or_an_explicit_save_starts_a_new_revision(
    deck: Deck, owner: Any, owner_client: Client
) -> None:
    add(owner_client, deck, A)
    DeckRevision.objects.filter(deck=deck, number=2).update(
        created_at=timezone.now() - SESSION_GAP - dt.timedelta(seconds=1)
    )
    add(owner_client, deck, B)
    deck.refresh_from_db()
    deck_update(deck=deck, user=owner, expected_version=deck.version, name="Gorgons")
    add(owner_client, deck, C)
    assert list(
        DeckRevision.objects.filter(deck=deck).order_by("number").values_list("kind", flat=True)
    ) == ["", "edit", "edit", "", "edit"]


def test_the_history_names_cards_and_fields_in_the_readers_language(
    deck: Deck, owner: Any, owner_client: Client
) -> None:
    add(owner_client, deck, A)
    deck.refresh_from_db()
    deck_update(deck=deck, user=owner, expected_version=deck.version, name="Gorgons")
    assert summaries(owner_client, deck, "ja") == ["名前", "+1 流浪のハンター レン", "作成日時"]
    assert summaries(owner_client, deck, "en") == ["Name", "+1 Wandering Hunter Ren", "created"]
