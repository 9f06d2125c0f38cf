"""Small presentation helpers for the catalog pages: filter controls, zone labels, sources."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from django import forms, template
from django.core.paginator import Page
from django.forms import BoundField
from django.utils.functional import Promise
from django.utils.safestring import SafeString
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from catalog.filters import CardFilterBase
from catalog.spec import GameSpec
from games import registry

register = template.Library()

ANY = _("Any")
# Zones are free slugs in catalog files. A game's own zones are named by its deck rules (the
# zones a deck of it has); these name the common ones of a game without deck rules.
ZONE_LABELS: dict[str, Promise] = {
    "main": _("Main deck"),
    "side": _("Sideboard"),
    "extra": _("Extra"),
    "tokens": _("Tokens"),
}
# Not among the controls: the set is the page itself; name search and sort sit above the list.
NOT_CONTROLS = frozenset({"set", "q", "sort"})


@dataclass(frozen=True)
class Control:
    """One labelled control of the filter form: a field, or a min/max pair."""

    label: str
    field: BoundField | None = None
    low: BoundField | None = None
    high: BoundField | None = None

    @property
    def is_range(self) -> bool:
        return self.low is not None


def _any_for_empty(field: forms.Field) -> None:
    # django-filter's "---------" and Django's "Unknown" read badly as "no filter".
    if isinstance(field, forms.ChoiceField) and getattr(field, "empty_label", None) is not None:
        field.empty_label = ANY  # type: ignore[attr-defined]
        # the widget shares its choices with the FilterSet's own field: give it this copy's
        field.widget.choices = list(field.choices)  # type: ignore[arg-type]
    if isinstance(field.widget, forms.NullBooleanSelect):
        field.widget.choices = [("unknown", ANY), ("true", _("Yes")), ("false", _("No"))]


@register.simple_tag
def filter_controls(filterset: CardFilterBase, spec: GameSpec) -> list[Control]:
    """The filter form as controls: type, then the game's facets (ranges paired), then demo."""
    form = filterset.form
    for field in form.fields.values():
        _any_for_empty(field)
    controls = [Control(label=str(form["type"].label), field=form["type"])]
    for facet in spec.facets:
        if facet.kind == "range":
            low, high = f"{facet.key}_min", f"{facet.key}_max"
            if low in form.fields and high in form.fields:
                controls.append(Control(label=str(facet.label), low=form[low], high=form[high]))
        elif facet.key in form.fields:
            controls.append(Control(label=str(facet.label), field=form[facet.key]))
    known = {"type", "demo", *NOT_CONTROLS}
    known |= {name for facet in spec.facets for name in _facet_names(facet.key)}
    for name in form.fields:
        if name not in known:
            controls.append(Control(label=str(form[name].label), field=form[name]))
    controls.append(Control(label=str(form["demo"].label), field=form["demo"]))
    return controls


def _facet_names(key: str) -> tuple[str, str, str]:
    return key, f"{key}_min", f"{key}_max"


@register.filter
def bs(field: BoundField, extra: str = "") -> SafeString:
    """A bound field's widget with Bootstrap's classes (small controls)."""
    widget = field.field.widget
    css = "form-select form-select-sm" if isinstance(widget, forms.Select) else ""
    css = css or "form-control form-control-sm"
    attrs: dict[str, Any] = {"class": f"{css} {extra}".strip()}
    if field.errors:
        attrs["class"] += " is-invalid"
        attrs["aria-invalid"] = "true"
    return SafeString(field.as_widget(attrs=attrs))


@register.simple_tag
def zone_label(zone: str, spec: GameSpec | None = None) -> str:
    """A product zone's heading: the game's deck zone of that code, in the deck rules' words,
    else a common zone's name, else the code made readable."""
    own = _deck_zone_label(spec.slug, zone) if spec is not None else None
    if own is not None:
        return capfirst(own)
    if zone in ZONE_LABELS:
        return str(ZONE_LABELS[zone])
    return zone.replace("-", " ").replace("_", " ").capitalize()


def _deck_zone_label(slug: str, zone: str) -> str | None:
    # read through the registry on use, never imported here: decks builds on the catalog
    if not registry.is_game(slug):
        return None
    game = registry.get(slug)
    if not game.has_deck_rules:
        return None
    return next((str(z.label) for z in game.deck_rules.zones if z.code == zone), None)


@register.simple_tag
def attribute_value(spec: GameSpec, key: str, value: str) -> str:
    """An attribute's value as a card page shows it: in the game's own words where the game
    words that value (``GameSpec.value_labels``: "any" as "Any character"), else as it is."""
    worded = spec.value_labels.get(key, {})
    return str(worded[value]) if value in worded else value


@register.filter
def is_url(text: str) -> bool:
    parts = urlsplit(text or "")
    return parts.scheme in {"http", "https"} and bool(parts.netloc)


@register.filter
def url_host(text: str) -> str:
    host = urlsplit(text or "").netloc
    return host.removeprefix("www.")


@register.filter
def pips(level: Any, top: int = 3) -> list[bool]:
    """[True]*level + [False]*(top-level): filled and empty marks for a level out of ``top``."""
    try:
        filled = max(0, min(int(level), top))
    except (TypeError, ValueError):
        filled = 0
    return [True] * filled + [False] * (top - filled)


@register.simple_tag
def page_numbers(page: Page[Any]) -> list[int | str]:
    """Page numbers around the current one, with the paginator's ellipsis for the gaps."""
    return list(page.paginator.get_elided_page_range(page.number, on_each_side=2, on_ends=1))


@register.filter
def variant_name(variant: str, spec: GameSpec) -> str:
    """A printing variant's label in the game (e.g. "power-plus" -> "Power Plus")."""
    return spec.variant_label(variant) if variant else ""
