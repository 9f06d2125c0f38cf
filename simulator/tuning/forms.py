"""The "Improve this deck" form on a deck's simulation page.

Only the types are checked here; the bounds (the turn, the budget, the seed) and the cards
typed are ``tuning_create``'s, so the page and the API refuse the same things with the same
words. Labels are translated when the form is built, in the language of the request.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext, pgettext
from django.utils.translation import gettext_lazy as _

from simulator.engine.cards import SimDeck
from simulator.engine.engine import Engine
from simulator.engine.goals import Goal
from simulator.engine.rng import MAX_SEED
from simulator.models import TuningSource
from simulator.tuning.services import DEFAULT_SECONDS, MAX_SECONDS, MIN_SECONDS

#: the fields a service refusal may name that the form shows on a field of its own
_BUDGET_FIELDS = ("budget", "budget_games")


def goal_choice_label(goal: Goal) -> str:
    """The goal's label in the request's language, its turn shown as "N": the turn is a
    field of its own."""
    label = gettext(goal.label)
    if goal.at_turn and "%(turn)" in label:
        return label % {"turn": pgettext("the turn a goal is read at, in a goal's name", "N")}
    return label


def pin_choices(deck: SimDeck) -> list[tuple[str, str]]:
    """The deck's draw-zone cards, once each, by name: the cards a player may keep."""
    seen: dict[str, str] = {}
    for index, _copies in deck.zones.get(deck.draw_zone, ()):
        card = deck.cards[index]
        seen.setdefault(card.code, card.name or card.code)
    return sorted(seen.items(), key=lambda item: (item[1].casefold(), item[0]))


class TuningForm(forms.Form):
    goal = forms.ChoiceField(label=_("Goal"), widget=forms.Select(attrs={"class": "form-select"}))
    turn = forms.IntegerField(
        label=_("Turn"),
        required=False,
        widget=forms.NumberInput(attrs={"class": "form-control"}),
    )
    source = forms.ChoiceField(
        label=_("Cards to try"),
        choices=TuningSource.choices,
        initial=TuningSource.OWNED,
        widget=forms.RadioSelect(attrs={"class": "form-check-input"}),
    )
    cards = forms.CharField(
        label=_("The cards to try"),
        required=False,
        max_length=20_000,
        help_text=_("One card per line, by name or code."),
        widget=forms.Textarea(attrs={"class": "form-control", "rows": 5}),
    )
    pins = forms.MultipleChoiceField(
        label=_("Keep these cards"),
        required=False,
        help_text=_("A card kept is never cut."),
        widget=forms.CheckboxSelectMultiple(attrs={"class": "form-check-input"}),
    )
    sizes = forms.BooleanField(
        label=_("Also try one copy more or fewer"),
        required=False,
        widget=forms.CheckboxInput(attrs={"class": "form-check-input"}),
    )
    budget_seconds = forms.FloatField(
        label=_("Budget (seconds of worker time)"),
        required=False,
        initial=DEFAULT_SECONDS,
        widget=forms.NumberInput(attrs={"class": "form-control", "step": "any"}),
    )
    seed = forms.IntegerField(
        label=_("Seed"),
        required=False,
        widget=forms.NumberInput(attrs={"class": "form-control"}),
    )

    def __init__(
        self, *args: Any, engine: Engine[Any, Any], sim_deck: SimDeck, **kwargs: Any
    ) -> None:
        kwargs.setdefault("prefix", "tune")
        super().__init__(*args, **kwargs)
        self.engine = engine
        goal_field = self.fields["goal"]
        assert isinstance(goal_field, forms.ChoiceField)
        goal_field.choices = [(goal.code, goal_choice_label(goal)) for goal in engine.goals]
        goal_field.initial = engine.goals[0].code if engine.goals else None
        turns = [
            gettext("%(goal)s: turn %(turn)s")
            % {"goal": goal_choice_label(goal), "turn": goal.turn}
            for goal in engine.goals
            if goal.at_turn
        ]
        self.fields["turn"].help_text = (
            gettext("Leave empty for the goal's own turn (%(turns)s).")
            % {"turns": "; ".join(turns)}
            if turns
            else gettext("None of these goals is read at a turn.")
        )
        pins = self.fields["pins"]
        assert isinstance(pins, forms.MultipleChoiceField)
        pins.choices = pin_choices(sim_deck)
        self.fields["budget_seconds"].help_text = gettext(
            "From %(min)s to %(max)s seconds: the longer, the finer the ranking."
        ) % {"min": f"{MIN_SECONDS:g}", "max": f"{MAX_SECONDS:g}"}
        self.fields["seed"].help_text = gettext(
            "From 0 to %(max)s; leave empty for a new one. The same seed plays the same games "
            "again."
        ) % {"max": MAX_SEED}

    @property
    def goal_helps(self) -> list[tuple[str, str]]:
        """Each goal's label and what it counts, for the form's notes."""
        return [(goal_choice_label(g), gettext(g.help)) for g in self.engine.goals if g.help]

    def service_kwargs(self) -> dict[str, Any]:
        """The cleaned form as ``tuning_create``'s keywords."""
        data = self.cleaned_data
        return {
            "goal": data["goal"],
            "turn": data["turn"],
            "source": data["source"],
            "cards": data["cards"].splitlines() if data["source"] == TuningSource.LIST else [],
            "pins": list(data["pins"]),
            "sizes": data["sizes"],
            "budget_seconds": data["budget_seconds"],
            "seed": data["seed"],
        }

    def add_run_errors(self, errors: dict[str, Any]) -> None:
        """Put a service's refusal on the fields it names (the rest above the form)."""
        for field, messages in errors.items():
            if field == "params" and isinstance(messages, dict):
                for param_messages in messages.values():
                    for message in param_messages:
                        self.add_error(None, str(message))
                continue
            target = "budget_seconds" if field in _BUDGET_FIELDS else field
            for message in messages:
                self.add_error(target if target in self.fields else None, str(message))
