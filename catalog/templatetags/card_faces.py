"""``{% card_face card %}``: a card drawn in HTML/CSS from its attributes (we have no images).

Each game draws its faces in its package's ``templates/face.html`` (``games/<slug>/face.html``);
a game without one gets ``catalog/faces/generic.html``, so a sixth game shows its cards without
shared code changing.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django import template
from django.template.loader import select_template
from django.utils.safestring import SafeString
from django.utils.translation import get_language

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


def _tags(schema: type[AttributeSchema], values: dict[str, Any]) -> dict[str, list[Tag]]:
    """key -> one (code, label) per item of each list-valued attribute (icons, colours)."""
    fields = schema.base_fields
    tags: dict[str, list[Tag]] = {}
    for key, value in values.items():
        if isinstance(value, list):
            choices = dict(getattr(fields.get(key), "choices", ()) or ())
            tags[key] = [Tag(code=str(v), label=str(choices.get(v, v))) for v in value]
    return tags


@dataclass(frozen=True)
class Tag:
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
    def tags(self) -> dict[str, list[Tag]]:
        tags = _tags(self.spec.printing_schema, self.p)
        tags.update(_tags(self.spec.schema_for(self.card.card_type), self.a))
        return tags

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


# Rendered faces, by everything a face shows. A face is a pure function of its card, printing,
# size and language (no user, no request), a face takes about 2 ms to render, and the set and
# deck pages draw dozens of the same faces on every view (docs/benchmarks.md, "Load test").
# Per process and bounded: a catalog edit changes the key, and a deploy (new templates) starts
# new processes, so nothing shown is ever stale and no invalidation is needed.
FACE_CACHE_SIZE = 4096
_rendered: OrderedDict[Hashable, SafeString] = OrderedDict()
_rendered_lock = threading.Lock()


def _frozen(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def _face_key(
    spec: GameSpec, card: Card, printing: Printing | None, size: str, link: bool
) -> Hashable:
    shown_by_card = (
        id(spec),  # the registry's one object per game (a test may swap it)
        card.game.slug,
        card.pk,
        card.code,
        card.name,
        card.other_name,
        card.card_type,
        card.is_demo,
        _frozen(card.attributes),
    )
    shown_by_printing = (
        (
            printing.pk,
            printing.variant,
            printing.collector_number,
            _frozen(printing.attributes),
            printing.card_set.code,
            printing.card_set.is_demo,
        )
        if printing is not None
        else None
    )
    return (get_language(), size, link, shown_by_card, shown_by_printing)


@register.simple_tag
def card_face(
    card: Card, printing: Printing | None = None, size: str = "sm", link: bool = True
) -> SafeString:
    """Render ``card`` (as printed in ``printing``, else its first shown printing)."""
    printing = printing if printing is not None else _first_printing(card)
    size = size if size in FACE_SIZES else "sm"
    spec = get_game(card.game.slug)
    key = _face_key(spec, card, printing, size, link)
    with _rendered_lock:
        html = _rendered.get(key)
        if html is not None:
            _rendered.move_to_end(key)
            return html
    html = _render_face(spec, card, printing, size, link)
    with _rendered_lock:
        _rendered[key] = html
        if len(_rendered) > FACE_CACHE_SIZE:
            _rendered.popitem(last=False)
    return html


def _render_face(
    spec: GameSpec, card: Card, printing: Printing | None, size: str, link: bool
) -> SafeString:
    face = Face(
        card=card,
        spec=spec,
        printing=printing,
        size=size,
        url=card.get_absolute_url() if link else "",
    )
    chosen = select_template([f"games/{spec.slug}/face.html", GENERIC_FACE])
    return SafeString(chosen.render({"face": face}))
