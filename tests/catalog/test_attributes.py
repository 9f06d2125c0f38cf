"""Each game's attribute schema at its boundaries (table-driven)."""

from __future__ import annotations

from typing import Any

import pytest

from catalog.attributes import AttributeErrors
from catalog.spec import get_game

MONSTER = {"attack": 3, "movement": 1, "reach": 2, "hp": 5, "rank": 2, "material_points": 3}
HERO = {"power": 30, "left": ["red"], "right": ["blue", "yellow"]}
CHARACTER = {"hp": 14, "move": 2, "ranged": False, "hero_count": 1}


def check(game: str, card_type: str, attrs: Any) -> dict[str, Any]:
    return get_game(game).validate_card_attributes(card_type, attrs)


@pytest.mark.parametrize(
    ("game", "card_type", "attrs", "bad_key"),
    [
        ("monster-hunter", "monster", {**MONSTER, "hp": 0}, "hp"),
        ("monster-hunter", "monster", {**MONSTER, "hp": 1}, None),
        ("monster-hunter", "monster", {**MONSTER, "hp": 99}, None),
        ("monster-hunter", "monster", {**MONSTER, "hp": 100}, "hp"),
        ("monster-hunter", "monster", {**MONSTER, "rank": 20}, None),
        ("monster-hunter", "monster", {**MONSTER, "rank": 21}, "rank"),
        ("monster-hunter", "monster", {**MONSTER, "hp": "five"}, "hp"),
        ("monster-hunter", "monster", {**MONSTER, "main_target": "yes"}, "main_target"),
        ("monster-hunter", "monster", {**MONSTER, "main_target": True}, None),
        ("monster-hunter", "item", {"item_icons": []}, "item_icons"),
        ("monster-hunter", "item", {"item_icons": ["meat"]}, None),
        ("monster-hunter", "item", {"item_icons": ["meat", "meat"]}, "item_icons"),
        ("monster-hunter", "item", {"item_icons": ["potion"]}, "item_icons"),
        (
            "monster-hunter",
            "weapon",
            {"weapon_icon": "bow", "attack": 2, "movement": 1, "reach": 3, "cost": 2},
            None,
        ),
        (
            "monster-hunter",
            "weapon",
            {"weapon_icon": "spear", "attack": 2, "movement": 1, "reach": 3, "cost": 2},
            "weapon_icon",
        ),
        ("recharge", "hero", {**HERO, "left": []}, "left"),
        ("recharge", "hero", {**HERO, "left": ["red", "green"]}, None),
        ("recharge", "hero", {**HERO, "left": ["red", "green", "blue"]}, "left"),
        ("recharge", "hero", {**HERO, "power": -1}, "power"),
        (
            "ouka-fushin",
            "character",
            {"character": "A", "destiny": 0, "school": "goton"},
            "destiny",
        ),
        ("ouka-fushin", "character", {"character": "A", "destiny": 1, "school": "goton"}, None),
        ("ouka-fushin", "character", {"character": "A", "destiny": 3, "school": "goton"}, None),
        (
            "ouka-fushin",
            "character",
            {"character": "A", "destiny": 4, "school": "goton"},
            "destiny",
        ),
        ("ouka-fushin", "story", {"story_kind": "normal", "points": 10, "target": 7}, "ability"),
        (
            "ouka-fushin",
            "story",
            {"story_kind": "normal", "points": 10, "target": 7, "ability": "combat"},
            None,
        ),
        ("unmatched", "character", CHARACTER, None),
        ("unmatched", "character", {**CHARACTER, "sidekick_hp": 6}, "sidekick_hp"),
        ("unmatched", "character", {**CHARACTER, "sidekick": "Wong", "sidekick_hp": 6}, None),
        ("unmatched", "attack", {"value": 20}, None),
        ("unmatched", "attack", {"value": 21}, "value"),
        ("unmatched", "scheme", {"value": 2}, "value"),
        ("mattsan", "unit", {"hp": 1, "soul": 0}, None),
        ("mattsan", "unit", {"hp": 0, "soul": 0}, "hp"),
        ("mattsan", "unit", {"hp": 3, "soul": 1, "colour": "red"}, "colour"),
    ],
)
def test_it_accepts_values_within_bounds_and_names_the_bad_field(
    game: str, card_type: str, attrs: dict[str, Any], bad_key: str | None
) -> None:
    if bad_key is None:
        check(game, card_type, attrs)
        return
    with pytest.raises(AttributeErrors) as caught:
        check(game, card_type, attrs)
    assert bad_key in caught.value.errors


def test_it_drops_empty_optional_values_to_keep_stored_json_small() -> None:
    cleaned = check(
        "monster-hunter", "hunter", {"attack": 1, "movement": 2, "reach": 1, "item_icons": []}
    )
    assert cleaned == {"attack": 1, "movement": 2, "reach": 1}


def test_it_coerces_numbers_written_as_text() -> None:
    assert check("mattsan", "unit", {"hp": "4", "soul": "2"}) == {"hp": 4, "soul": 2}


def test_it_refuses_attributes_that_are_not_an_object() -> None:
    with pytest.raises(AttributeErrors) as caught:
        check("mattsan", "unit", ["hp", 4])
    assert "attributes" in caught.value.errors


@pytest.mark.parametrize(("rarity", "ok"), [(0, False), (1, True), (5, True), (6, False)])
def test_it_bounds_mattsan_rarity_on_printings(rarity: int, ok: bool) -> None:
    spec = get_game("mattsan")
    if ok:
        assert spec.validate_printing_attributes({"rarity": rarity}) == {"rarity": rarity}
    else:
        with pytest.raises(AttributeErrors):
            spec.validate_printing_attributes({"rarity": rarity})
