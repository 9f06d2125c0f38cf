"""Typed attribute schemas for cards and printings.

A game declares, per card type, an ``AttributeSchema``: a Django form whose fields are the
attributes' types, bounds and translated labels. Using Django's own form fields gives us type
coercion, bounds, choices and translated error messages that name the field, in the importer,
the admin and the API alike, without a second validation library.

A field is the attribute's one declaration: ``attribute(field, Searchable(...), face=True)``
adds what else the catalog offers on it (a field of the search language, a facet of the set
pages and the API, a place on the card face), so nothing about an attribute is written twice.
``catalog.declared`` derives a game's facets and search fields from these fields.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from django import forms
from django.core.exceptions import ValidationError
from django.forms.forms import DeclarativeFieldsMetaclass
from django.utils.translation import get_language, ngettext_lazy
from django.utils.translation import gettext_lazy as _

# the number in the params picks the form: "At most 1 value." (issue 18)
AT_MOST_VALUES = ngettext_lazy("At most %(max)d value.", "At most %(max)d values.", "max")
AT_LEAST_VALUES = ngettext_lazy("At least %(min)d value.", "At least %(min)d values.", "min")

UNKNOWN_ATTRIBUTE = _("Unknown attribute for this card type.")
NOT_AN_OBJECT = _("Attributes must be a JSON object.")
NOT_A_LIST = _("Expected a list of text values.")

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

F = TypeVar("F", bound=forms.Field)


@dataclass(frozen=True)
class Searchable:
    """What the catalog offers on one attribute beyond its schema: a field of the card search
    language and, with ``facet``, a facet (a filter of the set pages and the API, named by the
    attribute's key). Declared once per attribute: where the attribute is on several card
    types, each of their fields carries the same object.

    The kind follows the form field: an integer is a number (its ``min_value``/``max_value``
    are the search field's range) and a range facet; a ``ChoiceField`` a choice;
    a ``ChoiceListField`` a list of codes; a ``StringListField`` a list of free words (no
    facet); a ``CharField`` words (no facet); a ``StrictBooleanField`` yes/no.
    """

    #: the field's name in the search language ("" = the attribute's key, which is also
    #: accepted when the name differs: a facet's name always works in a search)
    name: str = ""
    #: also a facet
    facet: bool = False
    #: the search field's and the facet's label ("" = the form field's own label)
    label: StrOrPromise = ""
    #: an example for the search help page and the API description
    example: str = ""
    #: other attribute keys the search field reads too ("any of them"; one card type's
    #: other numbers beside its main one); the facet reads the attribute's own key only
    also: tuple[str, ...] = ()


def attribute(field: F, search: Searchable | None = None, *, face: bool = False) -> F:
    """``field`` declared as an attribute: searched (and faceted) as ``search`` says, and
    shown on the card face when ``face`` (faces show their attributes in schema order)."""
    # plain attributes on the field: Django copies a form's fields with everything on them
    setattr(field, "searchable", search)  # noqa: B010
    setattr(field, "on_face", face)  # noqa: B010
    return field


def searchable_of(field: forms.Field) -> Searchable | None:
    """How ``field``'s attribute is searched, or None when it is not."""
    found = getattr(field, "searchable", None)
    return found if isinstance(found, Searchable) else None


def is_on_face(field: forms.Field) -> bool:
    return bool(getattr(field, "on_face", False))


class StringListField(forms.Field):
    """A list of short, non-empty strings (keywords, conditions)."""

    def __init__(self, *, max_items: int = 20, max_length: int = 60, **kwargs: Any) -> None:
        self.max_items = max_items
        self.max_length = max_length
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> list[str]:
        if value in (None, "", []):
            return []
        if isinstance(value, str):
            value = value.split(",")
        if not isinstance(value, list | tuple):
            raise ValidationError(NOT_A_LIST, code="not_a_list")
        items = [str(item).strip() for item in value]
        if any(not item for item in items) or not all(isinstance(i, str | int) for i in value):
            raise ValidationError(NOT_A_LIST, code="not_a_list")
        if len(items) > self.max_items:
            raise ValidationError(AT_MOST_VALUES, code="too_many", params={"max": self.max_items})
        if any(len(item) > self.max_length for item in items):
            raise ValidationError(
                _("Each value is at most %(max)d characters."),
                code="too_long",
                params={"max": self.max_length},
            )
        return items


class ChoiceListField(forms.MultipleChoiceField):
    """Several values from a fixed set (icons, colours), with a bound on how many."""

    def __init__(self, *, min_items: int = 0, max_items: int | None = None, **kwargs: Any) -> None:
        self.min_items = min_items
        self.max_items = max_items
        kwargs.setdefault("required", min_items > 0)
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> list[str]:
        if value in (None, "", []):
            return []
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list | tuple):
            raise ValidationError(self.error_messages["invalid_list"], code="invalid_list")
        return [str(v) for v in value]

    def validate(self, value: Any) -> None:
        super().validate(value)
        if len(value) != len(set(value)):
            raise ValidationError(_("A value is repeated."), code="repeated")
        if len(value) < self.min_items:
            raise ValidationError(AT_LEAST_VALUES, code="too_few", params={"min": self.min_items})
        if self.max_items is not None and len(value) > self.max_items:
            raise ValidationError(AT_MOST_VALUES, code="too_many", params={"max": self.max_items})


class StrictBooleanField(forms.Field):
    """true/false only: a JSON catalog must not turn "no" into True."""

    def to_python(self, value: Any) -> bool | None:
        if value in (None, ""):
            return None
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in {"true", "false"}:
            return value.lower() == "true"
        raise ValidationError(_("Expected true or false."), code="not_bool")

    def validate(self, value: Any) -> None:
        if value is None and self.required:
            raise ValidationError(self.error_messages["required"], code="required")


class _SchemaMetaclass(DeclarativeFieldsMetaclass):
    """Reads a schema's face keys off its fields (``attribute(..., face=True)``)."""

    def __new__(mcs, name: str, bases: tuple[type, ...], attrs: dict[str, Any]) -> Any:
        if "face_keys" in attrs:
            raise TypeError(
                f"{name}: declare a face attribute with attribute(field, face=True), "
                "not with face_keys"
            )
        cls: Any = super().__new__(mcs, name, bases, attrs)
        fields: dict[str, forms.Field] = cls.base_fields
        cls.face_keys = tuple(key for key, f in fields.items() if is_on_face(f))
        return cls


class AttributeSchema(forms.Form, metaclass=_SchemaMetaclass):
    """Base for every game's attribute schema.

    ``validate_attributes`` returns the cleaned mapping (empty optional values dropped, so the
    stored JSON stays small) or raises ``AttributeErrors`` naming each bad field.
    """

    #: attribute keys shown on a card face, in schema order (the rest only on the card page);
    #: read off the fields declared ``attribute(..., face=True)`` (set by the metaclass)
    face_keys: ClassVar[tuple[str, ...]]


@dataclass(frozen=True)
class AttributeErrors(Exception):
    """Every problem with one attribute mapping: key -> messages."""

    errors: dict[str, list[str]]

    def __str__(self) -> str:
        return "; ".join(f"{key}: {' '.join(msgs)}" for key, msgs in self.errors.items())


def validate_attributes(schema: type[AttributeSchema], data: Any) -> dict[str, Any]:
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        raise AttributeErrors({"attributes": [str(NOT_AN_OBJECT)]})
    form = schema(data=dict(data))
    errors: dict[str, list[str]] = {}
    for key in data:
        if key not in form.fields:
            errors[str(key)] = [str(UNKNOWN_ATTRIBUTE)]
    if not form.is_valid():
        for key, messages in form.errors.items():
            errors.setdefault(key, []).extend(str(m) for m in messages)
    if errors:
        raise AttributeErrors(errors)
    return {key: value for key, value in form.cleaned_data.items() if value not in (None, "", [])}


def display_value(field: forms.Field, value: Any) -> str:
    """A stored attribute value as a person reads it (choice labels, yes/no)."""
    choices = dict(getattr(field, "choices", ()) or ())
    if isinstance(value, list):
        return ", ".join(str(choices.get(v, v)) for v in value)
    if isinstance(value, bool):
        return str(_("yes") if value else _("no"))
    return str(choices.get(value, value))


@dataclass(frozen=True)
class _Shown:
    """One attribute as ``described`` shows it in one language: its label, and its choices'
    labels (built once: a catalog page of 50 cards had spent a third of its serialisation
    time translating the same labels and rebuilding the same choice mappings)."""

    key: str
    label: str
    choices: dict[Any, str]
    yes: str
    no: str

    def display(self, value: Any) -> str:
        choices = self.choices
        if isinstance(value, list):
            return ", ".join(choices.get(v) or str(v) for v in value)
        if isinstance(value, bool):
            return self.yes if value else self.no
        try:
            return choices.get(value) or str(value)
        except TypeError:  # an unhashable value stored by hand: shown as it is
            return str(value)


@lru_cache(maxsize=512)
def _shown(schema: type[AttributeSchema], language: str) -> tuple[_Shown, ...]:
    # keyed by the language: the labels are translated once per language and schema
    del language
    yes, no = str(_("yes")), str(_("no"))
    return tuple(
        _Shown(
            key,
            str(field.label or key),
            {code: str(label) for code, label in (getattr(field, "choices", ()) or ())},
            yes,
            no,
        )
        for key, field in schema.base_fields.items()
    )


def described(
    schema: type[AttributeSchema], attributes: Mapping[str, Any]
) -> Iterable[tuple[str, str, str]]:
    """(key, label, display) for each attribute that has a value, in schema order."""
    for shown in _shown(schema, get_language() or ""):
        value = attributes.get(shown.key)
        if value not in (None, "", []):
            yield shown.key, shown.label, shown.display(value)
