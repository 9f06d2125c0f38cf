"""Search fields: what a game declares in ``games/<pkg>/search.py`` (``FIELDS``), and the
fields every game shares (``set:``, ``type:``, ``is:``, ``in:``, ``order:``, ``dir:``,
``unique:``), which the compiler handles itself.

A field reads one or more attribute keys of the card (or of its printings, ``on="printing"``):
several keys mean "any of them" (Recharge ``colour``: the left or the right edge).
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

    @property
    def attribute_keys(self) -> tuple[str, ...]:
        return self.keys or (self.name,)

    @property
    def codes(self) -> tuple[str, ...]:
        if self.paired:
            return tuple(self.paired)
        return tuple(code for code, _label in self.choices)


def game_fields(slug: str) -> tuple[SearchField, ...]:
    """The search fields a game declares (none when it has no ``search.py``)."""
    fields: tuple[SearchField, ...] = registry.get(slug).declared("search", "FIELDS", ())
    return fields


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
