"""An attribute is declared once (issue 20): its schema field gives the facet, the search field
and the card face, so a facet the search language does not know (a toy game's ``weight``
filtered in the API while the search answered "No search field") cannot come back."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django import forms
from django.core.exceptions import ImproperlyConfigured

from catalog.attributes import (
    AttributeErrors,
    AttributeSchema,
    Searchable,
    StringListField,
    attribute,
)
from catalog.declared import Facet
from catalog.query.compile import compile_query
from catalog.query.fields import SearchField, fields_by_name, game_fields
from catalog.spec import CardType, GameSpec, all_games, get_game
from games import registry

DOC = Path(__file__).resolve().parents[2] / "docs" / "search.md"
#: what a facet's kind is called in the search language
SAME_KIND = {"range": "number", "choice": "choice", "list": "list", "bool": "bool"}


def _toy(*schemas: type[AttributeSchema]) -> GameSpec:
    return GameSpec(
        slug="toy",
        name_en="Toy",
        name_ja="トイ",
        publisher="",
        years="",
        rules_digest="toy.md",
        card_types=tuple(CardType(f"t{i}", f"T{i}", s) for i, s in enumerate(schemas)),
    )


def _a_value(facet: Facet) -> str:
    if facet.kind == "range":
        return "1"
    if facet.kind == "bool":
        return "yes"
    return facet.choices[0][0]


@pytest.mark.parametrize("slug", registry.slugs())
def test_every_facet_has_a_search_field_of_the_same_name_and_meaning(slug: str) -> None:
    spec = get_game(slug)
    fields = fields_by_name(slug)
    for facet in spec.facets:
        field = fields.get(facet.key)
        assert field is not None, f"{slug}: facet {facet.key!r} has no search field"
        assert field.attribute_keys[0] == facet.key, facet.key
        assert field.on == facet.on, facet.key
        assert field.kind == SAME_KIND[facet.kind], facet.key
        assert field.codes == tuple(code for code, _label in facet.choices), facet.key
        # and the language takes it: no "No search field"
        compile_query(f"{facet.key}:{_a_value(facet)}", slug=slug)


def test_a_toy_declaration_gives_schema_facet_search_field_and_face_key_from_one_line() -> None:
    class Pebble(AttributeSchema):
        weight = attribute(forms.IntegerField(label="Weight", min_value=1, max_value=9), Searchable(facet=True, example="weight>=2"), face=True)  # fmt: skip  # noqa: E501

    spec = _toy(Pebble)
    assert spec.validate_card_attributes("t0", {"weight": "3"}) == {"weight": 3}
    with pytest.raises(AttributeErrors):
        spec.validate_card_attributes("t0", {"weight": 10})
    assert spec.facets == (Facet("weight", "Weight", "range"),)
    assert spec.search_fields == (
        SearchField(
            "weight", "Weight", "number", keys=("weight",), low=1, high=9, example="weight>=2"
        ),
    )
    assert Pebble.face_keys == ("weight",)


def test_an_attribute_on_several_card_types_is_one_field_with_every_types_range() -> None:
    REACH = Searchable(facet=True)

    class Small(AttributeSchema):
        reach = attribute(forms.IntegerField(label="Reach", min_value=0, max_value=3), REACH)

    class Big(AttributeSchema):
        reach = attribute(forms.IntegerField(label="Reach", min_value=1, max_value=9), REACH)
        moves = forms.IntegerField(label="Moves")

    spec = _toy(Small, Big)
    (field,) = spec.search_fields
    assert (field.name, field.low, field.high) == ("reach", 0, 9)
    assert [f.key for f in spec.facets] == ["reach"]
    assert Small.face_keys == Big.face_keys == ()


def test_a_field_named_otherwise_answers_to_its_attributes_key_too() -> None:
    class Weapon(AttributeSchema):
        weapon_icon = attribute(
            forms.ChoiceField(label="Icon", choices=(("bow", "Bow"),)),
            Searchable(name="weapon", facet=True),
        )

    (field,) = _toy(Weapon).search_fields
    assert (field.name, field.aliases, field.attribute_keys) == (
        "weapon",
        ("weapon_icon",),
        ("weapon_icon",),
    )


def test_the_alias_searches_what_the_name_searches() -> None:
    by_name = compile_query("weapon:great-sword", slug="monster-hunter")
    by_key = compile_query("weapon_icon:great-sword", slug="monster-hunter")
    assert by_name.condition == by_key.condition


def test_an_attribute_searchable_on_one_card_type_only_is_refused() -> None:
    class One(AttributeSchema):
        cost = attribute(forms.IntegerField(label="Cost"), Searchable())

    class Other(AttributeSchema):
        cost = forms.IntegerField(label="Cost")

    with pytest.raises(ImproperlyConfigured, match="cost"):
        _ = _toy(One, Other).facets


def test_a_facet_on_free_words_is_refused() -> None:
    class Story(AttributeSchema):
        keywords = attribute(StringListField(label="Keywords"), Searchable(facet=True))

    with pytest.raises(ImproperlyConfigured, match="keywords"):
        _ = _toy(Story).search_fields


def test_a_schema_may_not_list_its_face_keys_a_second_time() -> None:
    with pytest.raises(TypeError, match="face=True"):

        class Listed(AttributeSchema):
            hp = forms.IntegerField(label="HP")
            face_keys = ("hp",)


def _game_paragraph(text: str, spec: GameSpec) -> str:
    section = text.split("### Each game's fields", 1)[1].split("\n## ", 1)[0]
    for paragraph in section.split("\n\n"):
        found = re.match(r"\*\*(.+?)\*\*", paragraph)
        if found and (spec.name_en.startswith(found[1]) or spec.name_ja.startswith(found[1])):
            return paragraph
    raise AssertionError(f"docs/search.md has no paragraph on {spec.name_en}")


@pytest.mark.parametrize("slug", [spec.slug for spec in all_games()])
def test_docs_search_lists_every_field_of_every_game(slug: str) -> None:
    paragraph = _game_paragraph(DOC.read_text(encoding="utf-8"), get_game(slug))
    for field in game_fields(slug):
        for name in (field.name, *field.aliases):
            assert f"`{name}`" in paragraph, (slug, name)
