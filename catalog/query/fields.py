"""Search fields: a game's fields in the card search language, and the fields every game
shares (``set:``, ``type:``, ``is:``, ``in:``, ``order:``, ``dir:``, ``unique:``), which the
compiler handles itself.

A game's fields come from its attribute declarations (``attribute(field, Searchable(...))``
in its ``catalog.py``, derived by ``catalog.declared``: ``GameSpec.search_fields``), plus the
few that are not one attribute, declared in ``games/<pkg>/search.py`` (``FIELDS``): a field
that reads several attributes as one (a colour on either edge of a card), or whose value
names an attribute and a code at once (``edge:left-red``).

A field reads one or more attribute keys of the card (or of its printings, ``on="printing"``):
several keys mean "any of them".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games import registry

FieldKind = Literal["number", "choice", "list", "text", "bool"]


@dataclass(frozen=True)
class SearchField:
    """One ``name:value`` a game offers.

    ``number``: compared with ``: = != < <= > >=``; ``low``..``high`` is the declared range,
    which lets PostgreSQL answer a comparison from the attributes' GIN index (a handful of
    containment tests) instead of reading every card. ``choice``: one code of ``choices``;
    ``list``: membership in a JSON list of codes (or of free words when ``choices`` is empty);
    ``text``: the words appear in the attribute (case- and width-insensitive); ``bool``:
    ``yes``/``no``. ``paired``: a value names a key and a code at once (``left-red``).
    """

    name: str
    label: Promise | str
    kind: FieldKind
    keys: tuple[str, ...] = ()
    choices: tuple[tuple[str, Promise | str], ...] = ()
    on: Literal["card", "printing"] = "card"
    low: int | None = None
    high: int | None = None
    #: for ``list`` fields whose value picks the key too: value -> (key, code)
    paired: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    #: an example for the help page and the API description
    example: str = ""
    #: other names the field answers to (an attribute's key where the field is named
    #: otherwise, so a facet's name always works in a search: ``weapon_icon:`` as ``weapon:``)
    aliases: tuple[str, ...] = ()

    @property
    def attribute_keys(self) -> tuple[str, ...]:
        return self.keys or (self.name,)

    @property
    def codes(self) -> tuple[str, ...]:
        if self.paired:
            return tuple(self.paired)
        return tuple(code for code, _label in self.choices)


def game_fields(slug: str) -> tuple[SearchField, ...]:
    """A game's search fields: its attributes' (``GameSpec.search_fields``), then the fields
    of its ``search.py`` that are not one attribute."""
    game = registry.get(slug)
    return (*game.spec.search_fields, *game.search_fields)


def fields_by_name(slug: str) -> dict[str, SearchField]:
    """A game's search fields by every name they answer to (names, then aliases)."""
    return _names(slug, game_fields(slug))


def _names(slug: str, fields: tuple[SearchField, ...]) -> dict[str, SearchField]:
    found: dict[str, SearchField] = {}
    for field_ in fields:
        for name in (field_.name, *field_.aliases):
            if name in found:
                raise ValueError(f"The game {slug!r} has two search fields named {name!r}")
            found[name] = field_
    return found


#: the fields every game has, with the values they take (for the help page and suggestions)
COMMON_FIELDS: dict[str, Promise | str] = {
    "name": _("words in the Japanese or English name"),
    "set": _("printed in the set with this code"),
    "type": _("the card type"),
    "is": _(
        "demo (invented cards), owned, missing, free (owned copies no built deck holds; signed in)"
    ),
    "in": _("deck: already in the deck being edited (deck editor)"),
    "order": _("sort by name, type, number, or a number field"),
    "dir": _("asc or desc"),
    "unique": _("cards (one row per card, the default) or prints (one row per printing)"),
}
IS_VALUES = ("demo", "owned", "missing", "free")
IN_VALUES = ("deck",)
ORDER_BASE = ("name", "type", "number")
DIR_VALUES = ("asc", "desc")
UNIQUE_VALUES = ("cards", "prints")
