"""The base of every proposal form (``contributions.forms``): where its facts come from, the
schema's own attribute fields, and the importer's check of its bundle as the last word."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar

from django import forms
from django.core.validators import URLValidator

from catalog.attributes import (
    AttributeErrors,
    AttributeSchema,
    StrictBooleanField,
    StringListField,
    validate_attributes,
)
from catalog.importers.bundle import ImportProblem
from catalog.importers.decklab_json import FORMAT_NAME, FORMAT_VERSION, bundle_from_decklab
from catalog.importers.validate import validate_bundle
from catalog.models import Game
from catalog.spec import GameSpec
from contributions.form_fields import (
    HELP_SOURCE_DETAIL,
    LABEL_SOURCE_DETAIL,
    LABEL_SOURCE_KIND,
    LABEL_SOURCE_URL,
    MAX_SOURCE,
    NEEDS_A_NAME,
    NO,
    ORIGIN,
    PUBLISHER_PAGE,
    SOURCE_KINDS,
    SOURCE_TOO_LONG,
    URL_NEEDED,
    YES,
    none_if_empty,
)
from contributions.services import payload_problems


def _attribute_field(field: forms.Field) -> forms.Field:
    """The schema's own field, copied (a form's fields are its own, as Django copies them)."""
    copied = copy.deepcopy(field)
    if isinstance(copied, StrictBooleanField):
        # the schema's yes/no takes "true"/"false" as text: a select offers exactly those
        choices = [("", "—"), ("true", YES), ("false", NO)]
        copied.widget = forms.Select(choices=choices)
        copied.widget.is_required = copied.required
    return copied


def _initial(field: forms.Field, value: Any) -> Any:
    """A stored attribute value as its field shows it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(field, StringListField) and isinstance(value, list):
        return ", ".join(str(item) for item in value)
    return value


def catalog_document(
    spec: GameSpec, *, sets: Iterable[dict[str, Any]] = (), cards: Iterable[dict[str, Any]] = ()
) -> dict[str, Any]:
    """A DeckLab catalog JSON dict of the game with these sets and cards."""
    data: dict[str, Any] = {"format": FORMAT_NAME, "version": FORMAT_VERSION, "game": spec.slug}
    if sets := list(sets):
        data["sets"] = sets
    if cards := list(cards):
        data["cards"] = cards
    return data


class ProposalForm(forms.Form):
    """What every proposal form has: where its facts come from, and the importer's check of
    its bundle as the last word."""

    #: the proposal's kind (contributions.models.Proposal.kind)
    kind: ClassVar[str] = ""

    def __init__(self, spec: GameSpec, data: Mapping[str, Any] | None = None) -> None:
        super().__init__(data=data)
        self.spec = spec

    # --- building -------------------------------------------------------------------------
    def _add_attribute_fields(
        self,
        schema: type[AttributeSchema],
        prefix: str,
        initial: Mapping[str, Any] | None = None,
        label: Callable[[Any], Any] | None = None,
    ) -> None:
        for key, field in schema.base_fields.items():
            copied = _attribute_field(field)
            if label is not None:
                copied.label = label(copied.label or key)
            if initial is not None:
                copied.initial = _initial(copied, initial.get(key))
            self.fields[prefix + key] = copied

    def _add_source_fields(self) -> None:
        self.fields["source_kind"] = forms.ChoiceField(
            label=LABEL_SOURCE_KIND, choices=SOURCE_KINDS
        )
        self.fields["source_detail"] = forms.CharField(
            label=LABEL_SOURCE_DETAIL, max_length=MAX_SOURCE, help_text=HELP_SOURCE_DETAIL
        )
        # the proposal's bounds (contributions.models.Proposal, services._check_source)
        self.fields["source_url"] = forms.URLField(
            label=LABEL_SOURCE_URL,
            max_length=500,
            required=False,
            assume_scheme="https",
            validators=[URLValidator(schemes=["http", "https"])],
        )

    # --- checking ---------------------------------------------------------------------------
    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        self._clean_source(data)
        self.clean_proposal(data)
        if not self.errors:
            for problem in self._submission_problems():
                self.add_error(None, problem.message)
        return data

    def _submission_problems(self) -> list[ImportProblem]:
        """What ``proposal_submit`` would refuse in the bundle: the importer's own validator,
        a locked set, a player's own code (``contributions.services.payload_problems``)."""
        game = Game.objects.filter(slug=self.spec.slug).first()
        if game is None:
            # a game with no catalog rows yet: the importer alone has a say
            return validate_bundle(bundle_from_decklab(self._document(), ORIGIN))
        return payload_problems(game=game, payload=self._document())[1]

    def clean_proposal(self, data: dict[str, Any]) -> None:
        """The form's own checks (subclasses)."""

    def _clean_source(self, data: dict[str, Any]) -> None:
        if "source_kind" not in self.fields:
            return
        url = data.get("source_url") or ""
        if (
            data.get("source_kind") == PUBLISHER_PAGE
            and not url
            and "source_url" not in self.errors
        ):
            self.add_error("source_url", URL_NEEDED)
        if len(self.catalog_source()) > MAX_SOURCE:
            self.add_error("source_detail", SOURCE_TOO_LONG % {"max": MAX_SOURCE})

    def _clean_names(self, data: Mapping[str, Any]) -> None:
        fields = [name for name in ("name_en", "name_ja") if name in self.fields]
        if any(name in self.errors for name in fields) or not fields:
            return
        if not (data.get("name_en") or data.get("name_ja")):
            self.add_error(fields[0], NEEDS_A_NAME)

    def _attributes(self, schema: type[AttributeSchema], prefix: str) -> dict[str, Any] | None:
        """The schema's attributes as the form has them, through the schema's own checks
        (one field against another); None when a field is wrong."""
        names = [prefix + key for key in schema.base_fields]
        if any(name in self.errors for name in names):
            return None
        values = {
            key: self.cleaned_data[prefix + key]
            for key in schema.base_fields
            if none_if_empty(self.cleaned_data.get(prefix + key)) is not None
        }
        try:
            return validate_attributes(schema, values)
        except AttributeErrors as exc:
            for key, messages in exc.errors.items():
                name = prefix + key
                self.add_error(name if name in self.fields else None, messages)
            return None

    def catalog_source(self) -> str:
        """The catalog rows' ``source``: the proposer's source and its address."""
        data = getattr(self, "cleaned_data", {})
        detail, url = data.get("source_detail") or "", data.get("source_url") or ""
        return f"{detail} — {url}" if detail and url else detail or url

    # --- results ----------------------------------------------------------------------------
    def _document(self) -> dict[str, Any]:
        raise NotImplementedError

    def bundle(self) -> dict[str, Any]:
        """The DeckLab catalog JSON dict of the proposal (a valid form's)."""
        if not self.is_valid():
            raise ValueError("bundle() of an invalid form")
        return self._document()

    def title(self) -> str:
        return ""

    def target(self) -> tuple[str, str]:
        return "", ""

    def proposal_fields(self) -> dict[str, Any]:
        """``proposal_submit``'s keyword arguments besides author and game."""
        payload = self.bundle()  # refuses an invalid form
        data = self.cleaned_data
        target_kind, target_code = self.target()
        return {
            "kind": str(self.kind),
            "payload": payload,
            "source_kind": data.get("source_kind", ""),
            "source_detail": data.get("source_detail", ""),
            "source_url": data.get("source_url", ""),
            "title": self.title(),
            "target_kind": target_kind,
            "target_code": target_code,
            "reason": data.get("reason", ""),
        }
