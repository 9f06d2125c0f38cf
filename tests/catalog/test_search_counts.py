"""A search's count reads no further than ``COUNT_CAP`` matching rows or the end of the page
asked for (``catalog/query/paging.py``, issue 19): exact below it, "more than" above it, and
the same rows in the same order either way, through the API and on the game page."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from catalog import views
from catalog.query import paging
from tests.catalog.factories import CardFactory, CardSetFactory, GameFactory, PrintingFactory

pytestmark = pytest.mark.django_db

CAP = 10
KESTRELS = 27
API = "/api/v1/games/unmatched/cards/"


@pytest.fixture
def kestrels(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """27 Unmatched cards named "Kestrel 00" to "Kestrel 26" (one printing each) and a wolf;
    the count stops at 10. Their codes in name order."""
    monkeypatch.setattr(paging, "COUNT_CAP", CAP)
    game = GameFactory(slug="unmatched")
    box = CardSetFactory(game=game, code="box")
    codes = []
    # made out of order (ids ascending nor descending follow the names): the rows' order must
    # come from the query
    for n in (k * 7 % KESTRELS for k in range(KESTRELS)):
        card = CardFactory(game=game, code=f"kestrel-{n:02d}", name_en=f"Kestrel {n:02d}")
        PrintingFactory(card=card, card_set=box, collector_number=f"{n:03d}")
        codes.append(card.code)
    CardFactory(game=game, code="wolf", name_en="Wolf")
    return sorted(codes)


def _page(client: APIClient, url: str, **params: Any) -> dict[str, Any]:
    response = client.get(url, params)
    assert response.status_code == 200, response.content
    body: dict[str, Any] = response.json()
    return body


def _codes(body: dict[str, Any]) -> list[str]:
    return [row.get("code") or row["card"]["code"] for row in body["results"]]


def test_a_search_with_fewer_matches_than_the_cap_is_counted_exactly(
    kestrels: list[str],
) -> None:
    body = _page(APIClient(), API, q='"kestrel 2"')
    assert (body["count"], body["count_exact"]) == (7, True)
    assert _codes(body) == kestrels[20:]
    assert body["next"] is None


def test_a_search_with_more_matches_than_the_cap_says_more_than_the_cap(
    kestrels: list[str],
) -> None:
    body = _page(APIClient(), API, q="kestrel", page_size=5)
    assert (body["count"], body["count_exact"]) == (CAP, False)
    assert _codes(body) == kestrels[:5]
    assert body["next"] is not None


def test_following_next_past_the_cap_lists_every_match_once_in_order(
    kestrels: list[str],
) -> None:
    client = APIClient()
    body = _page(client, API, q="kestrel", page_size=5)
    seen = _codes(body)
    while body["next"]:
        body = _page(client, body["next"])
        seen += _codes(body)
    assert seen == kestrels
    # the last page reached past every match: its count is exact
    assert (body["count"], body["count_exact"]) == (KESTRELS, True)


def test_a_page_beyond_the_cap_counts_as_far_as_it_reaches(kestrels: list[str]) -> None:
    body = _page(APIClient(), API, q="kestrel", page_size=5, page=3)
    assert (body["count"], body["count_exact"]) == (15, False)
    assert _codes(body) == kestrels[10:15]
    assert body["next"] is not None


def test_the_last_page_counts_every_match(kestrels: list[str]) -> None:
    body = _page(APIClient(), API, q="kestrel", page_size=5, page="last")
    assert (body["count"], body["count_exact"]) == (KESTRELS, True)
    assert _codes(body) == kestrels[25:]
    assert body["next"] is None


def test_one_row_per_printing_is_capped_the_same_way(kestrels: list[str]) -> None:
    body = _page(APIClient(), API, q="kestrel unique:prints", page_size=5)
    assert (body["count"], body["count_exact"]) == (CAP, False)
    assert len(body["results"]) == 5


def test_the_schema_documents_count_exact() -> None:
    response = APIClient().get("/api/v1/schema/")
    assert response.status_code == 200
    assert b"count_exact" in response.content


def test_the_game_page_says_more_than_the_cap(
    kestrels: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(views, "CARDS_PER_PAGE", 5)
    html = Client().get(reverse("catalog:game", args=["unmatched"]), {"q": "kestrel"})
    text = html.content.decode()
    assert "More than 10 cards match “kestrel”." in text
    assert "cards match “kestrel”." not in text.replace("More than 10 cards match", "")
    # pages 1-3 hold the 11 rows counted; an ellipsis says more follow
    assert 'rel="next"' in text
    assert "…</span>" in text


def test_the_game_page_counts_a_search_under_the_cap_exactly(
    kestrels: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(views, "CARDS_PER_PAGE", 5)
    html = Client().get(reverse("catalog:game", args=["unmatched"]), {"q": '"kestrel 2"'})
    text = html.content.decode()
    assert "7 cards match “&quot;kestrel 2&quot;”." in text
    assert "More than" not in text
    assert "…</span>" not in text
