"""Helpers of the proposal form tests: each game's catalog rows for a form to name, a filled
form's data, and the importer's own verdict on a bundle."""

from __future__ import annotations

from typing import Any

from django import forms

from catalog.attributes import StrictBooleanField, StringListField
from catalog.importers.decklab_json import bundle_from_decklab
from catalog.importers.validate import validate_bundle
from catalog.models import CardSet
from catalog.spec import all_games, get_game
from tests.catalog.factories import (
    SAMPLE_ATTRIBUTES,
    SAMPLE_PRINTING_ATTRIBUTES,
    CardSetFactory,
    GameFactory,
)

GAME_TYPES = [(spec.slug, t.code) for spec in all_games() for t in spec.card_types]
SLUGS = [spec.slug for spec in all_games()]

SOURCE = {
    "source_kind": "publisher_page",
    "source_detail": "The card list of the first set",
    "source_url": "https://example.com/cards",
}


def a_set(slug: str, code: str = "T1") -> CardSet:
    return CardSetFactory(game=GameFactory(slug=slug), code=code)


def field_value(field: forms.Field, value: Any) -> Any:
    """A value as a page posts it (yes/no as text, a list of words as one text)."""
    if isinstance(field, StrictBooleanField) and isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(field, StringListField) and isinstance(value, list):
        return ", ".join(value)
    return value


def card_data(slug: str, card_type: str, **changes: Any) -> dict[str, Any]:
    """A new card's form data the importer accepts (the set ``T1`` must exist)."""
    spec = get_game(slug)
    schema = spec.schema_for(card_type)
    printing_schema = spec.printing_schema_for(card_type)
    data: dict[str, Any] = {
        "name_en": "Proposed Card",
        "name_ja": "提案のカード",
        "code": "",
        "set": "T1",
        "number": "901",
        **SOURCE,
    }
    attributes = SAMPLE_ATTRIBUTES[(slug, card_type)]
    for key, value in attributes.items():
        data[f"attr_{key}"] = field_value(schema.base_fields[key], value)
    if printing_schema.base_fields:
        for key, value in SAMPLE_PRINTING_ATTRIBUTES.get(slug, {}).items():
            data[f"printing_attr_{key}"] = field_value(printing_schema.base_fields[key], value)
    data.update(changes)
    return data


def importer_problems(data: dict[str, Any]) -> list[str]:
    """Every problem the importer's validator finds in a DeckLab catalog JSON dict."""
    return [p.message for p in validate_bundle(bundle_from_decklab(data, "test"))]


def data_from_initial(form: forms.Form) -> dict[str, Any]:
    """What a page posts for a form nobody touched: every field at its initial value."""
    data = {}
    for name, field in form.fields.items():
        value = form.get_initial_for_field(field, name)
        data[name] = "" if value is None else value
    return data
