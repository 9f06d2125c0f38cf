"""Typed attribute schemas for cards and printings.

A game declares, per card type, an ``AttributeSchema``: a Django form whose fields are the
attributes' types, bounds and translated labels. Using Django's own form fields gives us type
coercion, bounds, choices and translated error messages that name the field, in the importer,
the admin and the API alike, without a second validation library.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

# the number in the params picks the form: "At most 1 value." (issue 18)
AT_MOST_VALUES = ngettext_lazy("At most %(max)d value.", "At most %(max)d values.", "max")
AT_LEAST_VALUES = ngettext_lazy("At least %(min)d value.", "At least %(min)d values.", "min")

UNKNOWN_ATTRIBUTE = _("Unknown attribute for this card type.")
NOT_AN_OBJECT = _("Attributes must be a JSON object.")
NOT_A_LIST = _("Expected a list of text values.")


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


class AttributeSchema(forms.Form):
    """Base for every game's attribute schema.

    ``validate_attributes`` returns the cleaned mapping (empty optional values dropped, so the
    stored JSON stays small) or raises ``AttributeErrors`` naming each bad field.
    """

    #: attribute keys shown on a card face, in this order (the rest only on the card page)
    face_keys: ClassVar[tuple[str, ...]] = ()


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


def described(
    schema: type[AttributeSchema], attributes: Mapping[str, Any]
) -> Iterable[tuple[str, str, str]]:
    """(key, label, display) for each attribute that has a value, in schema order."""
    fields = schema.base_fields
    for key, field in fields.items():
        if key in attributes and attributes[key] not in (None, "", []):
            yield key, str(field.label or key), display_value(field, attributes[key])
