"""央華封神's exact-odds schedule counts the end phase's draw back to 6 (ouka-fushin.md:68):
cards seen by each turn, written out by hand for several numbers of cards used a turn."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games import registry
from tests.conftest import demo_deck

# (cards used a turn, turn) -> cards seen once that turn's draws are done: the opening 6,
# 2 a turn from turn 1, and each earlier end phase's draw back to 6 (used - 2, at least 0)
SEEN = {
    (2, 0): 6,
    (2, 1): 8,
    (2, 3): 12,
    (0, 3): 12,  # a turn using fewer than its 2 draws discards at its end: no extra draw
    (3, 1): 8,  # turn 1's own end phase comes after its draws
    (3, 2): 11,
    (3, 3): 14,
    (4, 2): 12,
    (4, 3): 16,
    (8, 2): 16,  # six used beyond the 2 drawn, drawn back at turn 1's end
    (8, 4): 32,
}


@pytest.mark.parametrize(("used", "turn"), sorted(SEEN))
def test_cards_seen_count_the_end_phase_draw(used: int, turn: int) -> None:
    setup = registry.get("ouka-fushin").setup
    schedule = setup.schedule_with({"used_per_turn": used})
    assert schedule.seen_by_turn(turn) == SEEN[(used, turn)]


@pytest.mark.django_db
@pytest.mark.usefixtures("committed_catalogs")
def test_the_api_deals_and_counts_with_the_cards_used_a_turn(
    owner: Any, owner_client: Client
) -> None:
    deck = demo_deck("ouka-fushin", owner)
    url = f"/api/v1/decks/{deck.public_id}/"
    hand = owner_client.get(url + "test-hand/", {"seed": 1, "turns": 3, "used_per_turn": 4})
    assert [d["wanted"] for d in hand.json()["draws"]] == [6, 2, 4, 4]
    odds = owner_client.get(
        url + "odds/", {"group": "type:story", "k": 1, "turns": 3, "used_per_turn": 3}
    ).json()
    assert [row["seen"] for row in odds["rows"]] == [6, 8, 11, 14]
    assert "each end phase draws 1 (counted" in " ".join(odds["assumptions"])
    refused = owner_client.get(url + "odds/", {"group": "type:story", "used_per_turn": 9})
    assert refused.status_code == 400 and "used_per_turn" in refused.json()
