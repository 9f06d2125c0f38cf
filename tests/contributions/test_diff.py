"""The field-by-field diff of a proposal against the catalog, and its near duplicates."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from catalog.models import Game
from contributions.diff import (
    FieldChange,
    near_duplicates,
    proposal_diff,
    row_diff,
)
from contributions.payload import data_to_bundle
from tests.contributions.conftest import HUNTER, hunter, payload

CARD = {
    "code": "T-001",
    "type": "hunter",
    "name_en": "Test Hunter",
    "name_ja": "",
    "attributes": {"attack": 1, "reach": 1},
    "copy_limit": None,
    "source": "",
    "demo": False,
}


@pytest.mark.parametrize(
    ("before", "after", "expected"),
    [
        pytest.param(
            CARD,
            {**CARD, "name_en": "Better Hunter"},
            [FieldChange("name_en", "Test Hunter", "Better Hunter")],
            id="a changed field, the others hidden",
        ),
        pytest.param(
            CARD,
            {**CARD, "attributes": {"attack": 2, "reach": 1}},
            [FieldChange("attributes.attack", 1, 2)],
            id="a changed attribute alone",
        ),
        pytest.param(
            CARD,
            {**CARD, "attributes": {"attack": 1}},
            [FieldChange("attributes.reach", 1, None)],
            id="a removed attribute",
        ),
        pytest.param(CARD, dict(CARD), [], id="nothing changed"),
        pytest.param(
            CARD, {**CARD, "name_ja": None}, [], id="empty and absent are the same nothing"
        ),
    ],
)
def test_a_row_diff_lists_only_the_fields_that_change(
    before: dict[str, Any], after: dict[str, Any], expected: list[FieldChange]
) -> None:
    diff = row_diff("card", "T-001", before, after)
    assert (diff.is_new, diff.changes) == (False, expected)


def test_a_new_row_lists_its_filled_fields_and_never_its_key() -> None:
    diff = row_diff("card", "T-002", None, {**CARD, "code": "T-002"})
    assert diff.is_new
    assert [c.name for c in diff.changes] == [
        "type",
        "name_en",
        "attributes.attack",
        "attributes.reach",
    ]
    assert all(c.before is None for c in diff.changes)


def _diff(game: Game, data: dict[str, Any]) -> dict[tuple[str, str], Any]:
    return {(d.kind, d.code): d for d in proposal_diff(game, data_to_bundle(data, "test"))}


def test_a_correction_shows_the_changed_field_and_hides_the_unchanged_printing(
    game: Game,
) -> None:
    card = hunter("T-001", "Renamed Hunter", number="001")
    diffs = _diff(game, payload(cards=[card]))
    assert list(diffs) == [("card", "T-001")]
    assert diffs["card", "T-001"].changes == [
        FieldChange("name_en", "Test Hunter", "Renamed Hunter")
    ]


def test_a_new_printing_of_a_known_card_is_marked_new(game: Game) -> None:
    card = hunter("T-001", "Test Hunter", number="001")
    card["printings"].append({"set": "t1", "number": "001", "variant": "P"})
    diffs = _diff(game, payload(cards=[card]))
    assert list(diffs) == [("printing", "T-001/t1/001/P")]
    assert diffs["printing", "T-001/t1/001/P"].is_new


def test_a_new_card_and_its_printing_are_marked_new(game: Game) -> None:
    diffs = _diff(game, payload(cards=[hunter("T-002", "Fresh Face")]))
    assert list(diffs) == [("card", "T-002"), ("printing", "T-002/t1/002")]
    assert all(d.is_new for d in diffs.values())
    fields = {c.name: c.after for c in diffs["card", "T-002"].changes}
    assert fields["name_en"] == "Fresh Face"
    assert fields["attributes.attack"] == HUNTER["attack"]


@pytest.mark.parametrize(
    ("name", "found"),
    [
        ("Test Hunter", True),  # the same name
        ("test  hunter", True),  # the same name key
        ("Test Hunters", True),  # close
        ("Dragon Slayer", False),
    ],
)
def test_a_new_card_named_like_a_card_of_its_set_is_a_near_duplicate(
    game: Game, name: str, found: bool
) -> None:
    bundle = data_to_bundle(payload(cards=[hunter("T-009", name)]), "test")
    near = near_duplicates(game, bundle)
    assert [(n.proposed_code, n.code) for n in near] == ([("T-009", "T-001")] if found else [])


def test_a_correction_of_a_card_is_not_its_own_duplicate(game: Game) -> None:
    bundle = data_to_bundle(payload(cards=[copy.deepcopy(hunter("T-001", "Test Hunter"))]), "t")
    assert near_duplicates(game, bundle) == []
