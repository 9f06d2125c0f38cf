"""The shapes unmatched.cards deck JSON takes in players' files (games/unmatched/deck_shapes.py):
each variant of an official deck reads as the same deck as the builder's own file; what cannot
be understood is refused at its JSON path, naming the card."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from games.unmatched.deck_json import parse_unmatched_json

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("committed_catalogs")]

DECKS_DIR = Path(settings.BASE_DIR).parent / "shared" / "data" / "unmatched" / "decks"


def official(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DECKS_DIR / f"{name}.json").read_text(encoding="utf-8"))
    return data


def each_card(change: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], Any]:
    def apply(deck: dict[str, Any]) -> dict[str, Any]:
        for card in deck["cards"]:
            change(card)
        return deck

    return apply


def _strings(card: dict[str, Any]) -> None:
    for key in ("value", "boost", "quantity"):
        if card.get(key) is not None:
            card[key] = str(card[key])


def _scheme_value_zero(card: dict[str, Any]) -> None:
    if card["type"] == "scheme":
        card["value"] = 0


def _scheme_value_missing(card: dict[str, Any]) -> None:
    if card["type"] == "scheme":
        card.pop("value", None)


def _renamed(card: dict[str, Any]) -> None:
    card["name"] = card.pop("title")
    card["count"] = card.pop("quantity")


def _texts_null(card: dict[str, Any]) -> None:
    for key in ("basicText", "immediateText", "duringText", "afterText", "imageUrl"):
        card[key] = None


def _capitalised_type(card: dict[str, Any]) -> None:
    card["type"] = card["type"].upper()


def _one_line_per_copy(deck: dict[str, Any]) -> dict[str, Any]:
    lines = []
    for card in deck["cards"]:
        lines += [{**card, "quantity": 1} for _ in range(card["quantity"])]
    deck["cards"] = lines
    return deck


def _hero_strings(deck: dict[str, Any]) -> dict[str, Any]:
    hero = deck["hero"]
    hero.update(hp=str(hero["hp"]), move=str(hero["move"]), isRanged=str(hero["isRanged"]).lower())
    del hero["quantity"]
    return deck


def _sidekick_list(deck: dict[str, Any]) -> dict[str, Any]:
    deck["sidekicks"] = [deck.pop("sidekick")]
    return deck


VARIANTS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "numbers as text": each_card(_strings),
    "a scheme's value 0": each_card(_scheme_value_zero),
    "a scheme's value left out": each_card(_scheme_value_missing),
    "name and count for title and quantity": each_card(_renamed),
    "texts null": each_card(_texts_null),
    "types in capitals": each_card(_capitalised_type),
    "one line per copy": _one_line_per_copy,
    "hero numbers as text, no figure count": _hero_strings,
    "sidekicks as a list": _sidekick_list,
    "wrapped in deck": lambda d: {"deck": d},
    "a list of one deck": lambda d: [d],
    "id, name and set null": lambda d: {**d, "id": None, "name": None, "set": None},
}


def as_read(data: Any, owner: Any) -> list[tuple[str, int, int]]:
    parsed = parse_unmatched_json(data, user=owner)
    assert parsed.ok, [str(p) for p in parsed.problems]
    assert parsed.new_rows == []
    return sorted(
        (e.card.code, e.printing.pk if e.printing else 0, e.quantity) for e in parsed.entries
    )


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("deck", ["medusa", "buffy"])
def test_a_variant_of_an_official_file_reads_as_the_same_deck(
    owner: Any, deck: str, variant: str
) -> None:
    expected = as_read(official(deck), owner)
    assert as_read(VARIANTS[variant](copy.deepcopy(official(deck))), owner) == expected


def test_a_card_without_boost_quantity_or_fighter_is_read_with_the_builders_defaults(
    owner: Any,
) -> None:
    deck = official("medusa")
    deck["cards"].append({"title": "Homebrew Trick", "type": "Scheme"})
    parsed = parse_unmatched_json(deck, user=owner)
    assert parsed.ok, [str(p) for p in parsed.problems]
    (new,) = [r for r in parsed.new_rows if getattr(r, "name_en", "") == "Homebrew Trick"]
    (entry,) = [e for e in parsed.entries if e.card is new]
    assert entry.quantity == 1


@pytest.mark.parametrize(
    ("change", "path", "card"),
    [
        (lambda c: c.update(value="four"), "cards[1].value", "Second Shot"),
        (lambda c: c.update(quantity=-2), "cards[1].quantity", "Second Shot"),
        (lambda c: c.update(type="trap"), "cards[1].type", "Second Shot"),
    ],
)
def test_what_cannot_be_understood_is_refused_at_its_path_naming_the_card(
    owner: Any, change: Callable[[dict[str, Any]], None], path: str, card: str
) -> None:
    deck = official("medusa")
    change(deck["cards"][1])
    parsed = parse_unmatched_json(deck, user=owner)
    assert [p.text for p in parsed.problems] == [path]
    assert parsed.problems[0].message.startswith(f"“{deck['cards'][1]['title']}”")
    assert card in deck["cards"][1]["title"]
