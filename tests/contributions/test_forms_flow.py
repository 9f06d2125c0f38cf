"""The proposal forms with the rest of issue 21: a form's ``proposal_fields()`` submitted,
approved and applied by contributions.services; and a sixth game's forms, made from its
declaration with no shared edit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from catalog.models import Card, CardSet
from catalog.spec import get_game
from contributions import errors
from contributions.forms import card_proposal_form, correction_form, set_proposal_form
from contributions.services import proposal_approve, proposal_submit, set_lock
from tests.contributions.forms_helpers import (
    SOURCE,
    a_set,
    card_data,
    data_from_initial,
    importer_problems,
)
from tests.games.sixth_game_fixtures import pebbles  # noqa: F401 -- a fixture

pytestmark = pytest.mark.django_db


def test_a_proposed_card_is_submitted_approved_and_in_the_catalog(owner: Any, editor: Any) -> None:
    card_set = a_set("mattsan")
    form = card_proposal_form("mattsan", "unit", card_data("mattsan", "unit"))
    assert form.is_valid(), form.errors

    proposal = proposal_submit(author=owner, game=card_set.game, **form.proposal_fields())
    proposal_approve(proposal=proposal, editor=editor)

    card = Card.objects.get(game=card_set.game, code="T1-901")
    assert card.attributes == {"hp": 5, "soul": 2}


def test_a_correction_is_submitted_approved_and_changes_its_field(owner: Any, editor: Any) -> None:
    card_set = a_set("mattsan")
    form = card_proposal_form("mattsan", "unit", card_data("mattsan", "unit"))
    assert form.is_valid()
    proposal_approve(
        proposal=proposal_submit(author=owner, game=card_set.game, **form.proposal_fields()),
        editor=editor,
    )
    card = Card.objects.get(code="T1-901")
    data = {
        **data_from_initial(correction_form(card)),
        **SOURCE,
        "reason": "The card says 7.",
        "attr_hp": 7,
    }
    correction = correction_form(card, data)
    assert correction.is_valid(), correction.errors

    proposal = proposal_submit(author=owner, game=card_set.game, **correction.proposal_fields())
    proposal_approve(proposal=proposal, editor=editor)

    card.refresh_from_db()
    assert card.attributes == {"hp": 7, "soul": 2}


def test_a_card_printed_in_a_locked_set_is_refused_as_submission_would(editor: Any) -> None:
    card_set = a_set("mattsan")
    set_lock(card_set=card_set, editor=editor)

    form = card_proposal_form("mattsan", "unit", card_data("mattsan", "unit"))

    assert form.non_field_errors() == [str(errors.SET_LOCKED % {"set": "T1"})]


def test_a_sixth_games_forms_come_from_its_declaration(pebbles: Path) -> None:  # noqa: F811
    call_command("import_catalog", str(pebbles / "catalog.json"), verbosity=0)
    spec = get_game("pebbles")
    [set_code, *_others] = CardSet.objects.filter(game__slug="pebbles").values_list(
        "code", flat=True
    )

    form = card_proposal_form(
        "pebbles",
        "pebble",
        {
            "name_en": "Heavy Pebble",
            "set": set_code,
            "number": "P-99",
            "attr_weight": "9",
            "attr_hue": "green",
            **SOURCE,
        },
    )

    assert list(form.attribute_fields) == list(spec.schema_for("pebble").base_fields)
    assert form.is_valid(), form.errors
    assert importer_problems(form.bundle()) == []
    quarry = set_proposal_form(
        "pebbles", {"code": "Q1", "name_en": "Quarry one", "kind": "quarry", **SOURCE}
    )
    assert quarry.is_valid(), quarry.errors
    assert importer_problems(quarry.bundle()) == []
