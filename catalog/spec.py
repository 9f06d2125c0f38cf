"""What a game declares to the catalog (its card types and attribute schemas, from which its
facets and search fields are derived: ``catalog.declared``), and the
thin Django adapter over ``games.registry`` that the catalog, decks and simulator apps read
game specs through (``get_game``, ``all_games``, ``is_game``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.utils.functional import Promise

from catalog.attributes import AttributeSchema, validate_attributes
from catalog.declared import Declared, Facet, declared
from catalog.kinds import PRODUCT_KINDS, SET_KINDS, Kinds
from catalog.query.fields import SearchField
from games import registry
from games.registry import Game


class EmptySchema(AttributeSchema):
    """For card types or printings that carry no attributes of their own."""


@dataclass(frozen=True)
class CardType:
    code: str
    label: Promise | str
    schema: type[AttributeSchema] = EmptySchema


@dataclass(frozen=True)
class GameSpec:
    slug: str
    name_en: str
    name_ja: str
    publisher: str
    years: str
    #: the rule digest this game's validators and engines cite: shared/rules/<file>
    rules_digest: str
    card_types: tuple[CardType, ...]
    printing_schema: type[AttributeSchema] = EmptySchema
    #: where a card type's printings carry other attributes than the game's usual ones
    printing_schemas: Mapping[str, type[AttributeSchema]] = field(default_factory=dict)
    #: named printing variants (e.g. "foil" or "alternate-art") with their labels
    variants: tuple[tuple[str, Promise | str], ...] = ()
    #: the kinds of set and product the game publishes (catalog.kinds; the shared ones unless
    #: the game declares its own)
    set_kinds: Kinds = SET_KINDS
    product_kinds: Kinds = PRODUCT_KINDS
    #: attribute values a card page words the game's own way: {key: {value: label}}
    value_labels: Mapping[str, Mapping[str, Promise | str]] = field(default_factory=dict)
    sort_order: int = 100
    #: a short colour used by the game's card faces and badges
    accent: str = "#6c757d"
    extra: Mapping[str, Any] = field(default_factory=dict)

    @cached_property
    def _declared(self) -> Declared:
        # read off the schemas' fields once (a cached_property writes past the frozen
        # dataclass's __setattr__, into the instance's own __dict__)
        schemas = dict.fromkeys(t.schema for t in self.card_types)
        printing = dict.fromkeys((self.printing_schema, *self.printing_schemas.values()))
        return declared([*((s, "card") for s in schemas), *((s, "printing") for s in printing)])

    @property
    def facets(self) -> tuple[Facet, ...]:
        """The facets the set pages and the API filter on: the attributes declared
        ``Searchable(facet=True)``."""
        return self._declared.facets

    @property
    def search_fields(self) -> tuple[SearchField, ...]:
        """The search fields of the attributes declared ``Searchable`` (a game's fields that
        are not one attribute are in its ``search.py``: ``catalog.query.fields.game_fields``)."""
        return self._declared.search_fields

    @property
    def card_type_codes(self) -> tuple[str, ...]:
        return tuple(t.code for t in self.card_types)

    def card_type(self, code: str) -> CardType | None:
        return next((t for t in self.card_types if t.code == code), None)

    def card_type_label(self, code: str) -> str:
        found = self.card_type(code)
        return str(found.label) if found else code

    def variant_label(self, code: str) -> str:
        return str(dict(self.variants).get(code, code))

    def validate_card_attributes(self, card_type: str, data: Any) -> dict[str, Any]:
        found = self.card_type(card_type)
        schema = found.schema if found else EmptySchema
        return validate_attributes(schema, data)

    def printing_schema_for(self, card_type: str) -> type[AttributeSchema]:
        return self.printing_schemas.get(card_type, self.printing_schema)

    def validate_printing_attributes(self, data: Any, card_type: str = "") -> dict[str, Any]:
        return validate_attributes(self.printing_schema_for(card_type), data)

    def schema_for(self, card_type: str) -> type[AttributeSchema]:
        found = self.card_type(card_type)
        return found.schema if found else EmptySchema


def _spec_of(game: Game) -> GameSpec:
    spec = game.spec
    if not isinstance(spec, GameSpec):
        raise LookupError(f"The game {game.slug!r} declares no catalog SPEC in catalog.py")
    return spec


def get_game(slug: str) -> GameSpec:
    """The catalog spec of a registered game; LookupError for an unknown slug."""
    return _spec_of(registry.get(slug))


def all_games() -> list[GameSpec]:
    """Every registered game's spec, in the games' sort order."""
    return [_spec_of(game) for game in registry.all_games()]


def is_game(slug: str) -> bool:
    return registry.is_game(slug)
