"""A card's history on a page of its own (issue 21: "a card's history page in ≤ 6 queries"):
the changes with who proposed and approved them and their source, the Revert buttons for an
editor only, in both languages, and a withdrawn card's history still reachable."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from catalog.models import Card, Game
from contributions.services import proposal_approve, proposal_submit
from tests.contributions.conftest import SOURCE, payload

pytestmark = pytest.mark.django_db

URL = "/contribute/monster-hunter/cards/T-001/history/"


def _corrected(game: Game, owner: Any, editor: Any) -> Any:
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
    return change


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_history_page_lists_the_change_in_five_statements(
    game: Game, owner: Any, editor: Any
) -> None:
    change = _corrected(game, owner, editor)
    client = _client(editor)
    client.get(URL)  # the session's first read warms nothing the count depends on
    with CaptureQueriesContext(connection) as seen:
        html = client.get(URL).content.decode()
    assert len(seen.captured_queries) == 5, [q["sql"] for q in seen.captured_queries]
    assert f'data-change="{change.pk}"' in html
    assert SOURCE["source_detail"] in html
    assert owner.username in html and editor.username in html
    assert f"/contribute/review/changes/{change.pk}/revert/" in html


def test_only_an_editor_sees_revert_and_japanese_reads_japanese(
    game: Game, owner: Any, editor: Any
) -> None:
    change = _corrected(game, owner, editor)
    html = _client(owner).get(URL, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert f'data-change="{change.pk}"' in html
    assert "/revert/" not in html
    assert "履歴" in html
    assert Client().get(URL).status_code == 200  # the history is public, as on the card page


def test_an_unknown_card_is_404_and_a_withdrawn_one_keeps_its_history(
    game: Game, owner: Any, editor: Any
) -> None:
    _corrected(game, owner, editor)
    assert Client().get("/contribute/monster-hunter/cards/NOPE/history/").status_code == 404
    Card.objects.filter(code="T-001").update(withdrawn_at=timezone.now(), withdrawn_note="why")
    page = _client(editor).get(URL)
    assert page.status_code == 200
    assert "withdrawn-badge" in page.content.decode()
