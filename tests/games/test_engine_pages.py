"""Every game's engine says, on its simulation page and in the API, what it does not model,
what it assumes where the rules are silent, and which rule lines it applies."""

from __future__ import annotations

import re
from html import escape
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import registry
from tests.conftest import demo_deck

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("committed_catalogs")]


def test_every_game_has_an_engine() -> None:
    assert set(registry.engines()) == set(registry.slugs())


@pytest.mark.parametrize("slug", sorted(registry.engines()))
def test_the_simulation_page_lists_the_engines_limits_and_rules(
    slug: str, owner: Any, owner_client: Client
) -> None:
    engine = registry.engines()[slug]
    assert engine.not_modelled and engine.cites
    deck = demo_deck(slug, owner)
    page = owner_client.get(reverse("simulator:simulate", args=[deck.public_id])).content.decode()
    # the digest citations inside the lines are links to the game's rules reference, named by
    # the rule's title (the citation kept in data-cite): put the citations back to compare
    text = re.sub(r'<a [^>]*data-cite="([^"]+)"[^>]*>.*?</a>', r"\1", page)
    text = re.sub(r"<a [^>]*>|</a>", "", text)
    for line in engine.not_modelled:
        assert escape(line) in text, line
    for line in engine.assumptions:
        assert escape(line) in text, line
    for cite in engine.cites:
        assert f"<code>{cite}</code>" in page
    assert ('id="assumptions"' in page) == bool(engine.assumptions)


def test_mattsan_lists_its_assumptions_in_the_api(client: Client) -> None:
    engines = {e["slug"]: e for e in client.get("/api/v1/engines/").json()}
    mattsan = engines["mattsan"]
    assert mattsan["assumptions"]
    assert any("opening hand" in line.lower() for line in mattsan["assumptions"])


@pytest.mark.parametrize(
    ("slug", "param", "value", "expected"),
    [
        ("unmatched", "per_turn", 2, "2 maneuvers a turn are assumed"),
        ("unmatched", "per_turn", 0, "0 maneuvers a turn are assumed"),
        ("monster-hunter", "per_turn", 3, "Refills assume 3 cards used a turn"),
        ("monster-hunter", "per_turn", 2, "Refills assume 2 cards used a turn"),
    ],
)
def test_the_odds_notes_follow_the_numbers_asked(
    slug: str, param: str, value: int, expected: str, owner: Any, owner_client: Client
) -> None:
    deck = demo_deck(slug, owner)
    body = owner_client.get(
        f"/api/v1/decks/{deck.public_id}/odds/",
        {"group": f"type:{deck.entries.first().card.card_type}", param: value},
    ).json()
    assert any(expected in line for line in body["assumptions"]), body["assumptions"]
    assert expected in body["schedule"]["note"]
