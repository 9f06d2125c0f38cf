"""The forms proposing something new to the catalog (``contributions.forms``): a card of one
type with one printing, and a set."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.text import slugify

from catalog.importers.bundle import release_text
from catalog.kinds import kind_codes
from catalog.models import Card, CardSet
from catalog.spec import GameSpec
from contributions.form_fields import (
    CARD_ATTR,
    CARD_CODE_TAKEN,
    CODE_CANNOT_BE_MADE,
    HELP_CARD_CODE,
    HELP_COPY_LIMIT,
    LABEL_CARD_CODE,
    LABEL_CARD_TYPE,
    LABEL_COPY_LIMIT,
    LABEL_KIND,
    LABEL_NUMBER,
    LABEL_OFFICIAL_SIZE,
    LABEL_PRECISION,
    LABEL_REGULAR,
    LABEL_RELEASED,
    LABEL_SET,
    LABEL_SET_CODE,
    LABEL_VARIANT,
    MAX_OFFICIAL_SIZE,
    NOT_A_DATE,
    PRINTING_ATTR,
    SET_CODE_TAKEN,
    allows_copy_limit,
    code_field,
    name_fields,
)
from contributions.models import Proposal
from contributions.proposal_form import ProposalForm, catalog_document

_NOT_CODE = re.compile(r"[^-a-zA-Z0-9_]+")


class _StrictDateField(forms.DateField):
    """A date typed as text: anything else is a wrong date, never an exception (a JSON body
    may put a number where the page puts text)."""

    def to_python(self, value: Any) -> dt.date | None:
        if value is not None and not isinstance(value, str | dt.date):
            raise ValidationError(NOT_A_DATE, code="invalid")
        return super().to_python(value)


class CardProposalForm(ProposalForm):
    """A new card of one type, with one printing."""

    kind = Proposal.Kind.CARD

    def __init__(
        self, spec: GameSpec, card_type: str, data: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(spec, data)
        found = spec.card_type(card_type)
        if found is None:
            raise LookupError(f"{card_type!r} is not a card type of {spec.slug}")
        self.card_type = found
        self.fields.update(name_fields())
        code = code_field(LABEL_CARD_CODE, 120, required=False)
        code.help_text = HELP_CARD_CODE
        self.fields["code"] = code
        # shown, never read from the data: the form is the type's
        self.fields["card_type"] = forms.ChoiceField(
            label=LABEL_CARD_TYPE,
            choices=[(found.code, found.label)],
            initial=found.code,
            disabled=True,
        )
        self._add_attribute_fields(found.schema, CARD_ATTR)
        if allows_copy_limit(spec):
            self.fields["copy_limit"] = forms.IntegerField(
                label=LABEL_COPY_LIMIT,
                min_value=1,
                max_value=99,
                required=False,
                help_text=HELP_COPY_LIMIT,
            )
        sets = CardSet.objects.filter(game__slug=spec.slug, owner__isnull=True).order_by(
            "release_date", "code"
        )
        self.fields["set"] = forms.ChoiceField(
            label=LABEL_SET,
            choices=[("", "—"), *((s.code, f"{s.name} ({s.code})") for s in sets)],
        )
        self.fields["number"] = forms.CharField(label=LABEL_NUMBER, max_length=40, required=False)
        if spec.variants:
            self.fields["variant"] = forms.ChoiceField(
                label=LABEL_VARIANT,
                choices=[("", LABEL_REGULAR), *spec.variants],
                required=False,
            )
        self.printing_schema = spec.printing_schema_for(found.code)
        self._add_attribute_fields(self.printing_schema, PRINTING_ATTR)
        self._add_source_fields()

    @property
    def attribute_fields(self) -> dict[str, forms.Field]:
        """The card type's attributes by key (the schema's fields, as this form has them)."""
        return {key: self.fields[CARD_ATTR + key] for key in self.card_type.schema.base_fields}

    @property
    def printing_fields(self) -> dict[str, forms.Field]:
        return {key: self.fields[PRINTING_ATTR + key] for key in self.printing_schema.base_fields}

    def clean_proposal(self, data: dict[str, Any]) -> None:
        self._clean_names(data)
        self.card_attributes = self._attributes(self.card_type.schema, CARD_ATTR)
        self.printing_attributes = self._attributes(self.printing_schema, PRINTING_ATTR)
        if "code" in self.errors:
            return
        code = data.get("code") or self._made_code(data)
        if not code:
            self.add_error("code", CODE_CANNOT_BE_MADE)
        elif Card.objects.filter(game__slug=self.spec.slug, code=code).exists():
            self.add_error("code", CARD_CODE_TAKEN % {"code": code})
        else:
            data["code"] = code

    def _made_code(self, data: dict[str, Any]) -> str:
        if data.get("number") and data.get("set"):
            made = _NOT_CODE.sub("-", f"{data['set']}-{data['number']}")
        else:
            made = slugify(data.get("name_en") or "")
        return made.strip("-")[:120]

    def _document(self) -> dict[str, Any]:
        data = self.cleaned_data
        printing: dict[str, Any] = {"set": data["set"], "number": data.get("number", "")}
        if data.get("variant"):
            printing["variant"] = data["variant"]
        printing["attributes"] = self.printing_attributes or {}
        card: dict[str, Any] = {
            "code": data["code"],
            "type": self.card_type.code,
            "name_en": data.get("name_en", ""),
            "name_ja": data.get("name_ja", ""),
            "attributes": self.card_attributes or {},
        }
        if data.get("copy_limit") is not None:
            card["copy_limit"] = data["copy_limit"]
        card["source"] = self.catalog_source()
        card["printings"] = [printing]
        return catalog_document(self.spec, cards=[card])

    def title(self) -> str:
        data = self.cleaned_data
        return str(data.get("name_en") or data.get("name_ja") or "")


class SetProposalForm(ProposalForm):
    """A new set of the game."""

    kind = Proposal.Kind.SET

    def __init__(self, spec: GameSpec, data: Mapping[str, Any] | None = None) -> None:
        super().__init__(spec, data)
        self.fields["code"] = code_field(LABEL_SET_CODE, 80, required=True)
        self.fields.update(name_fields())
        codes = kind_codes(spec.set_kinds)
        self.fields["kind"] = forms.ChoiceField(
            label=LABEL_KIND,
            choices=spec.set_kinds,
            initial=CardSet.Kind.EXPANSION if CardSet.Kind.EXPANSION in codes else codes[0],
        )
        self.fields["release_date"] = _StrictDateField(label=LABEL_RELEASED, required=False)
        self.fields["release_precision"] = forms.ChoiceField(
            label=LABEL_PRECISION,
            choices=CardSet.Precision.choices,
            initial=CardSet.Precision.DAY,
            required=False,
        )
        self.fields["official_size"] = forms.IntegerField(
            label=LABEL_OFFICIAL_SIZE, min_value=0, max_value=MAX_OFFICIAL_SIZE, required=False
        )
        self._add_source_fields()

    def clean_proposal(self, data: dict[str, Any]) -> None:
        self._clean_names(data)
        code = data.get("code")
        if code and CardSet.objects.filter(game__slug=self.spec.slug, code=code).exists():
            self.add_error("code", SET_CODE_TAKEN % {"code": code})

    def _document(self) -> dict[str, Any]:
        data = self.cleaned_data
        row: dict[str, Any] = {
            "code": data["code"],
            "name_en": data.get("name_en", ""),
            "name_ja": data.get("name_ja", ""),
            "kind": data["kind"],
        }
        released = release_text(
            data.get("release_date"), data.get("release_precision") or CardSet.Precision.DAY
        )
        if released:
            row["released"] = released
        if data.get("official_size") is not None:
            row["official_size"] = data["official_size"]
        row["source"] = self.catalog_source()
        return catalog_document(self.spec, sets=[row])

    def title(self) -> str:
        data = self.cleaned_data
        return str(data.get("name_en") or data.get("name_ja") or data.get("code") or "")
