"""The cast of the contributions tests and a small Monster Hunter catalog to propose against.

- ``owner`` (tests/conftest.py) is the contributor;
- ``editor`` and ``second_editor`` are in the catalog-editors group;
- ``stranger`` is a player with no editor rights.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import pytest
from django.contrib.auth.models import Group

from catalog.importers.decklab_json import bundle_from_decklab
from catalog.importers.service import import_bundles
from catalog.models import Card, Game
from contributions.models import EDITORS_GROUP
from tests.conftest import _user

GAME = "monster-hunter"
HUNTER = {"attack": 1, "movement": 2, "reach": 1, "item_icons": ["meat"]}
SOURCE = {"source_kind": "in_hand", "source_detail": "my own copy of the starter"}

BASE: dict[str, Any] = {
    "format": "decklab-catalog",
    "version": 1,
    "game": GAME,
    "sets": [{"code": "t1", "name_en": "Test", "name_ja": "テスト", "kind": "base"}],
    "cards": [
        {
            "code": "T-001",
            "type": "hunter",
            "name_en": "Test Hunter",
            "attributes": HUNTER,
            "printings": [{"set": "t1", "number": "001"}],
        }
    ],
}


def payload(
    *, cards: Sequence[dict[str, Any]] = (), sets: Sequence[dict[str, Any]] = ()
) -> dict[str, Any]:
    return {
        "format": "decklab-catalog",
        "version": 1,
        "game": GAME,
        "sets": list(sets),
        "cards": list(cards),
    }


def hunter(code: str, name_en: str, *, set_code: str = "t1", number: str = "") -> dict[str, Any]:
    return {
        "code": code,
        "type": "hunter",
        "name_en": name_en,
        "attributes": copy.deepcopy(HUNTER),
        "printings": [{"set": set_code, "number": number or code[-3:]}],
    }


@pytest.fixture
def game(db: None) -> Game:
    import_bundles([bundle_from_decklab(copy.deepcopy(BASE), "base")])
    return Game.objects.get(slug=GAME)


def _editor(name: str) -> Any:
    user = _user(name)
    user.groups.add(Group.objects.get_or_create(name=EDITORS_GROUP)[0])
    return user


@pytest.fixture
def editor(db: None) -> Any:
    return _editor("editor")


@pytest.fixture
def second_editor(db: None) -> Any:
    return _editor("second-editor")


def kind_of(game: Game, data: dict[str, Any]) -> dict[str, str]:
    """The kind a contributor picks for ``data``: a correction of the first card it names that
    the catalog has (a new-card proposal may only add cards), else a new card."""
    codes = [card["code"] for card in data.get("cards", ())]
    found = Card.objects.filter(game=game, owner=None, code__in=codes).values_list(
        "code", flat=True
    )
    existing = next((code for code in codes if code in set(found)), None)
    if existing is None:
        return {"kind": "card"}
    return {
        "kind": "correction",
        "target_kind": "card",
        "target_code": existing,
        "reason": "as printed on my copy",
    }
