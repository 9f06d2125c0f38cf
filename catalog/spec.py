"""What a game declares to the catalog (its card types, attribute schemas, facets), and the
thin Django adapter over ``games.registry`` that the catalog, decks and simulator apps read
game specs through (``get_game``, ``all_games``, ``is_game``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from django.utils.functional import Promise

from catalog.attributes import AttributeSchema, validate_attributes
from games import registry
from games.registry import Game

FacetKind = Literal["choice", "list", "range", "bool"]


class EmptySchema(AttributeSchema):
    """For card types or printings that carry no attributes of their own."""


@dataclass(frozen=True)
class CardType:
    code: str
    label: Promise | str
    schema: type[AttributeSchema] = EmptySchema


@dataclass(frozen=True)
class Facet:
    """A main attribute that set pages and the API filter and sort on.

    ``choice``: one value of a choice field; ``list``: membership in a choice list;
    ``range``: a min/max on an integer; ``bool``: yes/no.
    """

    key: str
    label: Promise | str
    kind: FacetKind
    choices: tuple[tuple[str, Promise | str], ...] = ()
    #: "printing": the value lives on the printing (e.g. Unmatched boost), not on the card
    on: Literal["card", "printing"] = "card"


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
    facets: tuple[Facet, ...] = ()
    #: named printing variants (e.g. Recharge "power-plus") with their labels
    variants: tuple[tuple[str, Promise | str], ...] = ()
    sort_order: int = 100
    #: a short colour used by the game's card faces and badges
    accent: str = "#6c757d"
    extra: Mapping[str, Any] = field(default_factory=dict)

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
    spec = game.declared("catalog", "SPEC")
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
