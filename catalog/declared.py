"""What a game's attribute declarations give beyond its schemas: its facets and the search
fields of its attributes.

A game declares each attribute once, as a field of its schemas (``attribute(field,
Searchable(...), face=True)``, ``catalog/attributes.py``); ``GameSpec.facets`` and
``GameSpec.search_fields`` are derived here from every schema of the game (card types, then
printings), in the order the attributes first appear (the facets' search fields first). A
declaration that cannot be read one way (a key searchable on one card type and not on another,
a facet on free text, two fields of one name) is an ``ImproperlyConfigured`` naming the
attribute, raised when the game's facets or fields are first read.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from django import forms
from django.core.exceptions import ImproperlyConfigured
from django.utils.functional import Promise

from catalog.attributes import (
    AttributeSchema,
    ChoiceListField,
    Searchable,
    StrictBooleanField,
    StringListField,
    searchable_of,
)
from catalog.query.fields import FieldKind, SearchField

FacetKind = Literal["choice", "list", "range", "bool"]
On = Literal["card", "printing"]


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
    #: "printing": the value lives on the printing (a number printed differently in each
    #: box), not on the card
    on: On = "card"


@dataclass(frozen=True)
class Declared:
    facets: tuple[Facet, ...]
    search_fields: tuple[SearchField, ...]


_FACET_KINDS: dict[FieldKind, FacetKind] = {
    "number": "range",
    "choice": "choice",
    "list": "list",
    "bool": "bool",
}


def field_kind(field: forms.Field) -> FieldKind:
    """The search field kind a form field's values have."""
    if isinstance(field, StrictBooleanField | forms.BooleanField | forms.NullBooleanField):
        return "bool"
    if isinstance(field, forms.IntegerField):
        return "number"
    # before ChoiceField: a multiple choice is one
    if isinstance(field, ChoiceListField | forms.MultipleChoiceField | StringListField):
        return "list"
    if isinstance(field, forms.ChoiceField):
        return "choice"
    if isinstance(field, forms.CharField):
        return "text"
    raise ImproperlyConfigured(f"{type(field).__name__} has no search field kind")


@dataclass(frozen=True)
class _Attribute:
    """Every field one attribute key has across a game's schemas."""

    key: str
    on: On
    fields: tuple[forms.Field, ...]

    @property
    def kind(self) -> FieldKind:
        return field_kind(self.fields[0])

    @property
    def choices(self) -> tuple[tuple[str, Promise | str], ...]:
        return tuple(getattr(self.fields[0], "choices", ()) or ())

    @property
    def low(self) -> int | None:
        lows: list[int | None] = [getattr(f, "min_value", None) for f in self.fields]
        return None if None in lows else min(low for low in lows if low is not None)

    @property
    def high(self) -> int | None:
        highs: list[int | None] = [getattr(f, "max_value", None) for f in self.fields]
        return None if None in highs else max(high for high in highs if high is not None)


def _attributes(schemas: Iterable[tuple[type[AttributeSchema], On]]) -> dict[str, _Attribute]:
    found: dict[str, tuple[On, list[forms.Field]]] = {}
    for schema, on in schemas:
        for key, field in schema.base_fields.items():
            where, fields = found.setdefault(key, (on, []))
            if where != on and searchable_of(field) is not None:
                raise ImproperlyConfigured(
                    f"Attribute {key!r} is searchable and both a card's and a printing's"
                )
            if field not in fields:
                fields.append(field)
    return {key: _Attribute(key, on, tuple(fields)) for key, (on, fields) in found.items()}


def _searchable(attr: _Attribute) -> Searchable | None:
    declared = {searchable_of(f) for f in attr.fields}
    if len(declared) > 1:
        # every card type's field of the attribute says the same, so a reader of any schema
        # sees how it is searched
        raise ImproperlyConfigured(
            f"Attribute {attr.key!r} is declared searchable differently across card types: "
            "give each of its fields the same Searchable"
        )
    if {field_kind(f) for f in attr.fields} != {attr.kind}:
        raise ImproperlyConfigured(f"Attribute {attr.key!r} has fields of different kinds")
    if {tuple(getattr(f, "choices", ()) or ()) for f in attr.fields} != {attr.choices}:
        raise ImproperlyConfigured(f"Attribute {attr.key!r} has different choices")
    return declared.pop()


def _search_field(
    attr: _Attribute, search: Searchable, every: dict[str, _Attribute]
) -> SearchField:
    name = search.name or attr.key
    low, high = attr.low, attr.high
    for other in search.also:
        also = every.get(other)
        if also is None or also.on != attr.on or also.kind != attr.kind:
            raise ImproperlyConfigured(
                f"{name!r} also reads {other!r}, which is not an attribute of the same kind"
            )
        low = None if low is None or also.low is None else min(low, also.low)
        high = None if high is None or also.high is None else max(high, also.high)
    number = attr.kind == "number"
    return SearchField(
        name,
        search.label or attr.fields[0].label or attr.key,
        attr.kind,
        keys=(attr.key, *search.also),
        choices=attr.choices,
        on=attr.on,
        low=low if number else None,
        high=high if number else None,
        example=search.example,
        aliases=(attr.key,) if name != attr.key else (),
    )


def _facet(attr: _Attribute, field: SearchField) -> Facet:
    kind = _FACET_KINDS.get(attr.kind)
    if kind is None or (kind == "list" and not attr.choices):
        raise ImproperlyConfigured(
            f"Attribute {attr.key!r} cannot be a facet: a facet filters on a number, a choice, "
            "a list of codes or yes/no"
        )
    return Facet(attr.key, field.label, kind, attr.choices, attr.on)


def declared(schemas: Iterable[tuple[type[AttributeSchema], On]]) -> Declared:
    """The facets and search fields declared on the fields of ``schemas`` (each with where
    its attributes live)."""
    every = _attributes(schemas)
    facets: list[Facet] = []
    # the facets' fields first: a game's main attributes lead its help and its examples
    fields: list[SearchField] = []
    others: list[SearchField] = []
    names: dict[str, str] = {}
    for attr in every.values():
        search = _searchable(attr)
        if search is None:
            continue
        field = _search_field(attr, search, every)
        for name in (field.name, *field.aliases):
            if names.setdefault(name, attr.key) != attr.key:
                raise ImproperlyConfigured(
                    f"Two attributes ({names[name]!r}, {attr.key!r}) give the search field {name!r}"
                )
        if search.facet:
            facets.append(_facet(attr, field))
        (fields if search.facet else others).append(field)
    return Declared(tuple(facets), (*fields, *others))
