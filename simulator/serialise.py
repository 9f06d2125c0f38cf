"""A ``SimDeck`` as JSON, frozen on a run when it is created.

Workers rebuild the deck from this JSON and never read the deck itself, so a run replays
exactly even after the deck, or the catalog's card data, has changed. PostgreSQL's jsonb
does not keep the order of an object's keys, so everything whose order can matter to an
engine (cards, zones, a zone's lines) is stored as arrays.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from simulator.engine.cards import SimCard, SimDeck, SimPrinting

#: 2 added each card's printings (an engine reads where a card was printed from them); a
#: format 1 deck still reads, its cards without printings, as it was played then
FORMAT_VERSION = 2
READABLE_FORMATS = frozenset({1, FORMAT_VERSION})


class DeckDataError(ValueError):
    """Stored deck data this code cannot read (a newer format, or damaged)."""


def card_to_json(card: SimCard) -> dict[str, Any]:
    return {
        "code": card.code,
        "name": card.name,
        "card_type": card.card_type,
        "attributes": dict(card.attributes),
        "variant": card.variant,
        "printings": [
            [p.set_code, p.number, p.variant, dict(p.attributes)] for p in card.printings
        ],
    }


def sim_deck_to_json(deck: SimDeck) -> dict[str, Any]:
    return {
        "format": FORMAT_VERSION,
        "game": deck.game,
        "draw_zone": deck.draw_zone,
        "cards": [card_to_json(card) for card in deck.cards],
        "zones": [
            [zone, [[index, quantity] for index, quantity in lines]]
            for zone, lines in deck.zones.items()
        ],
        "extras": dict(deck.extras),
        **({"draw_order": list(deck.draw_order)} if deck.draw_order is not None else {}),
    }


def sim_deck_from_json(data: Mapping[str, Any]) -> SimDeck:
    if data.get("format") not in READABLE_FORMATS:
        raise DeckDataError(f"unknown deck data format {data.get('format')!r}")
    try:
        cards = tuple(
            SimCard(
                index=index,
                code=str(card["code"]),
                name=str(card["name"]),
                card_type=str(card["card_type"]),
                attributes=dict(card.get("attributes") or {}),
                variant=str(card.get("variant") or ""),
                printings=tuple(
                    SimPrinting(str(set_code), str(number), str(kind), dict(facts or {}))
                    for set_code, number, kind, facts in card.get("printings") or ()
                ),
            )
            for index, card in enumerate(data["cards"])
        )
        zones = {
            str(zone): tuple((int(index), int(quantity)) for index, quantity in lines)
            for zone, lines in data["zones"]
        }
        return SimDeck(
            game=str(data["game"]),
            cards=cards,
            zones=zones,
            draw_zone=str(data["draw_zone"]),
            extras=dict(data.get("extras") or {}),
            draw_order=(
                tuple(int(i) for i in data["draw_order"]) if data.get("draw_order") else None
            ),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise DeckDataError(f"damaged deck data: {exc!r}") from exc
