"""The API's FilterSets: the catalog's card filters made strict, plus sets, printings, products.

The pages share ``catalog.filters`` and read yes/no from a select box, where an unreadable value
means "any". An API client that sends ``demo=maybe`` has made a mistake and is told so (400),
so every boolean filter here accepts only ``true`` or ``false``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from operator import attrgetter
from typing import Any

import django_filters
from django.db.models import Q, QuerySet
from django.utils.translation import gettext_lazy as _

from catalog.attributes import StrictBooleanField
from catalog.filters import CardFilterBase, card_filterset_for
from catalog.kinds import Kinds
from catalog.models import CardSet, Printing, Product
from catalog.spec import GameSpec, all_games, get_game

#: filters every game's card list has; the rest of a game's card filters are its facets
GENERIC_CARD_FILTERS = ("q", "type", "set", "demo", "show_demo", "sort")


class StrictBooleanFilter(django_filters.BooleanFilter):
    """true/false only; ``false`` also finds rows where a yes/no attribute is left out.

    Importers drop empty optional attributes, so a card that is not "special" usually has no
    ``special`` key at all: "not true" is what a player means by false.
    """

    field_class = StrictBooleanField

    def filter(self, qs: QuerySet[Any], value: bool | None) -> QuerySet[Any]:
        if value is None:
            return qs
        is_true = Q(**{self.field_name: True})
        # SQL's NOT over a missing JSON key is NULL, not true: ask for the missing key outright.
        missing = Q(**{f"{self.field_name}__isnull": True})
        qs = qs.filter(is_true if value else ~is_true | missing)
        return qs.distinct() if self.distinct else qs


def _strict_booleans(filterset: type[django_filters.FilterSet]) -> dict[str, Any]:
    """Strict replacements for the boolean filters of ``filterset``, by name."""
    return {
        name: StrictBooleanFilter(
            field_name=found.field_name,
            label=found.label,
            method=found.method,
        )
        for name, found in filterset.base_filters.items()
        if isinstance(found, django_filters.BooleanFilter)
        and not isinstance(found, StrictBooleanFilter)
    }


def api_card_filterset_for(spec: GameSpec) -> type[CardFilterBase]:
    """One game's card FilterSet (``catalog.filters``) with strict yes/no filters."""
    # Cached by slug: a GameSpec does not hash (its ``extra`` is a dict).
    return _api_card_filterset(spec.slug)


@cache
def _api_card_filterset(slug: str) -> type[CardFilterBase]:
    base = card_filterset_for(get_game(slug))
    return type(f"Api{base.__name__}", (base,), _strict_booleans(base))


def _game_choices() -> list[tuple[str, str]]:
    return [(spec.slug, spec.name_en) for spec in all_games()]


class CrossGameCardFilter(CardFilterBase):
    """The generic card filters, across every game, plus a choice of game."""

    game = django_filters.ChoiceFilter(
        field_name="game__slug", choices=_game_choices, label=_("Game")
    )
    demo = StrictBooleanFilter(field_name="is_demo", label=_("Demo cards"))
    show_demo = StrictBooleanFilter(label=_("Show demo cards"), method="filter_show_demo")

    def query_slug(self) -> str | None:
        # with a game named, its own fields apply, as on the game's pages
        game = self.form.cleaned_data.get("game")
        return str(game) if game else None


def _all_kinds(declared: Callable[[GameSpec], Kinds]) -> Callable[[], list[tuple[str, str]]]:
    """Every kind some game declares (catalog.kinds), read when a request is filtered: a kind
    no game has is a client's mistake (400); another game's kind simply finds nothing."""

    def choices() -> list[tuple[str, str]]:
        found: dict[str, str] = {}
        for spec in all_games():
            for code, label in declared(spec):
                found.setdefault(code, str(label))
        return list(found.items())

    return choices


class CardSetFilter(django_filters.FilterSet):
    kind = django_filters.ChoiceFilter(choices=_all_kinds(attrgetter("set_kinds")), label=_("Kind"))
    demo = StrictBooleanFilter(field_name="is_demo", label=_("Demo sets"))

    class Meta:
        model = CardSet
        fields: list[str] = []


class ProductFilter(django_filters.FilterSet):
    kind = django_filters.ChoiceFilter(
        choices=_all_kinds(attrgetter("product_kinds")), label=_("Kind")
    )
    set = django_filters.CharFilter(field_name="card_set__code", label=_("Set code"))
    demo = StrictBooleanFilter(field_name="is_demo", label=_("Demo products"))

    class Meta:
        model = Product
        fields: list[str] = []


class PrintingFilterBase(django_filters.FilterSet):
    set = django_filters.CharFilter(field_name="card_set__code", label=_("Set code"))
    card = django_filters.CharFilter(field_name="card__code", label=_("Card code"))
    demo = StrictBooleanFilter(label=_("Demo printings"), method="filter_demo")

    class Meta:
        model = Printing
        fields: list[str] = []

    def filter_demo(
        self, queryset: QuerySet[Printing], name: str, value: bool | None
    ) -> QuerySet[Printing]:
        # A printing is demo when its card or its set is (Printing.is_demo).
        demo = Q(card__is_demo=True) | Q(card_set__is_demo=True)
        return queryset.filter(demo if value else ~demo)


def printing_filterset_for(spec: GameSpec) -> type[PrintingFilterBase]:
    """One game's printing FilterSet: the variant must be one the game declares."""
    return _printing_filterset(spec.slug)


@cache
def _printing_filterset(slug: str) -> type[PrintingFilterBase]:
    spec = get_game(slug)
    name = "".join(part.title() for part in spec.slug.split("-")) + "PrintingFilter"
    variant = django_filters.ChoiceFilter(choices=spec.variants, label=_("Variant"))
    return type(name, (PrintingFilterBase,), {"variant": variant})
