"""Official Unmatched hero decks on the pages and in the API: Buffy starts legal with her
sidekick chosen, and a product whose source list differs from the box says so with its source
(games/unmatched/official.json) on the product page, the deck page and the API."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from decks.models import Deck

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("committed_catalogs")]


def start(client: Client, code: str) -> Deck:
    response = client.post(f"/decks/from-product/unmatched/{code}/")
    assert response.status_code == 302
    return Deck.objects.get(public_id=response["Location"].rstrip("/").split("/")[-1])


def test_buffy_started_from_her_box_is_legal_with_giles_chosen(owner_client: Client) -> None:
    deck = start(owner_client, "buffy")
    assert deck.is_legal is True
    assert deck.extras == {"official": "buffy", "sidekick": "Giles"}
    page = owner_client.get(deck.get_absolute_url()).content.decode()
    assert 'data-sidekick="Giles"' in page
    editor = owner_client.get(f"/decks/{deck.public_id}/edit/").content.decode()
    assert 'name="sidekick" id="sidekick-2" value="Xander"' in editor


def test_choosing_xander_in_the_editor_saves_and_flags_giles_cards(owner_client: Client) -> None:
    deck = start(owner_client, "buffy")
    response = owner_client.post(
        f"/decks/{deck.public_id}/edit/extras/sidekick/",
        {"sidekick": "Xander", "version": deck.version},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    deck.refresh_from_db()
    assert (deck.extras["sidekick"], deck.is_legal) == ("Xander", False)


@pytest.mark.parametrize(
    ("code", "language", "expected"),
    [
        ("daredevil", "en", "only 22 of the 30 action cards"),
        ("daredevil", "ja", "30枚のうち22枚"),
        ("geralt-of-rivia", "en", "36 action cards"),
        ("buffy", "en", "Giles or Xander"),
    ],
)
def test_the_product_page_shows_the_data_note_with_its_source(
    client: Client, code: str, language: str, expected: str
) -> None:
    client.cookies["django_language"] = language
    page = client.get(f"/games/unmatched/products/{code}/").content.decode()
    assert expected in page
    assert f"UnmatchedTracker @69709a1 (MIT), decks/{code}.json" in page


def test_a_deck_from_a_noted_product_is_legal_and_its_panel_explains_instead_of_add_8(
    owner_client: Client,
) -> None:
    deck = start(owner_client, "daredevil")
    assert deck.is_legal is True
    page = owner_client.get(deck.get_absolute_url()).content.decode()
    assert "only 22 of the 30 action cards" in page
    assert "Add 8 cards" not in page


def test_the_api_gives_the_data_notes_of_the_product_and_of_the_deck(
    owner_client: Client,
) -> None:
    product: Any = owner_client.get("/api/v1/games/unmatched/products/elektra/").json()
    (note,) = product["data_notes"]
    assert "only 20 of the 30" in note["en"] and "20枚" in note["ja"]
    assert note["source"].endswith("decks/elektra.json")
    buffy: Any = owner_client.get("/api/v1/games/unmatched/products/buffy/").json()
    assert buffy["choices"] == [
        {"key": "sidekick", "options": ["Giles", "Xander"], "default": "Giles"}
    ]
    deck = start(owner_client, "elektra")
    body: Any = owner_client.get(f"/api/v1/decks/{deck.public_id}/").json()
    assert body["data_notes"] == [note]
    assert body["legality"]["legal"] is True


def test_a_card_added_by_search_is_pinned_to_the_heros_printing(owner_client: Client) -> None:
    from catalog.models import Printing
    from decks.models import DeckEntry

    deck = start(owner_client, "medusa")
    response = owner_client.post(
        f"/decks/{deck.public_id}/edit/add/",
        {"version": deck.version, "card": "feint", "zone": "deck", "printing": ""},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    entry = DeckEntry.objects.get(deck=deck, card__code="feint")
    assert entry.printing is not None and entry.printing.collector_number == "medusa"
    # printed in many decks: the pin is the choice, shown in the entry's printing selector
    assert Printing.objects.filter(card__code="feint").count() > 1
    assert f'<option value="{entry.printing_id}" selected>' in response.content.decode()


def test_a_card_the_heros_deck_lacks_stays_unpinned(owner_client: Client) -> None:
    from decks.models import DeckEntry

    deck = start(owner_client, "medusa")
    owner_client.post(
        f"/decks/{deck.public_id}/edit/add/",
        {"version": deck.version, "card": "skirmish", "zone": "deck"},
        HTTP_HX_REQUEST="true",
    )
    assert DeckEntry.objects.get(deck=deck, card__code="skirmish").printing is None


def test_simulate_is_offered_only_for_a_game_with_an_engine(
    owner: Any, owner_client: Client
) -> None:
    from decks.services import deck_create
    from tests.catalog.factories import GameFactory
    from tests.simulator.fake_games._builders import ENGINELESS, WITH_FAKE_GAMES

    deck = start(owner_client, "medusa")
    assert 'data-action="simulate"' in owner_client.get(deck.get_absolute_url()).content.decode()
    with WITH_FAKE_GAMES:  # a game registered without an engine
        other = deck_create(owner=owner, game=GameFactory(slug=ENGINELESS), name="No engine")
        page = owner_client.get(other.get_absolute_url()).content.decode()
    assert 'data-action="simulate"' not in page and "No engine" in page


def test_the_demo_ouka_product_makes_no_claim_about_a_publisher(client: Client) -> None:
    page = client.get("/games/ouka-fushin/products/OFD-PB1/").content.decode()
    assert "The publisher states" not in page
    game_page = client.get("/games/ouka-fushin/").content.decode()
    assert "/ 47" not in game_page
