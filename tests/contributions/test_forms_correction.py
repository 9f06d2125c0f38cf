"""The correction and names forms: every correctable fact of a card starts at its current value,
only what the player changed is a change, and the bundle applies exactly that."""

from __future__ import annotations

from typing import Any

import pytest
from django import forms
from django.utils import translation

from catalog.importers.decklab_json import bundle_from_decklab
from catalog.importers.service import import_bundles
from catalog.models import Card, Printing
from catalog.spec import get_game
from contributions import forms as proposal_forms
from contributions.forms import Change, correction_form, names_form
from tests.catalog.factories import CardFactory, PrintingFactory
from tests.contributions.forms_helpers import (
    GAME_TYPES,
    SOURCE,
    a_set,
    data_from_initial,
    importer_problems,
)

pytestmark = pytest.mark.django_db

REASON = {"reason": "The printed card says otherwise.", **SOURCE}


def _card(slug: str, card_type: str, **fields: Any) -> Card:
    card_set = a_set(slug)
    card = CardFactory(game=card_set.game, card_type=card_type, code="C-1", **fields)
    if get_game(slug).printing_schema_for(card_type).base_fields:
        PrintingFactory(card=card, card_set=card_set, collector_number="001")
    return card


def _snapshot(card: Card) -> dict[str, Any]:
    card.refresh_from_db()
    printings = Printing.objects.filter(card=card).order_by("collector_number", "variant")
    return {
        "name_en": card.name_en,
        "name_ja": card.name_ja,
        "card_type": card.card_type,
        "attributes": card.attributes,
        "copy_limit": card.copy_limit,
        "source": card.source,
        "is_demo": card.is_demo,
        "printings": [(p.collector_number, p.variant, p.attributes) for p in printings],
    }


def _apply(bundle: dict[str, Any]) -> None:
    assert importer_problems(bundle) == []
    import_bundles([bundle_from_decklab(bundle, "proposal")])


def _one_change(card: Card) -> tuple[str, Any]:
    """A field of the card's form and another valid value for it: the first number attribute
    moved to one of its bounds, or the English name."""
    form = correction_form(card)
    for name, field in form.fields.items():
        if name.startswith("attr_") and isinstance(field, forms.IntegerField):
            current = form.get_initial_for_field(field, name)
            return name, field.min_value if current != field.min_value else field.max_value
    return "name_en", "Changed Name"


@pytest.mark.parametrize(("slug", "card_type"), GAME_TYPES)
def test_a_correction_of_one_field_changes_that_field_and_nothing_else(
    slug: str, card_type: str
) -> None:
    card = _card(slug, card_type)
    before = _snapshot(card)
    name, value = _one_change(card)

    form = correction_form(
        card, {**data_from_initial(correction_form(card)), **REASON, name: value}
    )

    assert form.is_valid(), form.errors
    [change] = form.changes()
    assert (change.object_kind, change.code) == ("card", "C-1")
    _apply(form.bundle())
    after = _snapshot(card)
    field = name.removeprefix("attr_")
    if name.startswith("attr_"):
        assert change == Change(
            "card", "C-1", f"attributes.{field}", before["attributes"][field], value
        )
        assert after["attributes"] == {**before["attributes"], field: value}
        assert {**after, "attributes": None} == {**before, "attributes": None}
    else:
        assert after == {**before, "name_en": value}


@pytest.mark.parametrize(("slug", "card_type"), GAME_TYPES)
def test_an_untouched_correction_is_nothing_changed(slug: str, card_type: str) -> None:
    card = _card(slug, card_type)

    form = correction_form(card, {**data_from_initial(correction_form(card)), **REASON})

    assert not form.is_valid()
    assert form.non_field_errors() == [str(proposal_forms.NOTHING_CHANGED)]


def test_a_correction_needs_a_reason() -> None:
    card = _card("mattsan", "unit")
    data = {**data_from_initial(correction_form(card)), **SOURCE, "name_en": "Other"}

    assert "reason" in correction_form(card, data).errors


def test_a_printings_attribute_is_corrected_on_that_printing_only() -> None:
    card = _card("mattsan", "unit")
    PrintingFactory(
        card=card,
        card_set=card.printings.get().card_set,
        collector_number="001-P",
        attributes={"rarity": 5},
    )
    before = _snapshot(card)
    blank = correction_form(card)
    [name] = [n for n in blank.fields if n.startswith("p0_")]

    form = correction_form(card, {**data_from_initial(blank), **REASON, name: "3"})

    assert form.is_valid(), form.errors
    assert form.changes() == [Change("printing", "C-1/T1/001", "attributes.rarity", None, 3)]
    assert [p["number"] for p in form.bundle()["cards"][0]["printings"]] == ["001"]
    _apply(form.bundle())
    assert _snapshot(card)["printings"] == [
        ("001", "", {"rarity": 3}),
        ("001-P", "", {"rarity": 5}),
    ]
    assert {**_snapshot(card), "printings": None} == {**before, "printings": None}


def test_an_optional_attribute_can_be_cleared() -> None:
    card = _card("mattsan", "unit", attributes={"hp": 5, "soul": 2, "family": "商店街"})

    form = correction_form(
        card, {**data_from_initial(correction_form(card)), **REASON, "attr_family": ""}
    )

    assert form.is_valid(), form.errors
    assert form.changes() == [Change("card", "C-1", "attributes.family", "商店街", None)]
    _apply(form.bundle())
    card.refresh_from_db()
    assert card.attributes == {"hp": 5, "soul": 2}


def test_a_list_of_words_starts_at_its_value_and_stays_unchanged() -> None:
    card = _card(
        "ouka-fushin",
        "story",
        attributes={
            "story_kind": "normal",
            "keywords": ["旅", "仙人"],
            "target": 5,
            "ability": "combat",
            "points": 10,
        },
    )
    data = {**data_from_initial(correction_form(card)), **REASON, "attr_points": 11}

    form = correction_form(card, data)

    assert form.is_valid(), form.errors
    assert [c.field for c in form.changes()] == ["attributes.points"]


def test_a_yes_no_attribute_starts_at_its_value_and_changes_to_no() -> None:
    mattsan = _card("mattsan", "terrain", attributes={"sideways": True})
    data = {**data_from_initial(correction_form(mattsan)), **REASON, "attr_sideways": "false"}
    form = correction_form(mattsan, data)
    assert form.is_valid(), form.errors
    assert form.changes() == [Change("card", "C-1", "attributes.sideways", True, False)]


def test_a_copy_limit_is_corrected() -> None:
    card = _card("mattsan", "trap")

    form = correction_form(
        card, {**data_from_initial(correction_form(card)), **REASON, "copy_limit": 1}
    )

    assert form.is_valid(), form.errors
    assert form.changes() == [Change("card", "C-1", "copy_limit", None, 1)]
    _apply(form.bundle())
    card.refresh_from_db()
    assert card.copy_limit == 1


def test_a_correction_the_schema_refuses_is_refused_beside_its_field() -> None:
    card = _card("mattsan", "unit")
    data = {**data_from_initial(correction_form(card)), **REASON, "attr_hp": 0}
    assert "attr_hp" in correction_form(card, data).errors


def test_a_correction_gives_proposal_submits_arguments() -> None:
    card = _card("mattsan", "unit")
    data = {**data_from_initial(correction_form(card)), **REASON, "name_en": "Other"}

    fields = correction_form(card, data).proposal_fields()

    assert (fields["kind"], fields["target_kind"], fields["target_code"]) == (
        "correction",
        "card",
        "C-1",
    )
    assert fields["reason"] == REASON["reason"]


def test_a_printings_labels_name_the_printing_in_japanese() -> None:
    card = _card("mattsan", "unit")
    form = correction_form(card)
    with translation.override("ja"):
        label = str(form.fields["p0_attr_rarity"].label)
        assert str(form.fields["attr_soul"].label) == "ソウル"
    assert "C-1/T1/001" in label
    assert "レアリティ" in label


# --- names in the other language ------------------------------------------------------------


def test_the_names_form_asks_only_for_the_missing_name_and_keeps_the_rest() -> None:
    card = _card("mattsan", "unit", name_ja="")
    before = _snapshot(card)
    form = names_form(card, {"name_ja": "八百屋", **SOURCE})

    assert [n for n in form.fields if n.startswith("name")] == ["name_ja"]
    assert form.is_valid(), form.errors
    assert form.changes() == [Change("card", "C-1", "name_ja", None, "八百屋")]
    assert form.proposal_fields()["kind"] == "names"
    _apply(form.bundle())
    assert _snapshot(card) == {**before, "name_ja": "八百屋"}


def test_the_missing_name_is_required() -> None:
    card = _card("mattsan", "unit", name_en="")
    assert "name_en" in names_form(card, {"name_en": "", **SOURCE}).errors


def test_a_card_with_both_names_has_no_name_to_add() -> None:
    card = _card("mattsan", "unit")

    form = names_form(card, dict(SOURCE))

    assert form.non_field_errors() == [str(proposal_forms.NAMES_COMPLETE)]
