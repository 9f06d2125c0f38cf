"""Card filters shared by the catalog pages and the API (django-filter).

Each game gets its own FilterSet class: the generic filters (name search in ja/en, type, set,
demo) plus one filter per facet the game declares (``GameSpec.facets``). Built once per game.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import django_filters
from django import forms
from django.db.models import F, QuerySet
from django.utils.translation import gettext_lazy as _

from catalog.games import Facet, GameSpec
from catalog.models import Card
from catalog.search import normalise

MAX_QUERY_LENGTH = 100
SORT_CHOICES = (
    ("name", _("Name")),
    ("type", _("Type")),
    ("number", _("Collector number")),
)


def name_search(queryset: QuerySet[Card], text: str) -> QuerySet[Card]:
    """Cards whose Japanese or English name contains every word of ``text``."""
    for word in normalise(text[:MAX_QUERY_LENGTH]).split():
        queryset = queryset.filter(search_key__contains=word)
    return queryset


def _prefix(facet: Facet) -> str:
    return "printings__attributes__" if facet.on == "printing" else "attributes__"


def _facet_filters(facet: Facet) -> dict[str, django_filters.Filter]:
    field = _prefix(facet) + facet.key
    if facet.kind == "choice":
        return {
            facet.key: django_filters.ChoiceFilter(
                field_name=field, choices=facet.choices, label=facet.label
            )
        }
    if facet.kind == "list":

        def member(queryset: QuerySet[Card], name: str, value: str) -> QuerySet[Card]:
            # Membership in a JSON list of codes, written so SQLite and PostgreSQL agree.
            return queryset.filter(**{f"{field}__icontains": f'"{value}"'}) if value else queryset

        return {
            facet.key: django_filters.ChoiceFilter(
                choices=facet.choices, label=facet.label, method=member
            )
        }
    if facet.kind == "bool":
        return {
            facet.key: django_filters.BooleanFilter(
                field_name=field, label=facet.label, widget=forms.NullBooleanSelect
            )
        }

    def bound(lookup: str) -> Any:
        def apply(queryset: QuerySet[Card], name: str, value: Any) -> QuerySet[Card]:
            if value is None:
                return queryset
            return queryset.filter(**{f"{field}__{lookup}": int(value)})

        return apply

    return {
        f"{facet.key}_min": django_filters.NumberFilter(
            label=_("%(facet)s at least") % {"facet": facet.label},
            method=bound("gte"),
            min_value=0,
            max_value=999,
        ),
        f"{facet.key}_max": django_filters.NumberFilter(
            label=_("%(facet)s at most") % {"facet": facet.label},
            method=bound("lte"),
            min_value=0,
            max_value=999,
        ),
    }


class CardFilterBase(django_filters.FilterSet):
    q = django_filters.CharFilter(label=_("Name (Japanese or English)"), method="filter_name")
    set = django_filters.CharFilter(
        field_name="printings__card_set__code", label=_("Set code"), distinct=True
    )
    demo = django_filters.BooleanFilter(
        field_name="is_demo", label=_("Demo cards"), widget=forms.NullBooleanSelect
    )
    sort = django_filters.ChoiceFilter(
        choices=SORT_CHOICES, label=_("Sort by"), method="filter_sort", empty_label=None
    )

    class Meta:
        model = Card
        fields: list[str] = []

    def filter_name(self, queryset: QuerySet[Card], name: str, value: str) -> QuerySet[Card]:
        return name_search(queryset, value) if value else queryset

    def filter_sort(self, queryset: QuerySet[Card], name: str, value: str) -> QuerySet[Card]:
        return sort_cards(queryset, value)


def sort_cards(queryset: QuerySet[Card], key: str) -> QuerySet[Card]:
    if key == "type":
        return queryset.order_by("card_type", "name_en", "name_ja", "pk")
    if key == "number":
        return queryset.order_by(F("first_number").asc(nulls_last=True), "name_en", "pk")
    return queryset.order_by("name_en", "name_ja", "pk")


@cache
def card_filterset_for(spec: GameSpec) -> type[CardFilterBase]:
    """The FilterSet class of one game's cards (generic filters + the game's facets)."""
    attrs: dict[str, Any] = {
        "type": django_filters.ChoiceFilter(
            field_name="card_type",
            choices=[(t.code, t.label) for t in spec.card_types],
            label=_("Type"),
        ),
    }
    for facet in spec.facets:
        attrs.update(_facet_filters(facet))
    name = "".join(part.title() for part in spec.slug.split("-")) + "CardFilter"
    return type(name, (CardFilterBase,), attrs)


def apply_card_filters(
    spec: GameSpec, queryset: QuerySet[Card], params: Any
) -> tuple[QuerySet[Card], CardFilterBase]:
    """Filter ``queryset`` with the game's FilterSet; invalid params are ignored, not fatal."""
    filterset = card_filterset_for(spec)(params, queryset=queryset)
    if filterset.is_valid():
        return filterset.qs, filterset
    return queryset.none() if filterset.errors else queryset, filterset


def has_filters(params: Any) -> bool:
    return any(v for k, v in params.items() if k not in {"page", "sort"})


__all__ = [
    "CardFilterBase",
    "apply_card_filters",
    "card_filterset_for",
    "has_filters",
    "name_search",
    "sort_cards",
]
