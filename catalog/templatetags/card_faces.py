"""``{% card_face card %}``: a card drawn in HTML/CSS from its attributes (we have no images).

Each game draws its faces in its package's ``templates/face.html`` (``games/<slug>/face.html``);
a game without one gets ``catalog/faces/generic.html``, so a sixth game shows its cards without
shared code changing.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django import template
from django.template.loader import select_template
from django.utils.safestring import SafeString

from catalog.attributes import AttributeSchema, display_value
from catalog.models import Card, Printing
from catalog.spec import GameSpec, get_game

register = template.Library()

FACE_SIZES = ("sm", "lg")
GENERIC_FACE = "catalog/faces/generic.html"


def _labels(schema: type[AttributeSchema], values: dict[str, Any]) -> dict[str, str]:
    """key -> how a person reads the value (choice labels rather than codes)."""
    fields = schema.base_fields
    return {
        key: display_value(fields[key], value) if key in fields else str(value)
        for key, value in values.items()
        if value not in (None, "", [])
    }


def _chips(schema: type[AttributeSchema], values: dict[str, Any]) -> dict[str, list[Chip]]:
    """key -> one (code, label) per item of each list-valued attribute (icons, colours)."""
    fields = schema.base_fields
    chips: dict[str, list[Chip]] = {}
    for key, value in values.items():
        if isinstance(value, list):
            choices = dict(getattr(fields.get(key), "choices", ()) or ())
            chips[key] = [Chip(code=str(v), label=str(choices.get(v, v))) for v in value]
    return chips


@dataclass(frozen=True)
class Chip:
    code: str
    label: str


@dataclass(frozen=True)
class Face:
    """What a face template reads: raw values (``a``, ``p``) and their display forms."""

    card: Card
    spec: GameSpec
    printing: Printing | None
    size: str
    url: str

    @property
    def a(self) -> dict[str, Any]:
        return self.card.attributes or {}

    @property
    def p(self) -> dict[str, Any]:
        return (self.printing.attributes or {}) if self.printing else {}

    @cached_property
    def show(self) -> dict[str, str]:
        shown = _labels(self.spec.printing_schema, self.p)
        shown.update(_labels(self.spec.schema_for(self.card.card_type), self.a))
        return shown

    @cached_property
    def chips(self) -> dict[str, list[Chip]]:
        chips = _chips(self.spec.printing_schema, self.p)
        chips.update(_chips(self.spec.schema_for(self.card.card_type), self.a))
        return chips

    @cached_property
    def face_rows(self) -> list[tuple[str, str]]:
        """(label, display) of the face keys, for faces drawn generically."""
        rows: list[tuple[str, str]] = []
        for schema, values in (
            (self.spec.schema_for(self.card.card_type), self.a),
            (self.spec.printing_schema, self.p),
        ):
            shown = _labels(schema, values)
            for key in schema.face_keys:
                if key in shown:
                    rows.append((str(schema.base_fields[key].label or key), shown[key]))
        return rows

    @property
    def type_label(self) -> str:
        return self.spec.card_type_label(self.card.card_type)

    @property
    def variant(self) -> str:
        return self.printing.variant if self.printing else ""

    @property
    def variant_label(self) -> str:
        return self.spec.variant_label(self.variant) if self.variant else ""

    @property
    def is_demo(self) -> bool:
        if self.card.is_demo:
            return True
        return bool(self.printing and self.printing.card_set.is_demo)


def _first_printing(card: Card) -> Printing | None:
    # Pages prefetch the printings they mean to show into ``shown_printings``.
    shown = getattr(card, "shown_printings", None)
    return shown[0] if shown else None


@register.simple_tag
def card_face(
    card: Card, printing: Printing | None = None, size: str = "sm", link: bool = True
) -> SafeString:
    """Render ``card`` (as printed in ``printing``, else its first shown printing)."""
    spec = get_game(card.game.slug)
    face = Face(
        card=card,
        spec=spec,
        printing=printing if printing is not None else _first_printing(card),
        size=size if size in FACE_SIZES else "sm",
        url=card.get_absolute_url() if link else "",
    )
    chosen = select_template([f"games/{spec.slug}/face.html", GENERIC_FACE])
    return SafeString(chosen.render({"face": face}))
