"""The seam's proof: a sixth game, written as one package outside the repository
(tests/games/sixth_game.py writes it), gets everything a game gets with no edit to shared code:
catalog pages and API, the editor with its extra, the legality panel, text import and export,
test hands and odds with its panel, and its golden check. The features it declares beyond
these are proved in test_sixth_game_features.py, its runs on real workers (PostgreSQL and Redis,
and the embedded default) in test_sixth_game_runs.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from catalog.models import Game
from decks.imports.service import deck_export
from decks.models import Deck
from tests.games import sixth_game_fixtures as fixtures
from tests.games.sixth_game import SLUG

HTMX = {"HTTP_HX_REQUEST": "true"}
# the fixtures this module uses (pytest finds them by their names here)
pebbles, catalog, deck = fixtures.pebbles, fixtures.catalog, fixtures.deck


def test_its_catalog_pages_use_its_own_card_face(catalog: Game, client: Client) -> None:
    game_page = client.get(reverse("catalog:game", args=[SLUG])).content.decode()
    assert "Pebbles Base" in game_page
    set_page = client.get(reverse("catalog:set", args=[SLUG, "PB"])).content.decode()
    assert "Grey Pebble" in set_page and "data-pebble-face" in set_page
    card = client.get(reverse("catalog:card", args=[SLUG, "PB-002"]))
    assert card.status_code == 200 and "Red Pebble · 3" in card.content.decode()


def test_its_catalog_is_in_the_api(catalog: Game, client: Client) -> None:
    assert SLUG in [g["slug"] for g in client.get("/api/v1/games/").json()]
    response = client.get(f"/api/v1/games/{SLUG}/cards/", {"weight_min": 2})
    assert response.status_code == 200, response.content
    cards = response.json()["results"]
    assert sorted(c["code"] for c in cards) == ["PB-002", "PB-003", "PB-004"]


def test_its_extra_reads_from_text_and_its_rules_judge_the_deck(deck: Deck) -> None:
    assert deck.extras == {"tokens": 7, "marks": [2, 1]}
    assert not deck.is_legal  # its own rule: at most 5 tokens (pebbles.md:4)
    exported = deck_export(deck=deck)
    assert isinstance(exported, str)
    assert "tokens: 7" in exported and "4 Grey Pebble" in exported


def test_its_legality_panel_and_editor_show_its_rules_and_extra(
    deck: Deck, owner_client: Client
) -> None:
    page = owner_client.get(reverse("decks:detail", args=[deck.public_id])).content.decode()
    assert 'data-problem="too-many-tokens"' in page and "pebbles.md:4" in page
    assert "Tokens: 7" in page  # its display partial
    editor = owner_client.get(reverse("decks:edit", args=[deck.public_id])).content.decode()
    assert 'id="tokens-editor"' in editor
    url = reverse("decks:edit-extra", args=[deck.public_id, "tokens"])
    refused = owner_client.post(url, {"version": deck.version, "tokens": "lots"}, **HTMX)
    assert refused.status_code == 400
    assert "Write the tokens as a whole number." in refused.content.decode()
    saved = owner_client.post(url, {"version": deck.version, "tokens": "3"}, **HTMX)
    assert saved.status_code == 200
    deck.refresh_from_db()
    assert deck.extras == {"tokens": 3, "marks": [2, 1]} and deck.is_legal


def test_its_extra_schema_holds_in_the_api(deck: Deck, owner_client: Client) -> None:
    url = f"/api/v1/decks/{deck.public_id}/"
    response = owner_client.patch(
        url, {"version": deck.version, "extras": {"tokens": 1000}}, content_type="application/json"
    )
    assert response.status_code == 400
    assert "extras" in response.json()
    deck.refresh_from_db()
    assert deck.extras == {"tokens": 7, "marks": [2, 1]}


def test_its_test_hand_shows_its_panel_and_its_odds_follow_its_schedule(
    deck: Deck, owner_client: Client
) -> None:
    url = reverse("testhands:test-hand", args=[deck.public_id])
    page = owner_client.get(url, {"seed": 5, "turn": 1})
    assert page.status_code == 200
    html = page.content.decode()
    assert "data-heaviest" in html and "Pebbles draws 1 a turn." in html
    api = owner_client.get(f"/api/v1/decks/{deck.public_id}/test-hand/", {"seed": 5, "turns": 1})
    body = api.json()
    assert [len(d["cards"]) for d in body["draws"]] == [3, 1]  # opening 3, then 1 (pebbles.md:5)
    weights = {"Grey Pebble": 1, "Red Pebble": 3, "Blue Pebble": 2}
    drawn = [c["name"] for d in body["draws"] for c in d["cards"]]
    assert body["panels"]["heaviest"]["weight"] == max(weights[n] for n in drawn)
    odds = owner_client.get(
        f"/api/v1/decks/{deck.public_id}/odds/", {"group": "type:pebble", "k": 1, "turns": 2}
    ).json()
    assert [row["seen"] for row in odds["rows"]] == [3, 4, 5]
    assert [row["probability"] for row in odds["rows"]] == [1.0, 1.0, 1.0]


def test_its_golden_transcripts_are_written_and_checked(pebbles: Path) -> None:
    call_command("regenerate_golden", SLUG, verbosity=0)
    game0 = (pebbles / "golden" / "game0.txt").read_text("utf-8")
    assert "# pebbles golden game 'game0'" in game0
    call_command("regenerate_golden", SLUG, "--check", verbosity=0)
    (pebbles / "golden" / "game0.txt").write_text(game0.replace("turn 1:", "turn 9:"), "utf-8")
    with pytest.raises(CommandError, match="1 golden file"):
        call_command("regenerate_golden", SLUG, "--check", verbosity=0)
    call_command("regenerate_golden", SLUG, verbosity=0)
