"""The shapes unmatched.cards deck JSON takes in players' files, brought to one shape before
it is read (``deck_json.parse_unmatched_json``).

Files come from several versions of the site's deck builder and from fan tools that read and
write the same shape. They differ in spelling (``count`` for ``quantity``, ``Defence``,
``"3"`` for 3, ``"true"`` for true), in fields left null or out (a scheme's value, a card's
boost or quantity, a sidekick form kept empty) and in wrapping (``{"deck": {...}}``, a list of
one deck). Everything that still says one thing is accepted; what cannot be understood is left
as it is, so the reader reports it at its JSON path.
"""

from __future__ import annotations

import re
from typing import Any

_WHOLE = re.compile(r"^\s*[+]?\d+\s*$")
_TRUE = frozenset({"true", "yes", "1", "ranged", "y"})
_FALSE = frozenset({"false", "no", "0", "melee", "n", ""})
_TYPES = {"defence": "defense", "versitile": "versatile", "schemes": "scheme"}
# alternative spellings of a field -> the builder's own, in order of preference
_HERO_KEYS = {"hp": ("health", "HP"), "move": ("movement", "moves"), "isRanged": ("ranged",)}
_CARD_KEYS = {
    "title": ("name", "cardName"),
    "quantity": ("count", "qty", "copies"),
    "characterName": ("character", "fighter", "usableBy", "character_name"),
    "type": ("cardType",),
}
_WRAPPERS = ("deck", "data")


def unwrap(data: Any) -> Any:
    """The deck inside the wrappers fan tools put around it, or ``data`` as it is."""
    for _ in range(3):
        if isinstance(data, list) and len(data) == 1:
            data = data[0]
        elif isinstance(data, dict) and "cards" not in data:
            inner = next((data[k] for k in _WRAPPERS if isinstance(data.get(k), dict | list)), None)
            if inner is None:
                return data
            data = inner
        else:
            return data
    return data


def _whole(value: Any) -> Any:
    """3 for "3" and 3.0; anything else as it is (the reader says what is wrong with it)."""
    if isinstance(value, str) and _WHOLE.match(value):
        return int(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _flag(value: Any) -> Any:
    if isinstance(value, str):
        folded = value.strip().casefold()
        if folded in _TRUE:
            return True
        if folded in _FALSE:
            return False
    if isinstance(value, int) and not isinstance(value, bool) and value in (0, 1):
        return bool(value)
    return value


def _renamed(obj: dict[str, Any], aliases: dict[str, tuple[str, ...]]) -> dict[str, Any]:
    out = dict(obj)
    for key, others in aliases.items():
        if out.get(key) in (None, ""):
            found = next((out[o] for o in others if out.get(o) not in (None, "")), None)
            if found is not None:
                out[key] = found
    return out


def _figure(obj: Any, *, hero: bool) -> Any:
    if not isinstance(obj, dict):
        return obj
    out = _renamed(obj, _HERO_KEYS)
    for key in ("hp", "move", "quantity"):
        out[key] = _whole(out.get(key))
    if out.get("isRanged") is None and hero:
        out["isRanged"] = False  # builders leave it out for a melee hero
    out["isRanged"] = _flag(out.get("isRanged"))
    return out


def _card(obj: Any) -> Any:
    if not isinstance(obj, dict):
        return obj
    out = _renamed(obj, _CARD_KEYS)
    if isinstance(out.get("type"), str):
        folded = out["type"].strip().casefold()
        out["type"] = _TYPES.get(folded, folded)
    for key in ("value", "boost", "quantity"):
        out[key] = _whole(out.get(key))
    if out.get("quantity") in (None, ""):
        out["quantity"] = 1
    if out.get("boost") in (None, ""):
        out["boost"] = 0  # no boost printed
    if out.get("characterName") in (None, ""):
        out["characterName"] = "Any"  # a card naming no fighter restricts no one
    if out.get("type") == "scheme" and out.get("value") in (None, "", 0, "-"):
        out.pop("value", None)  # a scheme has no value; builders write null, 0 or nothing
    return out


def _merged(cards: list[Any]) -> list[Any]:
    """Lines repeating the same card with the same facts, as one line (fan tools list a card
    once per copy); lines that disagree stay apart for the reader to report."""
    out: list[Any] = []
    seen: dict[tuple[Any, ...], dict[str, Any]] = {}
    for card in cards:
        if not isinstance(card, dict) or not isinstance(card.get("quantity"), int):
            out.append(card)
            continue
        key = tuple(repr(card.get(k)) for k in ("title", "type", "value", "characterName", "boost"))
        if key in seen:
            seen[key]["quantity"] += card["quantity"]
            continue
        line = dict(card)
        seen[key] = line
        out.append(line)
    return out


def normalise(data: Any) -> Any:
    """The deck in the builder's own shape, as far as it can be understood."""
    data = unwrap(data)
    if not isinstance(data, dict):
        return data
    out = dict(data)
    if isinstance(out.get("sidekicks"), list) and out.get("sidekick") is None:
        out["sidekick"] = out["sidekicks"][0] if out["sidekicks"] else None
    out["hero"] = _figure(out.get("hero"), hero=True)
    out["sidekick"] = _figure(out.get("sidekick"), hero=False)
    if isinstance(out.get("cards"), list):
        out["cards"] = _merged([_card(c) for c in out["cards"]])
    for key in ("set", "name", "id"):
        if out.get(key) is None:
            out.pop(key, None)
    return out
