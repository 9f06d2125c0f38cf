"""A deck list's card names are written in the player's language (issue 18: a deck exported
from the Japanese interface wrote English names): the interface's language by default, or the
one asked for (``names=en|ja``) on the page's links and in the API; the list reads back into
the same deck whichever language it was written in."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from django.core.management import call_command
from django.test import Client
from rest_framework.test import APIClient

from decks.imports.service import deck_export, deck_import
from decks.models import Deck
from decks.selectors import deck_entries
from tests.conftest import DEMO_PRODUCTS, demo_deck

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("committed_catalogs")]


def _entries(deck: Deck) -> list[tuple[str, str, int, int | None]]:
    return sorted((e.zone, e.card.code, e.quantity, e.printing_id) for e in deck_entries(deck=deck))


def _card_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line[:1].isdigit()]


def _names_written(deck: Deck, text: str, language: str) -> None:
    """Every card line names its card in ``language`` (or by its code, where the name is
    shared by two cards and so would be ambiguous), never in the other language."""
    refs = [line.split(" ", 1)[1] for line in text.splitlines() if line[:1].isdigit()]
    assert refs
    for entry in deck_entries(deck=deck):
        card = entry.card
        wanted = card.name_ja if language == "ja" and card.name_ja else card.name_en
        other = card.name_en if language == "ja" else card.name_ja
        assert any(_names(ref, wanted) or ref.startswith(f"#{card.code}") for ref in refs), (
            card.code,
            wanted,
            refs,
        )
        if other and other != wanted:
            assert not any(_names(ref, other) for ref in refs), (card.code, other, refs)


def _names(ref: str, name: str) -> bool:
    """``ref`` (a line less its quantity) is ``name``, with or without a pinned printing."""
    return ref == name or ref.startswith(f"{name} (")


@pytest.mark.parametrize("slug", sorted(DEMO_PRODUCTS))
def test_a_list_written_with_japanese_names_reads_back_into_the_same_deck(
    owner: Any, slug: str
) -> None:
    deck = demo_deck(slug, owner)
    text = deck_export(deck=deck, names="ja")
    assert isinstance(text, str)
    _names_written(deck, text, "ja")
    again = deck_import(owner=owner, game=deck.game, text=text)
    assert _entries(again) == _entries(deck)
    assert again.extras == deck.extras


def test_the_japanese_interface_exports_japanese_names_by_default(
    owner: Any, owner_client: Client
) -> None:
    deck = demo_deck("mattsan", owner)
    url = f"/decks/{deck.public_id}/export/text/"
    japanese = owner_client.get(url, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    english = owner_client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    _names_written(deck, japanese, "ja")
    _names_written(deck, english, "en")
    assert japanese != english
    # the player may choose the other language from either interface
    chosen = owner_client.get(f"{url}?names=en", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert chosen == english
    refused = owner_client.get(f"{url}?names=fr")
    assert refused.status_code == 400 and b"en, ja" in refused.content


def test_the_deck_page_offers_both_languages_of_names(owner: Any, owner_client: Client) -> None:
    deck = demo_deck("mattsan", owner)
    page = owner_client.get(f"/decks/{deck.public_id}/").content.decode()
    assert f'href="/decks/{deck.public_id}/export/text/?names=en"' in page
    assert f'href="/decks/{deck.public_id}/export/text/?names=ja"' in page


def test_the_api_exports_names_in_the_asked_or_the_requests_language(owner: Any) -> None:
    deck = demo_deck("ouka-fushin", owner)
    api = APIClient()
    api.force_authenticate(owner)
    url = f"/api/v1/decks/{deck.public_id}/export/"
    by_header = api.get(url, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    by_parameter = api.get(f"{url}?names=ja").content.decode()
    assert by_header == by_parameter
    _names_written(deck, by_parameter, "ja")
    _names_written(
        deck, api.get(f"{url}?names=en", HTTP_ACCEPT_LANGUAGE="ja").content.decode(), "en"
    )
    refused = api.get(f"{url}?names=de")
    assert refused.status_code == 400
    assert list(refused.json()) == ["names"]
    # and the Japanese list imports through the API into the same deck
    created = api.post(
        "/api/v1/decks/import/", {"game": "ouka-fushin", "text": by_parameter}, format="json"
    )
    assert created.status_code == 201, created.content
    again = Deck.objects.get(public_id=created.json()["public_id"])
    assert _entries(again) == _entries(deck)


def test_the_schema_documents_the_names_parameter(tmp_path: Path) -> None:
    target = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--file", str(target))
    export = yaml.safe_load(target.read_text())["paths"]["/api/v1/decks/{public_id}/export/"]
    parameters = {p["name"]: p for p in export["get"]["parameters"]}
    assert parameters["names"]["schema"]["enum"] == ["en", "ja"]


def test_the_replace_page_starts_from_the_list_in_the_interfaces_language(
    owner: Any, owner_client: Client
) -> None:
    deck = demo_deck("mattsan", owner)
    card = next(e.card for e in deck_entries(deck=deck) if e.card.name_ja != e.card.name_en)
    url = f"/decks/{deck.public_id}/import/"
    japanese = owner_client.get(url, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    english = owner_client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert card.name_ja in japanese and card.name_ja not in english
