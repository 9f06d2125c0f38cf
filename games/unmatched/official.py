"""Unmatched's official hero decks beyond their card lists (``games/official.py``): the sidekick
a deck is built with (Buffy's "Giles or Xander") and the notes where the source's list differs
from the box, read from ``official.json`` beside this module."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from games.official import Choice, DataNote, OfficialProduct, Option
from games.unmatched.rules import may_use

DATA = Path(__file__).with_name("official.json")
#: the deck extra naming the official product a deck was started from
OFFICIAL_KEY = "official"
SIDEKICK_KEY = "sidekick"


def _read(path: Path) -> dict[str, OfficialProduct]:
    raw = json.loads(path.read_text(encoding="utf-8"))
    products: dict[str, OfficialProduct] = {}
    for code, entry in raw["products"].items():
        products[code] = OfficialProduct(
            code=code,
            hero=entry.get("hero", ""),
            choices=tuple(
                Choice(
                    key=c["key"],
                    options=tuple(Option(o["value"], o.get("label_ja", "")) for o in c["options"]),
                )
                for c in entry.get("choices", ())
            ),
            notes=tuple(DataNote(n["en"], n["ja"], n["source"]) for n in entry.get("notes", ())),
            listed=entry.get("listed"),
        )
    return products


OFFICIAL: Mapping[str, OfficialProduct] = _read(DATA)


def sidekick_choice(product: OfficialProduct | None) -> Choice | None:
    if product is None:
        return None
    return next((c for c in product.choices if c.key == SIDEKICK_KEY), None)


def chosen_away(choice: Choice, chosen: str, fighter: str) -> bool:
    """Whether a card printed for ``fighter`` belongs only to options other than ``chosen``
    (Xander's cards in a deck built with Giles); cards for the hero or any fighter stay."""
    others = [o.value for o in choice.options if o.value != chosen]
    return bool(fighter) and may_use(fighter, others) and not may_use(fighter, [chosen])


def start_deck(code: str, entries: list[Any]) -> tuple[list[Any], dict[str, Any]]:
    """A deck started from product ``code``: its default sidekick chosen and the other
    sidekick's cards left out. ``entries`` are ``EntrySpec``s pinning their printings."""
    product = OFFICIAL.get(code)
    if product is None:
        return entries, {}
    extras: dict[str, Any] = {OFFICIAL_KEY: code}
    choice = sidekick_choice(product)
    if choice is not None:
        chosen = choice.default.value
        extras[SIDEKICK_KEY] = chosen
        entries = [
            e
            for e in entries
            if e.printing is None
            or not chosen_away(choice, chosen, str(e.printing.attributes.get("fighter", "")))
        ]
    return entries, extras
