"""Contributions' part of the card page, now registered as catalog panels from the app's
ready(): the links to report a mistake or add a name, and the card's history."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from catalog.models import Game
from catalog.panels import card_panels
from contributions.services import proposal_approve, proposal_submit
from tests.contributions.conftest import SOURCE, payload

pytestmark = pytest.mark.django_db

CARD_URL = "/games/monster-hunter/cards/T-001/"


@pytest.fixture
def editor_client(editor: Any) -> Client:
    client = Client()
    client.force_login(editor)
    return client


def test_contributions_registers_its_two_panels_once() -> None:
    keys = [panel.key for panel in card_panels()]
    assert keys.count("contributions-actions") == 1
    assert keys.count("contributions-history") == 1


def test_the_card_page_shows_the_links_and_the_history_from_the_panels(
    game: Game, owner: Any, editor: Any, owner_client: Client, editor_client: Client
) -> None:
    card = {
        "code": "T-001",
        "type": "hunter",
        "name_en": "Test Hunter, corrected",
        "attributes": {"attack": 1, "movement": 2, "reach": 1, "item_icons": ["meat"]},
        "printings": [{"set": "t1", "number": "001"}],
    }
    proposal = proposal_submit(
        author=owner,
        game=game,
        kind="correction",
        payload=payload(cards=[card]),
        target_kind="card",
        target_code="T-001",
        reason="the name on my copy",
        **SOURCE,
    )
    [change] = proposal_approve(proposal=proposal, editor=editor)

    player = owner_client.get(CARD_URL).content.decode()
    editor_page = editor_client.get(CARD_URL).content.decode()
    anonymous = Client().get(CARD_URL).content.decode()

    assert 'href="/contribute/monster-hunter/cards/T-001/correct/"' in player
    # T-001 has no Japanese name: the names link is offered
    assert 'href="/contribute/monster-hunter/cards/T-001/names/"' in player
    assert "?next=/contribute/monster-hunter/cards/T-001/correct/" in anonymous
    for html in (player, editor_page, anonymous):
        assert f'data-change="{change.pk}"' in html
        assert SOURCE["source_detail"] in html
        # the links under the facts, the history after the products
        assert html.index('id="report-mistake"') < html.index('id="printings-title"')
        assert html.index('id="history-title"') > html.index('id="products-title"')
    assert f"/contribute/review/changes/{change.pk}/revert/" in editor_page
    assert "/revert/" not in player
