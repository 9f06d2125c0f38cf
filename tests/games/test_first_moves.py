"""Test hands of the games whose engines plan a hand (Monster Hunter, 央華封神, Mattsan) show
what the engine would do first, on the page and in the API, in the reader's language."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from catalog.models import Card
from games import registry
from simulator.testhands.panels import PLAN_KEY, panels_of
from tests.conftest import demo_deck

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("committed_catalogs")]
PLANNED = [g.slug for g in registry.all_games() if PLAN_KEY in {p.key for p in panels_of(g.slug)}]


def test_the_three_new_engines_plan_their_hands() -> None:
    assert {"monster-hunter", "ouka-fushin", "mattsan"} <= set(PLANNED)


@pytest.mark.parametrize("slug", PLANNED)
def test_the_page_and_the_api_show_the_same_first_moves(
    slug: str, owner: Any, owner_client: Client
) -> None:
    deck = demo_deck(slug, owner)
    api = owner_client.get(f"/api/v1/decks/{deck.public_id}/test-hand/", {"seed": 3, "turns": 0})
    steps = api.json()["panels"][PLAN_KEY]["steps"]
    assert steps and all(step["text"] for step in steps)
    page = owner_client.get(
        reverse("testhands:test-hand", args=[deck.public_id]), {"seed": 3, "turn": 0}
    ).content.decode()
    assert "data-first-moves" in page
    assert page.count("data-step") == len(steps)


def test_mattsan_puts_the_unit_with_the_most_hp_on_the_battlefield(
    owner: Any, owner_client: Client
) -> None:
    deck = demo_deck("mattsan", owner)
    for seed in range(1, 30):
        body = owner_client.get(
            f"/api/v1/decks/{deck.public_id}/test-hand/", {"seed": seed, "turns": 0}
        ).json()
        opening = [c["name"] for c in body["draws"][0]["cards"]]
        units = Card.objects.filter(game__slug="mattsan", card_type="unit", name_en__in=opening)
        if not units:
            continue
        best = max(int(u.attributes["hp"]) for u in units)
        first = body["panels"][PLAN_KEY]["steps"][0]["text"]
        leaders = [u.name_en for u in units if int(u.attributes["hp"]) == best]
        assert first.endswith(f"(HP {best}): the unit with the most HP in hand."), first
        assert any(first == f"Put {name} on the battlefield (HP {best}): the unit with the "
                   "most HP in hand." for name in leaders), first  # fmt: skip
        return
    pytest.fail("no seed dealt a unit")
