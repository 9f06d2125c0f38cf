"""A catalog row's fields as a reader of the review and history pages names them: the label
the proposal forms give a field ("カードの種類", "攻撃力") rather than its name in the catalog
format (``type``, ``attributes.attack``), in the page's language; the format's name stays for
the page to show beside it. A field no label is known for keeps its name."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from catalog.models import Card, Product
from catalog.spec import get_game, is_game
from contributions.diff import shown
from contributions.form_fields import (
    LABEL_CARD_TYPE,
    LABEL_COPY_LIMIT,
    LABEL_KIND,
    LABEL_NAME_EN,
    LABEL_NAME_JA,
    LABEL_NUMBER,
    LABEL_OFFICIAL_SIZE,
    LABEL_RELEASED,
    LABEL_SET,
    LABEL_SOURCE_DETAIL,
    LABEL_VARIANT,
)

register = template.Library()

#: where an attribute's field name starts (contributions.payload's snapshots)
ATTRIBUTES = "attributes."
#: the catalog format's own fields, whatever the row
FIELD_LABELS: dict[str, Promise] = {
    "code": gettext_lazy("Code"),
    "type": LABEL_CARD_TYPE,
    "name_en": LABEL_NAME_EN,
    "name_ja": LABEL_NAME_JA,
    "copy_limit": LABEL_COPY_LIMIT,
    "source": LABEL_SOURCE_DETAIL,
    "set": LABEL_SET,
    "number": LABEL_NUMBER,
    "variant": LABEL_VARIANT,
    "kind": LABEL_KIND,
    "released": LABEL_RELEASED,
    "official_size": LABEL_OFFICIAL_SIZE,
    "items": gettext_lazy("Contents"),
}


def _model_label(model: Any, name: str) -> str:
    return str(model._meta.get_field(name).verbose_name)


@register.simple_tag
def field_label(game_slug: str, kind: str, name: str) -> str:
    """``name`` (a field of a ``kind`` row: card, printing, set, product) as the page's
    language labels it."""
    if name.startswith(ATTRIBUTES):
        key = name[len(ATTRIBUTES) :]
        if not is_game(game_slug):
            return key
        spec = get_game(game_slug)
        schemas = (
            [spec.printing_schema, *spec.printing_schemas.values()]
            if kind == "printing"
            else [t.schema for t in spec.card_types]
        )
        for schema in schemas:
            found = schema.base_fields.get(key)
            if found is not None and found.label:
                return str(found.label)
        return key
    if name == "demo":
        return _model_label(Card, "is_demo")
    if name in ("card_count", "price_yen"):
        return _model_label(Product, name)
    label = FIELD_LABELS.get(name)
    return str(label) if label is not None else name


@register.simple_tag
def card_type_label(game_slug: str, code: str) -> str:
    """A card type's name in the page's language (its code when the game has no such type)."""
    return get_game(game_slug).card_type_label(code) if is_game(game_slug) else code


@register.simple_tag
def attribute_label(game_slug: str, kind: str, key: str) -> str:
    """An attribute of a ``kind`` row (card, printing) by its key, as the page's language
    labels it."""
    return field_label(game_slug, kind, ATTRIBUTES + key)


@register.filter
def catalog_value(value: Any) -> str:
    """A payload's value as the diff shows it: text as is, lists and numbers as JSON."""
    return shown(value)
