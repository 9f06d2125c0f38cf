"""The forms correcting a card already in the catalog (``contributions.forms``): any of its
facts and its printings' attributes, or only the name it lacks in the other language."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import partial
from typing import Any, NamedTuple

from django import forms
from django.utils.functional import lazy

from catalog.models import Card, Printing
from contributions.form_fields import (
    CARD_ATTR,
    HELP_COPY_LIMIT,
    LABEL_COPY_LIMIT,
    LABEL_PRINTING_FIELD,
    LABEL_REASON,
    NAMES_COMPLETE,
    NOTHING_CHANGED,
    allows_copy_limit,
    name_fields,
    none_if_empty,
)
from contributions.models import Proposal
from contributions.payload import printing_code as payload_printing_code
from contributions.proposal_form import ProposalForm, catalog_document


class Change(NamedTuple):
    """One fact a correction changes. ``field`` is ``name_en``, ``name_ja``, ``copy_limit``
    or ``attributes.<key>``; an empty value is None on either side."""

    object_kind: str  # "card" or "printing"
    code: str  # the card's code; a printing's: ``printing_code``
    field: str
    before: Any
    after: Any


def printing_code(printing: Printing) -> str:
    """A printing's code in a proposal's target and a change: the history's own
    (``contributions.payload.printing_code``: ``MTD-001/MTD/001``, a variant as a fourth part)."""
    key = (printing.card.code, printing.card_set.code, printing.collector_number, printing.variant)
    return payload_printing_code(key)


def _printing_label_now(where: str, label: Any) -> str:
    return str(LABEL_PRINTING_FIELD % {"printing": where, "field": label})


#: a printing's field label, translated when shown (a form may be built before the language
#: of the page that shows it is known)
_printing_label = lazy(_printing_label_now, str)


class CorrectionForm(ProposalForm):
    """A card's facts field by field, each starting at its current value: ``changes()`` are
    the ones the player changed, and ``bundle()`` the whole card row (the importer rewrites
    every column of a row it upserts) with those changes and only the changed printings.

    A printing's set, number and variant are its natural key (the importer would add another
    printing, not move this one), so only its attributes are fields here."""

    kind = Proposal.Kind.CORRECTION

    def __init__(
        self,
        card: Card,
        data: Mapping[str, Any] | None = None,
        *,
        names: Iterable[str] = ("name_en", "name_ja"),
        attributes: bool = True,
    ) -> None:
        super().__init__(card.spec, data)
        self.card = card
        self.edits_attributes = attributes
        for name, field in name_fields().items():
            if name in names:
                field.initial = getattr(card, name)
                self.fields[name] = field
        self.schema = self.spec.schema_for(card.card_type)
        self.printing_schema = self.spec.printing_schema_for(card.card_type)
        self.printings: list[Printing] = []
        if attributes:
            self._add_attribute_fields(self.schema, CARD_ATTR, card.attributes)
            if allows_copy_limit(self.spec) or card.copy_limit is not None:
                self.fields["copy_limit"] = forms.IntegerField(
                    label=LABEL_COPY_LIMIT,
                    min_value=1,
                    max_value=99,
                    required=False,
                    initial=card.copy_limit,
                    help_text=HELP_COPY_LIMIT,
                )
            if self.printing_schema.base_fields:
                self.printings = list(
                    card.printings.select_related("card_set").order_by(
                        "card_set__code", "collector_number", "variant"
                    )
                )
            for index, printing in enumerate(self.printings):
                where = printing_code(printing)
                self._add_attribute_fields(
                    self.printing_schema,
                    self._printing_prefix(index),
                    printing.attributes,
                    label=partial(_printing_label, where),
                )
        # the corrected values (set by clean): until then, the current ones
        self.new_attributes: dict[str, Any] = dict(card.attributes)
        self.new_printings = [dict(printing.attributes) for printing in self.printings]
        self.fields["reason"] = forms.CharField(
            label=LABEL_REASON, max_length=2000, widget=forms.Textarea
        )
        self._add_source_fields()

    @staticmethod
    def _printing_prefix(index: int) -> str:
        return f"p{index}_{CARD_ATTR}"

    def clean_proposal(self, data: dict[str, Any]) -> None:
        if "name_en" in self.fields or "name_ja" in self.fields:
            names = {n: data.get(n, getattr(self.card, n)) for n in ("name_en", "name_ja")}
            self._clean_names(names)
        if self.edits_attributes:
            self.new_attributes = self._attributes(self.schema, CARD_ATTR) or {}
            self.new_printings = [
                self._attributes(self.printing_schema, self._printing_prefix(i)) or {}
                for i in range(len(self.printings))
            ]
        if not self.errors and not self.changes():
            self.add_error(None, NOTHING_CHANGED)

    def changes(self) -> list[Change]:
        """Only the fields the player changed (none before the form is cleaned)."""
        data, card = getattr(self, "cleaned_data", {}), self.card
        found: list[Change] = []
        for name in ("name_en", "name_ja", "copy_limit"):
            if name in self.fields and name in data:
                before, after = none_if_empty(getattr(card, name)), none_if_empty(data[name])
                if before != after:
                    found.append(Change("card", card.code, name, before, after))
        if not self.edits_attributes:
            return found
        for key in self.schema.base_fields:
            before = none_if_empty(card.attributes.get(key))
            after = none_if_empty(self.new_attributes.get(key))
            if before != after:
                found.append(Change("card", card.code, f"attributes.{key}", before, after))
        for printing, attributes in zip(self.printings, self.new_printings, strict=True):
            for key in self.printing_schema.base_fields:
                before = none_if_empty(printing.attributes.get(key))
                after = none_if_empty(attributes.get(key))
                if before != after:
                    found.append(
                        Change(
                            "printing", printing_code(printing), f"attributes.{key}", before, after
                        )
                    )
        return found

    def _document(self) -> dict[str, Any]:
        data, card = self.cleaned_data, self.card
        row: dict[str, Any] = {
            "code": card.code,
            "type": card.card_type,
            "name_en": data.get("name_en", card.name_en),
            "name_ja": data.get("name_ja", card.name_ja),
            "attributes": self.new_attributes,
        }
        copy_limit = data["copy_limit"] if "copy_limit" in self.fields else card.copy_limit
        if copy_limit is not None:
            row["copy_limit"] = copy_limit
        # the card's own provenance, unchanged: the proposal keeps the proposer's source
        row["source"] = card.source
        row["demo"] = card.is_demo
        changed = {c.code for c in self.changes() if c.object_kind == "printing"}
        printings = []
        for printing, attributes in zip(self.printings, self.new_printings, strict=True):
            if printing_code(printing) in changed:
                entry: dict[str, Any] = {
                    "set": printing.card_set.code,
                    "number": printing.collector_number,
                }
                if printing.variant:
                    entry["variant"] = printing.variant
                entry["attributes"] = attributes
                printings.append(entry)
        if printings:
            row["printings"] = printings
        return catalog_document(self.spec, cards=[row])

    def title(self) -> str:
        return str(self.card.name)

    def target(self) -> tuple[str, str]:
        return "card", self.card.code


class NamesForm(CorrectionForm):
    """The name a card lacks in the other language (and nothing else)."""

    kind = Proposal.Kind.NAMES

    def __init__(self, card: Card, data: Mapping[str, Any] | None = None) -> None:
        missing = [name for name in ("name_en", "name_ja") if not getattr(card, name)]
        super().__init__(card, data, names=missing, attributes=False)
        for name in missing:
            self.fields[name].required = True
        # a names proposal needs no reason beyond the name itself
        self.fields["reason"].required = False

    def clean_proposal(self, data: dict[str, Any]) -> None:
        if not any(name in self.fields for name in ("name_en", "name_ja")):
            self.add_error(None, NAMES_COMPLETE)
            return
        super().clean_proposal(data)
