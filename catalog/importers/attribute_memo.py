"""Attribute validation for a whole import, each distinct value checked once.

``catalog.attributes.validate_attributes`` builds a Django form per mapping: the form deep-copies
its fields, so 20,000 rows cost seconds. A catalog repeats its values (a number from 0 to 9, a
handful of names, a few icons): here each (schema, key, value) is cleaned once by the schema's own
field and the answer remembered for the rest of the import. A schema with a form-level
``clean()`` (fields that must go together) or a ``clean_<key>`` hook is validated whole, by
``validate_attributes``, and remembered by its whole mapping. Either way the cleaned mapping
and the messages are the ones ``validate_attributes`` gives.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from catalog.attributes import (
    NOT_AN_OBJECT,
    UNKNOWN_ATTRIBUTE,
    AttributeErrors,
    AttributeSchema,
    validate_attributes,
)

_EMPTY: tuple[Any, ...] = (None, "", [])


def _frozen(value: Any) -> Any:
    """A hashable stand-in for a value read from a catalog file (text, numbers, lists)."""
    if isinstance(value, list | tuple):
        return (type(value).__name__, *(_frozen(v) for v in value))
    if isinstance(value, dict):
        return ("dict", json.dumps(value, sort_keys=True, default=str))
    # True == 1 and 1 == 1.0 hash alike, but fields clean them differently
    return (type(value).__name__, value)


def _has_hooks(schema: type[AttributeSchema]) -> bool:
    if schema.clean is not forms.Form.clean:
        return True
    return any(name.startswith("clean_") for name in dir(schema))


def _copy(cleaned: dict[str, Any]) -> dict[str, Any]:
    # rows must not share list objects: a later change to one row's list stays its own
    return {k: list(v) if isinstance(v, list) else v for k, v in cleaned.items()}


class AttributeMemo:
    """``validate(schema, data)``: ``validate_attributes``' answer, remembered per value."""

    def __init__(self) -> None:
        self._fields: dict[tuple[type[AttributeSchema], str, Any], Any] = {}
        self._whole: dict[tuple[type[AttributeSchema], Any], Any] = {}
        self._hooks: dict[type[AttributeSchema], bool] = {}

    def validate(self, schema: type[AttributeSchema], data: Any) -> dict[str, Any]:
        if data is None:
            data = {}
        if not isinstance(data, Mapping):
            raise AttributeErrors({"attributes": [str(NOT_AN_OBJECT)]})
        hooks = self._hooks.get(schema)
        if hooks is None:
            hooks = self._hooks[schema] = _has_hooks(schema)
        if hooks:
            return self._validate_whole(schema, data)
        return self._validate_fields(schema, data)

    def _validate_whole(
        self, schema: type[AttributeSchema], data: Mapping[str, Any]
    ) -> dict[str, Any]:
        try:
            key = (schema, _frozen(dict(data)))
            hash(key)
        except TypeError:
            return validate_attributes(schema, data)
        found = self._whole.get(key)
        if found is None:
            try:
                found = validate_attributes(schema, data)
            except AttributeErrors as exc:
                found = exc
            self._whole[key] = found
        if isinstance(found, AttributeErrors):
            raise AttributeErrors({k: list(v) for k, v in found.errors.items()})
        return _copy(found)

    def _validate_fields(
        self, schema: type[AttributeSchema], data: Mapping[str, Any]
    ) -> dict[str, Any]:
        fields = schema.base_fields
        errors: dict[str, list[str]] = {}
        for key in data:
            if key not in fields:
                errors[str(key)] = [str(UNKNOWN_ATTRIBUTE)]
        cleaned: dict[str, Any] = {}
        for key, field in fields.items():
            # the value the form would read: its widget's (a missing key included)
            raw = field.widget.value_from_datadict(data, {}, key)
            try:
                memo_key = (schema, key, _frozen(raw))
                hash(memo_key)
            except TypeError:
                memo_key = None
            answer = self._fields.get(memo_key) if memo_key is not None else None
            if answer is None:
                try:
                    answer = ("ok", field.clean(raw))
                except ValidationError as exc:
                    answer = ("error", list(exc.messages))
                if memo_key is not None:
                    self._fields[memo_key] = answer
            kind, value = answer
            if kind == "error":
                errors.setdefault(key, []).extend(value)
            elif value not in _EMPTY:
                cleaned[key] = list(value) if isinstance(value, list) else value
        if errors:
            raise AttributeErrors(errors)
        return cleaned
