"""Deck lists in and out through the API: export, import (new deck or into one), validate."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.test import override_settings
from rest_framework.settings import api_settings
from rest_framework.test import APIClient

from catalog.models import Card, Game, Product
from decks.api import errors
from decks.api.inputs import TEXT_MAX_BYTES
from decks.models import Deck, DeckEntry, DeckRevision

# the shared fixtures (owner_api, deck, mattsan…), found by pytest in this namespace
from tests.decks.test_api_fixtures import *  # noqa: F403
from tests.decks.test_api_fixtures import API, deck_url, make_deck, starter_list

pytestmark = pytest.mark.django_db

VALIDATE = f"{API}validate/"
IMPORT = f"{API}import/"


def _entries_of(body: dict[str, Any]) -> list[tuple[str, str, int, Any]]:
    return sorted((e["zone"], e["card"], e["quantity"], e["printing"]) for e in body["entries"])


@pytest.fixture
def unmatched(db: None) -> Game:
    call_command("import_catalog", "games/unmatched/catalog.json", verbosity=0)
    return Game.objects.get(slug="unmatched")


# --- Export ---------------------------------------------------------------------------------


def test_a_deck_exports_as_text(anonymous_api: APIClient, owner: Any, mattsan: Game) -> None:
    deck = make_deck(
        owner,
        mattsan,
        visibility="unlisted",
        entries=[{"card": "MTD-045", "zone": "main", "quantity": 2}],
    )
    for url in (deck_url(deck, "export/"), deck_url(deck, "export/?format=text")):
        response = anonymous_api.get(url)
        assert response.status_code == 200
        assert response["Content-Type"] == "text/plain; charset=utf-8"
        text = response.content.decode()
        assert "name: Robo Street" in text and "2 Abandoned Factory" in text


def test_an_export_in_an_unknown_or_unfit_format_is_a_400(owner_api: APIClient, deck: Deck) -> None:
    response = owner_api.get(deck_url(deck, "export/?format=pdf"))
    assert response.status_code == 400
    assert response.json() == {
        "format": [str(errors.EXPORT_FORMAT) % {"formats": "text, unmatched-json"}]
    }
    response = owner_api.get(deck_url(deck, "export/?format=unmatched-json"))
    assert response.status_code == 400
    assert response.json() == {"format": [str(errors.EXPORT_NOT_THIS_GAME) % {"formats": "text"}]}


def test_text_export_and_import_round_trip(owner_api: APIClient, deck: Deck) -> None:
    DeckEntry.objects.filter(deck=deck, card__code="MTD-001").update(
        printing=Card.objects.get(code="MTD-001").printings.get()
    )
    original = owner_api.get(deck_url(deck)).json()
    text = owner_api.get(deck_url(deck, "export/?format=text")).content.decode()
    response = owner_api.post(IMPORT, {"game": "mattsan", "text": text}, format="json")
    assert response.status_code == 201, response.json()
    imported = response.json()
    assert imported["public_id"] != deck.public_id
    assert imported["name"] == original["name"]
    assert _entries_of(imported) == _entries_of(original)
    assert imported["legality"] == original["legality"]


def test_unmatched_json_export_and_import_round_trip(
    owner_api: APIClient, owner: Any, unmatched: Game
) -> None:
    product = Product.objects.get(game=unmatched, code="medusa")
    made = owner_api.post(
        f"{API}from-product/", {"game": "unmatched", "product": product.code}, format="json"
    ).json()
    exported = owner_api.get(deck_url(made["public_id"], "export/?format=unmatched-json"))
    assert exported.status_code == 200
    data = exported.json()
    assert data["hero"]["name"] and data["cards"]
    response = owner_api.post(
        IMPORT, {"game": "unmatched", "format": "unmatched-json", "data": data}, format="json"
    )
    assert response.status_code == 201, response.json()
    imported = response.json()
    assert imported["card_count"] == made["card_count"] == 30

    def cards(body: dict[str, Any]) -> dict[tuple[str, str], int]:
        found: dict[tuple[str, str], int] = {}
        for e in body["entries"]:  # the JSON keeps no printing: compare cards, not pins
            found[(e["zone"], e["card"])] = found.get((e["zone"], e["card"]), 0) + e["quantity"]
        return found

    assert cards(imported) == cards(made)
    assert imported["legality"] == made["legality"]


# --- Import ---------------------------------------------------------------------------------


def test_an_import_is_a_new_deck_with_the_lists_name_and_the_requests_visibility(
    owner_api: APIClient, mattsan: Game
) -> None:
    text = "name: Shop Front\n\n## main\n3 Banana Peel\n2 #MTD-045\n"
    response = owner_api.post(
        IMPORT, {"game": "mattsan", "text": text, "visibility": "public"}, format="json"
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["name"] == "Shop Front" and body["visibility"] == "public"
    assert body["card_count"] == 5 and body["version"] == 1


def test_an_import_with_bad_lines_saves_nothing_and_names_every_line(
    owner_api: APIClient, mattsan: Game
) -> None:
    text = "3 Banana Peel\n2 Banana Pell\nlots of Decoy Doll\n1 Decoy Doll\n"
    response = owner_api.post(IMPORT, {"game": "mattsan", "text": text}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["detail"] == str(errors.IMPORT_REFUSED)
    assert [p["line"] for p in body["problems"]] == [2, 3]
    unknown = body["problems"][0]
    assert unknown["text"] == "2 Banana Pell" and unknown["code"] == "unknown-card"
    assert "Did you mean" in unknown["message"] and "Banana Peel" in unknown["message"]
    assert set(body["problems"][1]) == {"line", "text", "message", "code"}
    assert not Deck.objects.exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "text"),
        ({"text": "   "}, "text"),
        ({"text": "1 Banana Peel", "data": {"hero": {}}}, "data"),
        ({"format": "unmatched-json"}, "data"),
        ({"format": "unmatched-json", "data": {"a": 1}, "text": "x"}, "text"),
        ({"format": "csv", "text": "1 x"}, "format"),
        ({"text": "1 Banana Peel\n" * (TEXT_MAX_BYTES // 10)}, "text"),
        ({"text": "1 Banana Peel", "name": "n" * 121}, "name"),
    ],
)
def test_bad_import_requests_are_400s_naming_the_field(
    owner_api: APIClient, mattsan: Game, body: dict[str, Any], field: str
) -> None:
    response = owner_api.post(IMPORT, {"game": "mattsan", **body}, format="json")
    assert response.status_code == 400
    assert field in response.json()


def test_unmatched_json_into_another_game_is_refused_with_a_reason(
    owner_api: APIClient, mattsan: Game
) -> None:
    response = owner_api.post(
        IMPORT,
        {"game": "mattsan", "format": "unmatched-json", "data": {"hero": {}, "cards": []}},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["problems"][0]["code"] == "format"


def test_an_import_into_a_deck_replaces_its_list_as_one_revision(
    owner_api: APIClient, deck: Deck
) -> None:
    response = owner_api.post(
        deck_url(deck, "import/"),
        {"text": "name: Tiny\n4 Banana Peel", "version": deck.version},
        format="json",
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["name"] == "Tiny" and body["version"] == 2
    assert [(e["card"], e["quantity"]) for e in body["entries"]] == [("MTD-035", 4)]
    assert DeckRevision.objects.filter(deck=deck).count() == 2


def test_a_bad_import_into_a_deck_leaves_it_alone(owner_api: APIClient, deck: Deck) -> None:
    response = owner_api.post(
        deck_url(deck, "import/"), {"text": "4 Nothing Here", "version": 1}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["problems"][0]["line"] == 1
    deck.refresh_from_db()
    assert deck.version == 1 and deck.card_count == 30


# --- Validate -------------------------------------------------------------------------------


def test_a_legal_text_list_validates_without_saving_anything(
    anonymous_api: APIClient, owner_api: APIClient, deck: Deck
) -> None:
    text = owner_api.get(deck_url(deck, "export/")).content.decode()
    decks, revisions = Deck.objects.count(), DeckRevision.objects.count()
    response = anonymous_api.post(VALIDATE, {"game": "mattsan", "text": text}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json() == {"legal": True, "card_count": 30, "problems": []}
    assert (Deck.objects.count(), DeckRevision.objects.count()) == (decks, revisions)


def test_an_illegal_text_list_gets_every_problem(anonymous_api: APIClient, mattsan: Game) -> None:
    response = anonymous_api.post(
        VALIDATE, {"game": "mattsan", "text": "4 Banana Peel\n"}, format="json"
    )
    body = response.json()
    assert body["legal"] is False and body["card_count"] == 4
    codes = [p["code"] for p in body["problems"]]
    assert sorted(codes) == ["copy-limit", "zone-size"]
    size = next(p for p in body["problems"] if p["code"] == "zone-size")
    assert (size["expected"], size["actual"], size["zone"]) == (30, 4, "main")
    assert size["rule"].startswith("mattsan.md:")
    assert size["line"] is None and size["path"] is None


def test_unknown_cards_in_a_text_list_are_problems_with_line_and_suggestion(
    anonymous_api: APIClient, mattsan: Game
) -> None:
    text = "3 Banana Peel\n2 Decoy Dol\n"
    response = anonymous_api.post(VALIDATE, {"game": "mattsan", "text": text}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["legal"] is False and body["card_count"] == 3
    unknown = body["problems"][0]
    assert unknown["code"] == "unknown-card" and unknown["severity"] == "error"
    assert unknown["line"] == 2 and unknown["text"] == "2 Decoy Dol"
    assert "Decoy Doll" in unknown["message"]["en"] and "Did you mean" in unknown["message"]["en"]
    assert set(unknown["message"]) == {"en", "ja"}


def test_a_json_list_validates_legal(
    anonymous_api: APIClient, legal_entries: list[dict[str, Any]]
) -> None:
    response = anonymous_api.post(
        VALIDATE, {"game": "mattsan", "entries": legal_entries}, format="json"
    )
    assert response.json() == {"legal": True, "card_count": 30, "problems": []}


def test_unknown_cards_and_printings_in_a_json_list_have_their_path(
    anonymous_api: APIClient, mattsan: Game
) -> None:
    entries = [
        {"card": "MTD-035", "zone": "main", "quantity": 3},
        {"card": "Decoy Dol", "zone": "main", "quantity": 2},
        {"card": "MTD-036", "zone": "main", "quantity": 1, "printing": {"set": "XYZ"}},
    ]
    response = anonymous_api.post(VALIDATE, {"game": "mattsan", "entries": entries}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["legal"] is False and body["card_count"] == 4
    unknown = next(p for p in body["problems"] if p["code"] == "unknown-card")
    assert unknown["path"] == "entries[1].card" and unknown["actual"] == "Decoy Dol"
    assert "MTD-036 (Decoy Doll)" in unknown["message"]["en"]
    printing = next(p for p in body["problems"] if p["code"] == "unknown-printing")
    assert printing["path"] == "entries[2].printing"


def test_a_card_of_another_game_is_the_foreign_card_problem(
    anonymous_api: APIClient, mattsan: Game, monster_hunter: Game
) -> None:
    other = Card.objects.filter(game=monster_hunter).order_by("code").first()
    assert other is not None
    entries = [*starter_list(Product.objects.get(code="MTD-ST1"))]
    entries.append({"card": f"monster-hunter/{other.code}", "zone": "main", "quantity": 1})
    response = anonymous_api.post(VALIDATE, {"game": "mattsan", "entries": entries}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["legal"] is False
    foreign = next(p for p in body["problems"] if p["code"] == "foreign-card")
    assert foreign["cards"][0]["code"] == other.code
    assert foreign["severity"] == "error"


def test_a_card_of_an_unknown_game_is_an_unknown_card(
    anonymous_api: APIClient, mattsan: Game
) -> None:
    entries = [{"card": "chess/queen", "zone": "main", "quantity": 1}]
    body = anonymous_api.post(
        VALIDATE, {"game": "mattsan", "entries": entries}, format="json"
    ).json()
    assert body["problems"][0]["code"] == "unknown-card"
    assert "chess" in body["problems"][0]["message"]["en"]


def test_an_unknown_zone_is_the_checkers_problem_not_a_400(
    anonymous_api: APIClient, mattsan: Game
) -> None:
    entries = [{"card": "MTD-035", "zone": "side", "quantity": 1}]
    body = anonymous_api.post(
        VALIDATE, {"game": "mattsan", "entries": entries}, format="json"
    ).json()
    assert "unknown-zone" in [p["code"] for p in body["problems"]]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "non_field_errors"),
        ({"text": "1 Banana Peel", "entries": []}, "non_field_errors"),
        ({"game": "chess", "text": "1 x"}, "game"),
        ({"text": "1 x", "variant": "tournament"}, "variant"),
        ({"text": "1 x", "extras": {"chips": [1]}}, "extras"),
        ({"text": "1 Banana Peel\n" * (TEXT_MAX_BYTES // 10)}, "text"),
        ({"entries": [{"card": "MTD-035", "zone": "main", "quantity": 0}]}, "entries"),
        ({"entries": [{"card": "MTD-035", "zone": "main", "quantity": 1}] * 501}, "entries"),
    ],
)
def test_bad_validation_requests_are_400s_naming_the_field(
    anonymous_api: APIClient, mattsan: Game, body: dict[str, Any], field: str
) -> None:
    response = anonymous_api.post(VALIDATE, {"game": "mattsan", **body}, format="json")
    assert response.status_code == 400
    assert field in response.json()


def test_validation_is_throttled_for_anonymous_callers(
    anonymous_api: APIClient, mattsan: Game
) -> None:
    rates = {**api_settings.DEFAULT_THROTTLE_RATES, "deck-validate-anon": "2/minute"}
    rest = {**api_settings.user_settings, "DEFAULT_THROTTLE_RATES": rates}
    body = {"game": "mattsan", "text": "1 Banana Peel"}
    with override_settings(REST_FRAMEWORK=rest):
        codes = [anonymous_api.post(VALIDATE, body, format="json").status_code for _ in range(3)]
    assert codes == [200, 200, 429]
