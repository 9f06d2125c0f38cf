"""What the test hand and odds pages (and their API) accept: Django forms whose every error
names its field, and the odds panel's group choices, built from the game's catalog facets.

The pages read ``?turn=``; the API reads ``?turns=``; both forms take the name to use. A game's
adjustable schedule numbers (``opening``, ``per_turn``) become fields of its forms only; sent to
a game whose rules fix them, they are refused by name rather than silently ignored.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from catalog.spec import GameSpec
from simulator.engine.cards import SimDeck
from simulator.engine.params import Param
from simulator.engine.schedule import DrawSchedule
from simulator.testhands.dealing import (
    MAX_DEAL_TURNS,
    MAX_K,
    MAX_ODDS_TURNS,
    MAX_SEED,
    SCHEDULE_PARAM_NAMES,
    FacetRule,
    GameSetup,
    Group,
    GroupError,
    parse_group,
)

FIXED_BY_RULES = _("This game's rules fix this number; only the games that leave it open take it.")
DEFAULT_K = 1
DEFAULT_ODDS_TURNS = 10


def _refuse(value: Any) -> None:
    raise ValidationError(FIXED_BY_RULES, code="fixed")


def _param_field(param: Param) -> forms.Field:
    return forms.IntegerField(
        label=gettext(param.label),
        help_text=gettext(param.help) if param.help else "",
        min_value=int(param.minimum) if param.minimum is not None else None,
        max_value=int(param.maximum) if param.maximum is not None else None,
        required=False,
        initial=param.default,
    )


class _GameForm(forms.Form):
    """A form that also takes the game's adjustable schedule numbers."""

    def __init__(self, data: Any, *, setup: GameSetup, auto_id: str = "id_%s") -> None:
        super().__init__(data, auto_id=auto_id)
        self.setup = setup
        taken = {p.name for p in setup.params.params}
        for param in setup.params.params:
            self.fields[param.name] = _param_field(param)
        for name in SCHEDULE_PARAM_NAMES:
            if name not in taken:
                # only a value is refused: an empty field is as good as no field
                self.fields[name] = forms.CharField(
                    required=False, validators=[_refuse], widget=forms.HiddenInput
                )

    @property
    def param_names(self) -> list[str]:
        return [p.name for p in self.setup.params.params]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for param in self.setup.params.params:
            if data.get(param.name) is None:
                data[param.name] = param.default
        return data

    @property
    def params(self) -> dict[str, Any]:
        """The game's schedule numbers as cleaned (defaults filled in)."""
        return {name: self.cleaned_data[name] for name in self.param_names}

    @property
    def changed_params(self) -> dict[str, Any]:
        """The numbers that differ from the game's defaults: what a link must carry."""
        defaults = self.setup.params.defaults
        return {k: v for k, v in self.params.items() if v != defaults.get(k)}

    @property
    def schedule(self) -> DrawSchedule:
        return self.setup.schedule_with(self.params)

    def param_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.param_names]


class TestHandForm(_GameForm):
    seed = forms.IntegerField(
        label=_("Seed"),
        min_value=0,
        max_value=MAX_SEED,
        required=False,
        help_text=_("The same seed always deals the same cards."),
    )

    def __init__(self, data: Any, *, setup: GameSetup, turn_field: str = "turn") -> None:
        super().__init__(data, setup=setup, auto_id="hand-%s")
        self.turn_field = turn_field
        self.fields[turn_field] = forms.IntegerField(
            label=_("Turn"), min_value=0, max_value=MAX_DEAL_TURNS, required=False
        )

    @property
    def turn(self) -> int:
        value = self.cleaned_data.get(self.turn_field)
        return int(value) if value is not None else 0


# --- The odds panel --------------------------------------------------------------------------


def facet_rules(spec: GameSpec) -> dict[str, FacetRule]:
    return {
        f.key: FacetRule(key=f.key, kind=f.kind, values=tuple(code for code, _l in f.choices))
        for f in spec.facets
    }


def _counted(label: str, count: int) -> str:
    return gettext("%(label)s (%(count)d)") % {"label": label, "count": count}


def group_label(group: Group, *, spec: GameSpec, deck: SimDeck) -> str:
    """How a person reads a group, in the active language."""
    if group.kind == "card":
        card = next((c for c in deck.cards if c.code == group.key), None)
        return card.name if card else group.key
    if group.kind == "type":
        return spec.card_type_label(group.key)
    facet = next((f for f in spec.facets if f.key == group.key), None)
    label = str(facet.label) if facet else group.key
    if group.op == ">=":
        return gettext("%(attribute)s ≥ %(value)s") % {"attribute": label, "value": group.value}
    if facet and facet.kind == "bool":
        value = gettext("yes") if group.value == "true" else gettext("no")
    else:
        value = str(dict(facet.choices).get(group.value, group.value)) if facet else group.value
    return gettext("%(attribute)s: %(value)s") % {"attribute": label, "value": value}


def group_choices(spec: GameSpec, deck: SimDeck) -> list[tuple[str, list[tuple[str, str]]]]:
    """The odds panel's groups, as <optgroup>s: the deck's cards, its card types, then each
    facet's values that the draw pile holds (numbers as "at least n"), with their counts."""
    pile = [(deck.cards[i], n) for i, n in deck.zones.get(deck.draw_zone, ())]
    cards: dict[str, tuple[str, int]] = {}
    types: dict[str, int] = {}
    for card, n in pile:
        name, count = cards.get(card.code, (card.name, 0))
        cards[card.code] = (name, count + n)
        types[card.card_type] = types.get(card.card_type, 0) + n
    groups: list[tuple[str, list[tuple[str, str]]]] = []
    by_name = sorted(cards.items(), key=lambda item: item[1][0])
    groups.append(
        (gettext("Cards"), [(f"card:{code}", _counted(nm, n)) for code, (nm, n) in by_name])
    )
    groups.append(
        (
            gettext("Card types"),
            [
                (f"type:{t.code}", _counted(str(t.label), types[t.code]))
                for t in spec.card_types
                if t.code in types
            ],
        )
    )
    attributes: list[tuple[str, str]] = []
    for facet in spec.facets:
        counts: dict[Any, int] = {}
        for card, n in pile:
            value = card.attributes.get(facet.key)
            values = value if isinstance(value, list) else [value]
            for v in values:
                if v is not None and not (facet.kind == "range" and isinstance(v, bool)):
                    counts[v] = counts.get(v, 0) + n
        if facet.kind == "range":
            numbers = sorted(v for v in counts if isinstance(v, int))
            for number in numbers:
                group = Group("attr", facet.key, ">=", str(number))
                size = sum(c for v, c in counts.items() if isinstance(v, int) and v >= number)
                attributes.append(
                    (str(group), _counted(group_label(group, spec=spec, deck=deck), size))
                )
        elif facet.kind == "bool":
            if counts.get(True):
                group = Group("attr", facet.key, "=", "true")
                attributes.append(
                    (str(group), _counted(group_label(group, spec=spec, deck=deck), counts[True]))
                )
        else:
            for code, _label in facet.choices:
                if counts.get(code):
                    group = Group("attr", facet.key, "=", code)
                    label = group_label(group, spec=spec, deck=deck)
                    attributes.append((str(group), _counted(label, counts[code])))
    if attributes:
        groups.append((gettext("Attributes"), attributes))
    return [(name, options) for name, options in groups if options]


class GroupWidget(forms.Select):
    """A select whose current value stays selectable even when it is not among the options
    (a shared link may ask about a value this deck does not hold)."""

    def optgroups(self, name: str, value: Any, attrs: dict[str, Any] | None = None) -> Any:
        known = {str(v) for _g, options in self.choices for v, _l in options}
        current = [v for v in value if v and v not in known]
        if current:
            self.choices = [*self.choices, (gettext("Asked"), [(v, v) for v in current])]
        return super().optgroups(name, value, attrs)


class OddsForm(_GameForm):
    group = forms.CharField(label=_("Cards"), widget=GroupWidget)
    k = forms.IntegerField(
        label=_("At least"), min_value=1, max_value=MAX_K, required=False, initial=DEFAULT_K
    )
    turns = forms.IntegerField(
        label=_("Up to turn"),
        min_value=0,
        max_value=MAX_ODDS_TURNS,
        required=False,
        initial=DEFAULT_ODDS_TURNS,
    )

    def __init__(
        self, data: Any, *, setup: GameSetup, spec: GameSpec, deck: SimDeck, choices: bool = True
    ) -> None:
        # its own ids: the panel shares the test hand page with the hand's own fields
        super().__init__(data, setup=setup, auto_id="odds-%s")
        self.spec = spec
        self.deck = deck
        if choices:
            self.fields["group"].widget.choices = group_choices(spec, deck)
        for name, field in self.fields.items():
            if not field.widget.is_hidden:
                css = "form-select" if name == "group" else "form-control"
                field.widget.attrs["class"] = f"{css} {css}-sm"

    def clean_group(self) -> Group:
        try:
            return parse_group(
                self.cleaned_data["group"],
                deck=self.deck,
                types=self.spec.card_type_codes,
                facets=facet_rules(self.spec),
            )
        except GroupError as exc:
            raise ValidationError(gettext(exc.message) % exc.params, code="group") from None

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("k") is None:
            data["k"] = DEFAULT_K
        if data.get("turns") is None:
            data["turns"] = DEFAULT_ODDS_TURNS
        return data


def field_errors(form: forms.Form) -> dict[str, list[str]]:
    """``{field: [reasons]}``: how the API and the 400 pages report a refused input."""
    return {field: [str(m) for m in messages] for field, messages in form.errors.items()}
