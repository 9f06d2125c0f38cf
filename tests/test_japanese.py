"""Japanese really comes out: pages, legality messages and the API's messages, from the
compiled catalogue (tests/conftest.py compiles it for the session). Each expected text is the
Japanese written in locale/ja, copied here literally."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from decks.legality.check import check_deck
from tests.conftest import demo_deck

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("committed_catalogs")]
JA = {"HTTP_ACCEPT_LANGUAGE": "ja"}


def test_the_home_page_speaks_japanese_to_a_japanese_browser(client: Client) -> None:
    page = client.get("/", **JA).content.decode()
    assert '<html lang="ja"' in page
    assert "デッキ" in page and "ログイン" in page


def test_a_deck_page_shows_its_legality_panel_in_japanese(client: Client, owner: Any) -> None:
    deck = demo_deck("mattsan", owner)
    page = client.get(reverse("decks:detail", args=[deck.public_id]), **JA).content.decode()
    assert "構築ルールに適合：このデッキはすべての構築ルールを満たしています。" in page


def test_a_legality_message_renders_in_the_active_language(owner: Any) -> None:
    from decks.selectors import deck_facts
    from decks.services import deck_entry_set

    deck = demo_deck("mattsan", owner)
    entry = deck.entries.order_by("pk").first()
    assert entry is not None
    deck_entry_set(
        deck=deck,
        user=owner,
        expected_version=deck.version,
        card=entry.card,
        zone=entry.zone,
        quantity=entry.quantity - 1,
        printing=entry.printing,
    )
    (problem,) = [p for p in check_deck(deck_facts(deck=deck)) if p.code == "zone-size"]
    assert "は29枚です。ちょうど30枚にする必要があります。" in problem.message.render("ja")
    assert "has 29 cards; it must have exactly 30." in problem.message.render("en")


def test_the_api_answers_a_japanese_client_in_japanese(client: Client) -> None:
    def problems(**headers: Any) -> str:
        response = client.post(
            "/api/v1/decks/validate/",
            {"game": "mattsan", "text": "1 Zzyzx Qwerty"},
            content_type="application/json",
            **headers,
        )
        assert response.status_code == 200
        return str(response.json())

    assert "という名前のカードはありません。" in problems(**JA)
    assert "No card named “Zzyzx Qwerty”" in problems()
