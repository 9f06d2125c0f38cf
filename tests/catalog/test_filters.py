"""Shared card filters: printing conditions hold for one printing; yes/no facets."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from catalog.filters import apply_card_filters
from catalog.importers.service import catalog_import_text
from catalog.models import Card
from catalog.spec import get_game

CATALOG = {
    "format": "decklab-catalog",
    "game": "unmatched",
    "source": "test",
    "sets": [
        {"code": "box-a", "name_en": "Box A", "kind": "box"},
        {"code": "box-b", "name_en": "Box B", "kind": "box"},
    ],
    "cards": [
        {
            "code": "feint",
            "type": "versatile",
            "name_en": "Feint",
            "attributes": {"value": 2},
            "printings": [
                {"set": "box-a", "number": "alice", "attributes": {"fighter": "any", "boost": 2}},
                {"set": "box-b", "number": "medusa", "attributes": {"fighter": "any", "boost": 1}},
            ],
        },
        {
            "code": "dash",
            "type": "versatile",
            "name_en": "Dash",
            "attributes": {"value": 3},
            "printings": [
                {"set": "box-b", "number": "medusa", "attributes": {"fighter": "any", "boost": 2}}
            ],
        },
    ],
}


@pytest.fixture
def boxes(db: None) -> None:
    catalog_import_text(json.dumps(CATALOG), name="boxes.json")


def codes(params: dict[str, str]) -> list[str]:
    queryset, _filterset = apply_card_filters(
        get_game("unmatched"), Card.objects.filter(game__slug="unmatched"), params
    )
    return sorted(queryset.values_list("code", flat=True))


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"set": "box-b", "boost_min": "2"}, ["dash"]),  # Feint's boost-2 printing is in box A
        ({"set": "box-a", "boost_min": "2"}, ["feint"]),
        ({"boost_min": "2"}, ["dash", "feint"]),
        ({"set": "box-b"}, ["dash", "feint"]),
        ({"boost_max": "1"}, ["feint"]),
    ],
)
def test_the_set_and_printing_facets_must_hold_for_the_same_printing(
    boxes: None, params: dict[str, str], expected: list[str]
) -> None:
    assert codes(params) == expected


def test_a_card_printed_twice_in_a_set_is_listed_once(boxes: None, client: Client) -> None:
    response = client.get("/api/v1/games/unmatched/cards/?set=box-b")
    assert response.status_code == 200
    assert [c["code"] for c in response.json()["results"]] == ["dash", "feint"]
