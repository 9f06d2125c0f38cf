"""The new-card and new-set proposal forms: generated from each game's declaration, and valid
exactly where the importer's validator accepts their bundle."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django import forms
from django.http import QueryDict
from django.utils import translation

from catalog.importers.decklab_json import bundle_from_decklab
from catalog.importers.service import import_bundles
from catalog.models import Card, CardSet
from catalog.spec import get_game
from contributions import forms as proposal_forms
from contributions.forms import card_proposal_form, set_proposal_form
from tests.catalog.factories import CardFactory
from tests.contributions.forms_helpers import (
    GAME_TYPES,
    SLUGS,
    SOURCE,
    a_set,
    card_data,
    importer_problems,
)

pytestmark = pytest.mark.django_db


def _same_field(ours: forms.Field, theirs: forms.Field) -> None:
    assert type(ours) is type(theirs)
    assert str(ours.label) == str(theirs.label)
    assert ours.required == theirs.required
    for bound in ("min_value", "max_value", "max_length", "max_items", "min_items"):
        assert getattr(ours, bound, None) == getattr(theirs, bound, None), bound
    assert list(getattr(ours, "choices", [])) == list(getattr(theirs, "choices", []))


@pytest.mark.parametrize(("slug", "card_type"), GAME_TYPES)
def test_the_form_of_every_card_type_has_its_schemas_own_fields(slug: str, card_type: str) -> None:
    spec = get_game(slug)
    form = card_proposal_form(slug, card_type)

    schema, printing = spec.schema_for(card_type), spec.printing_schema_for(card_type)
    assert list(form.attribute_fields) == list(schema.base_fields)
    assert list(form.printing_fields) == list(printing.base_fields)
    for key, field in schema.base_fields.items():
        _same_field(form.attribute_fields[key], field)
    for key, field in printing.base_fields.items():
        _same_field(form.printing_fields[key], field)


@pytest.mark.parametrize(("slug", "card_type"), GAME_TYPES)
def test_a_filled_form_gives_a_bundle_the_importer_accepts_and_writes(
    slug: str, card_type: str
) -> None:
    a_set(slug)
    form = card_proposal_form(slug, card_type, card_data(slug, card_type))

    assert form.is_valid(), form.errors
    bundle = form.bundle()
    assert importer_problems(bundle) == []
    import_bundles([bundle_from_decklab(bundle, "proposal")])
    card = Card.objects.get(game__slug=slug, code="T1-901")
    assert card.card_type == card_type
    assert card.printings.get().card_set.code == "T1"
    assert card.source == f"{SOURCE['source_detail']} — {SOURCE['source_url']}"


#: what a card needs beside the factories' sample for each of its numbers to count
WITH_EVERY_OPTION = {("unmatched", "character"): {"attr_sidekick": "Jack"}}


def _int_fields(slug: str) -> list[tuple[str, str, str, forms.IntegerField]]:
    spec = get_game(slug)
    found = []
    for card_type in spec.card_type_codes:
        for prefix, schema in (
            ("attr_", spec.schema_for(card_type)),
            ("printing_attr_", spec.printing_schema_for(card_type)),
        ):
            for key, field in schema.base_fields.items():
                if isinstance(field, forms.IntegerField):
                    found.append((card_type, prefix, key, field))
    return found


@pytest.mark.parametrize("slug", SLUGS)
def test_a_number_is_refused_by_the_form_exactly_where_the_importer_refuses_it(slug: str) -> None:
    a_set(slug)
    checked = 0
    for card_type, prefix, key, field in _int_fields(slug):
        # a sidekick's numbers need a sidekick (unmatched.md:6-7)
        valid = card_data(slug, card_type, **WITH_EVERY_OPTION.get((slug, card_type), {}))
        bundle = card_proposal_form(slug, card_type, valid).bundle()
        low, high = field.min_value, field.max_value
        assert low is not None and high is not None
        for value in (low - 1, low, high, high + 1):
            form = card_proposal_form(slug, card_type, {**valid, prefix + key: value})
            data = copy.deepcopy(bundle)
            row = data["cards"][0] if prefix == "attr_" else data["cards"][0]["printings"][0]
            row["attributes"][key] = value
            accepted = importer_problems(data) == []
            assert form.is_valid() == accepted, (card_type, key, value, form.errors)
            assert accepted == (low <= value <= high)
            checked += 1
    assert checked == 4 * len(_int_fields(slug))


@pytest.mark.parametrize(("slug", "card_type"), GAME_TYPES)
def test_a_missing_required_attribute_is_refused_beside_its_field(
    slug: str, card_type: str
) -> None:
    a_set(slug)
    required = [
        key for key, f in get_game(slug).schema_for(card_type).base_fields.items() if f.required
    ]
    for key in required:
        data = card_data(slug, card_type)
        data.pop(f"attr_{key}", None)
        form = card_proposal_form(slug, card_type, data)
        assert not form.is_valid()
        assert f"attr_{key}" in form.errors


def test_the_schemas_own_check_of_one_field_against_another_is_shown_beside_the_field() -> None:
    a_set("ouka-fushin")
    data = card_data("ouka-fushin", "story", attr_ability="")

    form = card_proposal_form("ouka-fushin", "story", data)

    assert not form.is_valid()
    assert "attr_ability" in form.errors


def test_a_blank_code_is_made_from_the_set_and_the_collector_number() -> None:
    a_set("mattsan")
    form = card_proposal_form("mattsan", "unit", card_data("mattsan", "unit", number="046"))

    assert form.is_valid(), form.errors
    assert form.bundle()["cards"][0]["code"] == "T1-046"


def test_with_no_number_a_blank_code_is_made_from_the_english_name() -> None:
    a_set("unmatched")
    data = card_data("unmatched", "attack", number="", name_en="Feint & Strike!")

    form = card_proposal_form("unmatched", "attack", data)

    assert form.is_valid(), form.errors
    assert form.bundle()["cards"][0]["code"] == "feint-strike"


def test_a_code_that_cannot_be_made_is_asked_for() -> None:
    a_set("mattsan")
    data = card_data("mattsan", "unit", number="", name_en="", name_ja="八百屋")

    form = card_proposal_form("mattsan", "unit", data)

    assert form.errors["code"] == [str(proposal_forms.CODE_CANNOT_BE_MADE)]


def test_a_code_already_in_the_catalog_is_refused_so_no_card_is_overwritten() -> None:
    card_set = a_set("mattsan")
    CardFactory(game=card_set.game, card_type="unit", code="T1-901")

    form = card_proposal_form("mattsan", "unit", card_data("mattsan", "unit"))

    assert form.errors["code"] == [str(proposal_forms.CARD_CODE_TAKEN % {"code": "T1-901"})]


@pytest.mark.parametrize("code", ["a b", "ü-1", "x" * 121])
def test_a_code_the_importer_refuses_is_refused(code: str) -> None:
    a_set("mattsan")
    form = card_proposal_form("mattsan", "unit", card_data("mattsan", "unit", code=code))
    assert "code" in form.errors


def test_a_card_needs_a_name_in_one_language() -> None:
    a_set("mattsan")
    data = card_data("mattsan", "unit", name_en="  ", name_ja="")

    form = card_proposal_form("mattsan", "unit", data)

    assert form.errors["name_en"] == [str(proposal_forms.NEEDS_A_NAME)]


def test_a_japanese_name_alone_is_enough() -> None:
    a_set("mattsan")
    form = card_proposal_form("mattsan", "unit", card_data("mattsan", "unit", name_en=""))
    assert form.is_valid(), form.errors


def test_the_publishers_page_needs_its_address_and_the_other_sources_do_not() -> None:
    a_set("mattsan")
    without_url = card_data("mattsan", "unit", source_url="")

    assert card_proposal_form("mattsan", "unit", without_url).errors["source_url"] == [
        str(proposal_forms.URL_NEEDED)
    ]
    in_hand = {**without_url, "source_kind": "in_hand"}
    assert card_proposal_form("mattsan", "unit", in_hand).is_valid()


def test_a_source_is_required() -> None:
    a_set("mattsan")
    form = card_proposal_form("mattsan", "unit", card_data("mattsan", "unit", source_detail=""))
    assert "source_detail" in form.errors


def test_the_set_is_one_of_the_games_public_sets() -> None:
    a_set("mattsan")
    a_set("recharge", code="R1")
    form = card_proposal_form("mattsan", "unit", card_data("mattsan", "unit", set="R1"))
    assert "set" in form.errors


@pytest.mark.parametrize("slug", SLUGS)
def test_a_copy_limit_is_offered_where_the_games_deck_rules_honour_one(slug: str) -> None:
    form = card_proposal_form(slug, get_game(slug).card_type_codes[0])
    assert ("copy_limit" in form.fields) == (slug in {"mattsan", "monster-hunter", "ouka-fushin"})


@pytest.mark.parametrize(("value", "valid"), [(0, False), (1, True), (99, True), (100, False)])
def test_a_copy_limit_has_the_importers_bounds(value: int, valid: bool) -> None:
    a_set("mattsan")
    form = card_proposal_form("mattsan", "trap", card_data("mattsan", "trap", copy_limit=value))
    assert form.is_valid() == valid
    if valid:
        assert form.bundle()["cards"][0]["copy_limit"] == value


def test_a_variant_is_one_the_game_declares() -> None:
    a_set("recharge")
    data = card_data("recharge", "power", variant="power-plus")

    form = card_proposal_form("recharge", "power", data)

    assert form.is_valid(), form.errors
    assert form.bundle()["cards"][0]["printings"][0]["variant"] == "power-plus"
    assert "variant" not in card_proposal_form("mattsan", "unit").fields
    assert "variant" in card_proposal_form("recharge", "power", {**data, "variant": "foil"}).errors


def test_the_card_type_is_the_forms_own_whatever_the_data_says() -> None:
    a_set("mattsan")
    form = card_proposal_form(
        "mattsan", "trap", {**card_data("mattsan", "trap"), "card_type": "unit"}
    )
    assert form.is_valid(), form.errors
    assert form.bundle()["cards"][0]["type"] == "trap"


def test_an_unknown_game_or_card_type_is_a_lookup_error() -> None:
    with pytest.raises(LookupError):
        card_proposal_form("chess", "pawn")
    with pytest.raises(LookupError):
        card_proposal_form("mattsan", "pawn")


def test_the_form_gives_proposal_submits_arguments() -> None:
    a_set("mattsan")
    form = card_proposal_form("mattsan", "unit", card_data("mattsan", "unit"))

    fields = form.proposal_fields()

    assert fields["kind"] == "card"
    assert fields["payload"] == form.bundle()
    assert fields["title"] == "Proposed Card"
    assert (fields["source_kind"], fields["source_url"]) == ("publisher_page", SOURCE["source_url"])


def test_a_page_posts_a_list_of_choices_and_a_list_of_words_as_a_browser_does() -> None:
    a_set("monster-hunter")
    a_set("ouka-fushin")
    posted = QueryDict(mutable=True)
    posted.update(card_data("monster-hunter", "item", attr_item_icons=""))
    posted.setlist("attr_item_icons", ["meat", "ball"])

    form = card_proposal_form("monster-hunter", "item", posted)

    assert form.is_valid(), form.errors
    assert form.bundle()["cards"][0]["attributes"] == {"item_icons": ["meat", "ball"]}
    words = card_data("ouka-fushin", "story", attr_keywords="旅, 仙人")
    story = card_proposal_form("ouka-fushin", "story", words)
    assert story.is_valid(), story.errors
    assert story.bundle()["cards"][0]["attributes"]["keywords"] == ["旅", "仙人"]


def test_the_labels_are_japanese_in_japanese() -> None:
    with translation.override("ja"):
        form = card_proposal_form("mattsan", "unit")
        labels = {name: str(field.label) for name, field in form.fields.items()}
    assert labels["name_en"] == "英語名"
    assert labels["name_ja"] == "日本語名"
    assert labels["attr_soul"] == "ソウル"
    assert labels["attr_hp"] == "体力"
    assert labels["printing_attr_rarity"] == "レアリティ（★）"
    assert labels["number"] == "カード番号"


# --- new sets ------------------------------------------------------------------------------


def _set_data(**changes: Any) -> dict[str, Any]:
    return {
        "code": "NEW-1",
        "name_en": "New Set",
        "name_ja": "新しいセット",
        "kind": "expansion",
        "release_date": "2024-05-17",
        "release_precision": "month",
        "official_size": "60",
        **SOURCE,
        **changes,
    }


@pytest.mark.parametrize("slug", SLUGS)
def test_a_set_proposal_gives_a_bundle_the_importer_accepts(slug: str) -> None:
    form = set_proposal_form(slug, _set_data())

    assert form.is_valid(), form.errors
    bundle = form.bundle()
    assert importer_problems(bundle) == []
    import_bundles([bundle_from_decklab(bundle, "proposal")])
    card_set = CardSet.objects.get(game__slug=slug, code="NEW-1")
    assert (card_set.released, card_set.official_size) == ("2024-05", 60)


@pytest.mark.parametrize("slug", SLUGS)
def test_a_sets_kinds_are_the_games_own(slug: str) -> None:
    form = set_proposal_form(slug)
    assert list(form.fields["kind"].choices) == list(get_game(slug).set_kinds)


def test_a_set_code_already_in_the_catalog_is_refused() -> None:
    a_set("mattsan", code="NEW-1")
    form = set_proposal_form("mattsan", _set_data())
    assert form.errors["code"] == [str(proposal_forms.SET_CODE_TAKEN % {"code": "NEW-1"})]


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"code": ""}, "code"),
        ({"code": "a b"}, "code"),
        ({"code": "x" * 81}, "code"),
        ({"kind": "booster"}, "kind"),
        ({"official_size": "-1"}, "official_size"),
        ({"release_date": "2024-13-01"}, "release_date"),
        ({"name_en": "", "name_ja": ""}, "name_en"),
        ({"name_en": "x" * 201}, "name_en"),
    ],
)
def test_a_set_the_importer_refuses_is_refused(changes: dict[str, Any], field: str) -> None:
    form = set_proposal_form("mattsan", _set_data(**changes))
    assert field in form.errors


def test_a_set_known_only_by_its_year_keeps_that_precision() -> None:
    form = set_proposal_form("mattsan", _set_data(release_precision="year"))
    assert form.is_valid(), form.errors
    assert form.bundle()["sets"][0]["released"] == "2024"
