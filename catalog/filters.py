"""Card filters shared by the catalog pages and the API (django-filter).

Each game gets its own FilterSet class: the search language (``q``, ``catalog.query``), the
generic filters (type, set, demo) plus one filter per facet the game declares
(``GameSpec.facets``). Built once per game. A ``q`` that does not parse, or names a field the
game lacks, is a form error on ``q`` pointing at the position.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any, ClassVar

import django_filters
from django import forms
from django.db.models import Exists, F, OuterRef, Q, QuerySet
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from catalog.demo import real_cards_only
from catalog.models import Card, Printing
from catalog.query.compile import CompiledQuery, SearchContext, compile_query, order_cards
from catalog.query.errors import QueryError
from catalog.query.syntax import MAX_QUERY_LENGTH as MAX_LANGUAGE_LENGTH
from catalog.search import fold
from catalog.spec import Facet, GameSpec, get_game

MAX_QUERY_LENGTH = 100
SORT_CHOICES = (
    ("name", _("Name")),
    ("type", _("Type")),
    ("number", _("Collector number")),
)


def name_search(queryset: QuerySet[Card], text: str) -> QuerySet[Card]:
    """Cards whose Japanese or English name contains every word of ``text``."""
    for word in fold(text[:MAX_QUERY_LENGTH]).split():
        queryset = queryset.filter(search_key__contains=word)
    return queryset


Condition = Callable[[Any], Q | None]


def _conditions(facet: Facet) -> dict[str, Condition]:
    """Filter name -> the condition a value puts on the attribute (``None``: no condition).

    Paths are relative to the model holding the attribute (Card or Printing), so the same
    conditions serve card facets and printing facets.
    """
    key = f"attributes__{facet.key}"
    if facet.kind == "choice":
        return {facet.key: lambda v: Q(**{key: v}) if v else None}
    if facet.kind == "list":
        # Membership in a JSON list of codes, written so SQLite and PostgreSQL agree.
        return {facet.key: lambda v: Q(**{f"{key}__icontains": f'"{v}"'}) if v else None}
    if facet.kind == "bool":

        def flag(value: bool | None) -> Q | None:
            if value is None:
                return None
            # Absent means "no"; and NOT (key = true) is NULL in SQL when the key is missing,
            # so "false" is spelled out as "missing or false".
            return Q(**{key: True}) if value else Q(**{f"{key}__isnull": True}) | Q(**{key: False})

        return {facet.key: flag}
    return {
        f"{facet.key}_min": lambda v: None if v is None else Q(**{f"{key}__gte": int(v)}),
        f"{facet.key}_max": lambda v: None if v is None else Q(**{f"{key}__lte": int(v)}),
    }


def _facet_filters(facet: Facet) -> dict[str, django_filters.Filter]:
    conditions = _conditions(facet)

    def method_for(name: str) -> Any:
        if facet.on == "printing":
            return "filter_on_printing"  # applied together with the set, on one printing

        def apply(queryset: QuerySet[Card], _name: str, value: Any) -> QuerySet[Card]:
            condition = conditions[name](value)
            return queryset if condition is None else queryset.filter(condition)

        return apply

    if facet.kind in ("choice", "list"):
        return {
            facet.key: django_filters.ChoiceFilter(
                choices=facet.choices, label=facet.label, method=method_for(facet.key)
            )
        }
    if facet.kind == "bool":
        return {
            facet.key: django_filters.BooleanFilter(
                label=facet.label, widget=forms.NullBooleanSelect, method=method_for(facet.key)
            )
        }
    return {
        f"{facet.key}_{end}": django_filters.NumberFilter(
            label=format_lazy(label, facet=facet.label),
            method=method_for(f"{facet.key}_{end}"),
            min_value=0,
            max_value=999,
        )
        for end, label in (("min", _("{facet} at least")), ("max", _("{facet} at most")))
    }


class CardFilterBase(django_filters.FilterSet):
    q = django_filters.CharFilter(
        label=_("Search (names, or fields such as type:attack)"),
        method="filter_name",
        max_length=MAX_LANGUAGE_LENGTH,
    )
    set = django_filters.CharFilter(label=_("Set code"), method="filter_on_printing")
    demo = django_filters.BooleanFilter(
        field_name="is_demo", label=_("Demo cards"), widget=forms.NullBooleanSelect
    )
    sort = django_filters.ChoiceFilter(
        choices=SORT_CHOICES, label=_("Sort by"), method="filter_sort", empty_label=None
    )
    #: the "show demo cards" toggle: a game with a real catalog lists its demo cards too, after
    #: the real ones (catalog.demo)
    show_demo = django_filters.BooleanFilter(
        label=_("Show demo cards"), method="filter_show_demo", widget=forms.NullBooleanSelect
    )

    #: filters that constrain a printing (the set, printing facets): all of them must hold
    #: for the SAME printing, so a set page's "boost 2" means boost 2 in this set.
    printing_conditions: ClassVar[dict[str, Condition]] = {
        "set": lambda v: Q(card_set__code=v) if v else None
    }

    #: the game whose fields ``q`` may name (None: the fields every game shares)
    game_slug: ClassVar[str | None] = None
    #: set by the caller before reading ``qs``: what is:owned and in:deck mean here
    context: SearchContext | None = None
    compiled: CompiledQuery | None = None
    query_error: QueryError | None = None
    #: leave out demo cards of a game with a real catalog unless asked (a set's own page
    #: shows all its cards: it was asked for by name)
    hides_demo: bool = True

    class Meta:
        model = Card
        fields: list[str] = []

    def is_valid(self) -> bool:
        valid = bool(super().is_valid())
        text = self.form.cleaned_data.get("q") if valid else None
        if valid and text and self.compiled is None:
            try:
                # the FilterSet lists cards; callers that show printings compile again
                self.compiled = compile_query(
                    text, slug=self.query_slug(), context=self.context, per_printing=False
                )
            except QueryError as exc:
                self.form.add_error("q", str(exc))
                self.query_error = exc
                return False
        return valid

    def query_slug(self) -> str | None:
        """The game whose fields ``q`` may name (read once the form is valid)."""
        return self.game_slug

    def filter_on_printing(self, queryset: QuerySet[Card], name: str, value: Any) -> QuerySet[Card]:
        return queryset  # collected by filter_queryset into one printing condition

    def filter_queryset(self, queryset: QuerySet[Card]) -> QuerySet[Card]:
        queryset = super().filter_queryset(queryset)
        data = self.form.cleaned_data
        conditions = [
            condition
            for name, make in self.printing_conditions.items()
            if (condition := make(data.get(name))) is not None
        ]
        if conditions:
            # EXISTS rather than a join: no duplicate cards, and one printing meets them all.
            printings = Printing.objects.filter(card=OuterRef("pk")).filter(*conditions)
            queryset = queryset.filter(Exists(printings))
        if self.compiled is not None and self.compiled.order is not None:
            queryset = order_cards(queryset, self.compiled, slug=self.query_slug())
        if data.get("show_demo"):
            queryset = real_first(queryset)
        elif self.hides_demo and not self.asks_demo():
            queryset = queryset.filter(real_cards_only(self.query_slug()))
        return queryset

    def asks_demo(self) -> bool:
        """The request asks about demo cards: ``demo=``, the toggle, ``is:demo``, or a set
        named (``set=``: all the set's cards, as on the set's own page)."""
        data = self.form.cleaned_data
        return (
            data.get("demo") is not None
            or bool(data.get("show_demo"))
            or bool(data.get("set"))
            or (self.compiled is not None and self.compiled.asks_demo)
        )

    def filter_show_demo(
        self, queryset: QuerySet[Card], name: str, value: bool | None
    ) -> QuerySet[Card]:
        return queryset  # read by filter_queryset, after the order is known

    def filter_name(self, queryset: QuerySet[Card], name: str, value: str) -> QuerySet[Card]:
        if not value or self.compiled is None:
            return queryset
        return queryset.filter(self.compiled.condition)

    def filter_sort(self, queryset: QuerySet[Card], name: str, value: str) -> QuerySet[Card]:
        return sort_cards(queryset, value)


def real_first(queryset: QuerySet[Any]) -> QuerySet[Any]:
    """The same order with real cards before demo ones (the toggle shows both)."""
    prefix = "card__" if queryset.model is Printing else ""
    return queryset.order_by(f"{prefix}is_demo", *queryset.query.order_by)


def sort_cards(queryset: QuerySet[Card], key: str) -> QuerySet[Card]:
    if key == "type":
        return queryset.order_by("card_type", "name_en", "name_ja", "pk")
    if key == "number":
        return queryset.order_by(F("first_number").asc(nulls_last=True), "name_en", "pk")
    return queryset.order_by("name_en", "name_ja", "pk")


def card_filterset_for(spec: GameSpec) -> type[CardFilterBase]:
    """The FilterSet class of one game's cards (generic filters + the game's facets)."""
    # Cached by slug: a GameSpec does not hash (its ``extra`` is a dict).
    return _card_filterset(spec.slug)


@cache
def _card_filterset(slug: str) -> type[CardFilterBase]:
    spec = get_game(slug)
    attrs: dict[str, Any] = {
        "type": django_filters.ChoiceFilter(
            field_name="card_type",
            choices=[(t.code, t.label) for t in spec.card_types],
            label=_("Type"),
        ),
    }
    printing_conditions = dict(CardFilterBase.printing_conditions)
    for facet in spec.facets:
        attrs.update(_facet_filters(facet))
        if facet.on == "printing":
            printing_conditions.update(_conditions(facet))
    attrs["printing_conditions"] = printing_conditions
    attrs["game_slug"] = spec.slug
    name = "".join(part.title() for part in spec.slug.split("-")) + "CardFilter"
    return type(name, (CardFilterBase,), attrs)


def apply_card_filters(
    spec: GameSpec,
    queryset: QuerySet[Card],
    params: Any,
    context: SearchContext | None = None,
    *,
    hides_demo: bool = True,
) -> tuple[QuerySet[Card], CardFilterBase]:
    """Filter ``queryset`` with the game's FilterSet; invalid params are ignored, not fatal."""
    filterset = card_filterset_for(spec)(params, queryset=queryset)
    filterset.context = context
    filterset.hides_demo = hides_demo
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
    "real_first",
    "sort_cards",
]
