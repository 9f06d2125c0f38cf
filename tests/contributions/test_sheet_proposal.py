"""A clean sheet's bundle is a proposal's payload: submitted, approved, and in the catalog."""

from __future__ import annotations

from typing import Any

import pytest

from catalog.models import Card, Game
from contributions.payload import bundle_to_data
from contributions.services import proposal_approve, proposal_submit
from contributions.sheet import names_sheet_check, names_sheet_template, sheet_check
from tests.contributions.conftest import SOURCE

pytestmark = pytest.mark.django_db

SHEET = (
    "code,type,name_en,name_ja,set,number,attack,movement,reach,item_icons\r\n"
    "T-002,hunter,Second Hunter,二人目のハンター,t1,002,2,1,1,meat|ball\r\n"
    "T-003,hunter,Third Hunter,,t1,003,1,1,1,\r\n"
)


def test_a_clean_card_sheet_is_proposed_and_applied(game: Game, owner: Any, editor: Any) -> None:
    result = sheet_check(SHEET, game_slug=game.slug)
    assert result.bundle is not None, result.problems

    proposal = proposal_submit(
        author=owner, game=game, kind="sheet", payload=bundle_to_data(result.bundle), **SOURCE
    )
    proposal_approve(proposal=proposal, editor=editor)

    second = Card.objects.get(game=game, code="T-002")
    assert (second.name_ja, second.attributes["item_icons"]) == (
        "二人目のハンター",
        ["meat", "ball"],
    )
    assert Card.objects.get(game=game, code="T-003").printings.get().collector_number == "003"


def test_a_names_sheet_changes_only_the_names(game: Game, owner: Any, editor: Any) -> None:
    before = Card.objects.get(game=game, code="T-001")
    text = names_sheet_template(game.slug, "t1").replace("Test Hunter,", "Test Hunter,試験狩人")
    result = names_sheet_check(text, game_slug=game.slug)
    assert result.bundle is not None, result.problems

    proposal = proposal_submit(
        author=owner, game=game, kind="names", payload=bundle_to_data(result.bundle), **SOURCE
    )
    proposal_approve(proposal=proposal, editor=editor)

    after = Card.objects.get(game=game, code="T-001")
    assert (after.name_en, after.name_ja) == ("Test Hunter", "試験狩人")
    assert (after.card_type, after.attributes) == (before.card_type, before.attributes)
    assert after.printings.count() == 1
