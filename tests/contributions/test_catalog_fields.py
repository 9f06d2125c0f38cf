"""The review and history pages name a catalog field by its label in the page's language
(contributions/templatetags/catalog_fields.py), the format's name only where none is known."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.utils import translation

from contributions.templatetags.catalog_fields import (
    attribute_label,
    card_type_label,
    catalog_value,
    field_label,
)


@pytest.mark.parametrize(
    ("kind", "name", "japanese"),
    [
        ("card", "type", "カードの種類"),
        ("card", "name_ja", "日本語名"),
        ("card", "attributes.attack", "攻撃力"),
        ("card", "source", "出典"),
        ("set", "released", "発売日"),
        ("product", "price_yen", "価格（円）"),
    ],
)
def test_a_field_is_named_by_its_japanese_label(kind: str, name: str, japanese: str) -> None:
    with translation.override("ja"):
        assert field_label("monster-hunter", kind, name) == japanese


def test_a_printing_attribute_is_read_from_the_printing_schema() -> None:
    with translation.override("ja"):
        assert attribute_label("unmatched", "printing", "boost") == "ブースト"
    with translation.override("en"):
        assert attribute_label("unmatched", "printing", "boost") == "Boost"


def test_a_name_without_a_label_is_shown_as_it_is() -> None:
    assert field_label("monster-hunter", "card", "attributes.no_such_key") == "no_such_key"
    assert field_label("monster-hunter", "card", "no_such_field") == "no_such_field"
    assert field_label("no-such-game", "card", "attributes.attack") == "attack"
    assert card_type_label("monster-hunter", "no-such-type") == "no-such-type"


def test_a_card_type_and_a_value_as_the_page_shows_them() -> None:
    with translation.override("ja"):
        assert card_type_label("monster-hunter", "hunter") == "ハンター"
    # a list as the diff shows it (JSON), never as Python's repr
    assert catalog_value(["meat", "ball"]) == '["meat", "ball"]'
    assert catalog_value(None) == ""
    page = Template(
        "{% load catalog_fields %}{% field_label slug 'card' name as label %}{{ label }}"
    ).render(Context({"slug": "monster-hunter", "name": "attributes.reach"}))
    assert page == "Reach"
