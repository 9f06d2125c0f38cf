"""The "simulate this deck" form: the games, an optional seed, and the engine's parameters,
one field per ``Param`` of its ParamSpec (labels translated when the form is built, i.e. in
the language of the request)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from simulator.engine.engine import Engine
from simulator.engine.params import Param
from simulator.engine.rng import MAX_SEED
from simulator.models import MAX_GAMES, MIN_GAMES
from simulator.services import DEFAULT_GAMES

PARAM_PREFIX = "param_"


def _field_for(param: Param) -> forms.Field:
    label = gettext(param.label)
    help_text = gettext(param.help) if param.help else ""
    attrs = {"class": "form-control"}
    if param.kind == "bool":
        return forms.BooleanField(
            label=label,
            help_text=help_text,
            required=False,
            initial=bool(param.default),
            widget=forms.CheckboxInput(attrs={"class": "form-check-input"}),
        )
    if param.kind == "choice":
        return forms.ChoiceField(
            label=label,
            help_text=help_text,
            initial=param.default,
            choices=[(code, gettext(text)) for code, text in param.choices],
            widget=forms.Select(attrs={"class": "form-select"}),
        )
    if param.kind == "int":
        return forms.IntegerField(
            label=label,
            help_text=help_text,
            initial=param.default,
            min_value=int(param.minimum) if param.minimum is not None else None,
            max_value=int(param.maximum) if param.maximum is not None else None,
            widget=forms.NumberInput(attrs=attrs),
        )
    return forms.FloatField(
        label=label,
        help_text=help_text,
        initial=param.default,
        min_value=param.minimum,
        max_value=param.maximum,
        widget=forms.NumberInput(attrs={**attrs, "step": "any"}),
    )


class SimulateForm(forms.Form):
    games = forms.IntegerField(
        label=pgettext_lazy("number of simulated games", "Games"),
        min_value=MIN_GAMES,
        max_value=MAX_GAMES,
        initial=DEFAULT_GAMES,
        help_text=_("How many games to play, up to 1,000,000."),
        widget=forms.NumberInput(attrs={"class": "form-control"}),
    )
    seed = forms.IntegerField(
        label=_("Seed"),
        required=False,
        min_value=0,
        max_value=MAX_SEED,
        help_text=_("Leave empty for a new one. The same seed plays the same games again."),
        widget=forms.NumberInput(attrs={"class": "form-control"}),
    )

    def __init__(self, *args: Any, engine: Engine[Any, Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.engine = engine
        for param in engine.params.params:
            self.fields[PARAM_PREFIX + param.name] = _field_for(param)

    @property
    def param_fields(self) -> list[forms.BoundField]:
        return [self[PARAM_PREFIX + p.name] for p in self.engine.params.params]

    @property
    def base_fields_bound(self) -> list[forms.BoundField]:
        return [self["games"], self["seed"]]

    def params(self) -> dict[str, Any]:
        return {p.name: self.cleaned_data[PARAM_PREFIX + p.name] for p in self.engine.params.params}

    def add_run_errors(self, errors: dict[str, Any]) -> None:
        """Put a service's refusal on the fields it names."""
        for field, messages in errors.items():
            if field == "params":
                for name, param_messages in messages.items():
                    target = PARAM_PREFIX + name
                    for message in param_messages:
                        self.add_error(target if target in self.fields else None, str(message))
                continue
            for message in messages:
                self.add_error(field if field in self.fields else None, str(message))
