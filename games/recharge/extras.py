"""Recharge's counter chips (recharge.md:30): a deck extra (``decks.extras``).

The stored value is a list of whole numbers. Anything the rules do not allow but a player may
be part-way to fixing (a 26th chip, a 6-point chip, a total of 70) is kept, and the legality
panel explains it (``deck.py``'s ``chips`` check); only what is not a list of whole numbers, or
absurdly large, is refused on every save.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext_lazy

from decks.extras import Extra, ExtraError
from games.recharge.deck import CHIP_MAX, CHIP_MIN, MAX_CHIPS, TOTAL_MAX, TOTAL_MIN

#: bounds on what is stored at all: far beyond the rules' 25 chips of 1-5 points
CHIPS_MAX_LISTED = 99
CHIP_VALUE_BOUND = 99
_CHIP = re.compile(r"^(?P<value>\d+)(?:x(?P<count>\d+))?$")

NOT_A_LIST = gettext_lazy("Chips are a list of whole numbers, like [5, 5, 4].")
NOT_A_NUMBER = gettext_lazy("Chip %(n)d is “%(value)s”, not a whole number.")
OUT_OF_BOUNDS = gettext_lazy("Chip %(n)d is %(value)s; write a value from 1 to 5.")
TOO_MANY = gettext_lazy("At most %(max)d chips can be listed.")
BAD_TEXT = gettext_lazy(
    "Cannot read the chips at “%(token)s”: write values like “5 5 4 3” or value×count "
    "like “5x10, 4x3”."
)
NO_SUCH_CHIP = gettext_lazy("There is no chip number %(n)s to remove.")


def _whole(raw: Any, n: int) -> int:
    """One chip as a whole number within the stored bound."""
    if isinstance(raw, bool) or not isinstance(raw, int | str):
        raise ExtraError(NOT_A_NUMBER % {"n": n, "value": str(raw)[:20]})
    try:
        value = int(raw.strip()) if isinstance(raw, str) else raw
    except ValueError:
        raise ExtraError(NOT_A_NUMBER % {"n": n, "value": str(raw)[:20]}) from None
    # no chip is worth nothing or less; values over 5 are kept for the legality panel to explain
    if not 1 <= value <= CHIP_VALUE_BOUND:
        raise ExtraError(OUT_OF_BOUNDS % {"n": n, "value": str(value)[:20]})
    return value


class CounterChips(Extra):
    key = "chips"
    label = gettext_lazy("Counter chips")
    text_keys = ("chips", "チップ")
    editor_template = "games/recharge/chips_editor.html"
    display_template = "games/recharge/chips_display.html"
    script = "games/recharge/chips.js"
    stylesheet = "games/recharge/chips.css"

    def clean(self, value: Any) -> list[int]:
        if not isinstance(value, list | tuple):
            raise ExtraError(NOT_A_LIST)
        if len(value) > CHIPS_MAX_LISTED:
            raise ExtraError(TOO_MANY % {"max": CHIPS_MAX_LISTED})
        # a JSON string of digits is not a chip: only numbers are stored
        for n, raw in enumerate(value, 1):
            if not isinstance(raw, int) or isinstance(raw, bool):
                raise ExtraError(NOT_A_NUMBER % {"n": n, "value": str(raw)[:20]})
        return [_whole(raw, n) for n, raw in enumerate(value, 1)]

    def parse_text(self, text: str) -> list[int]:
        chips: list[int] = []
        spaced = re.sub(r"\s*[x×*]\s*", "x", text.lower())
        for token in (t for t in re.split(r"[\s,、]+", spaced) if t):
            found = _CHIP.match(token)
            count = int(found["count"]) if found and found["count"] is not None else 1
            if found is None or count == 0 or int(found["value"]) == 0:
                raise ExtraError(BAD_TEXT % {"token": token})
            if len(chips) + count > CHIPS_MAX_LISTED:
                raise ExtraError(TOO_MANY % {"max": CHIPS_MAX_LISTED})
            chips.extend([int(found["value"])] * count)
        return self.clean(chips)

    def to_text(self, value: Any) -> str:
        """Runs of equal values as value×count, in order, so the list reads back unchanged."""
        runs: list[list[Any]] = []
        for chip in value or ():
            if runs and runs[-1][0] == chip:
                runs[-1][1] += 1
            else:
                runs.append([chip, 1])
        return ", ".join(f"{v}x{count}" if count > 1 else f"{v}" for v, count in runs)

    def from_post(self, current: Any, data: Any) -> list[int]:
        """The chip values the editor sent, after its add/remove buttons."""
        chips = [_whole(raw, n) for n, raw in enumerate(data.getlist("chip"), 1)]
        remove = data.get("remove")
        if remove is not None:
            try:
                index = int(remove)
            except ValueError:
                index = -1
            if not 0 <= index < len(chips):
                raise ExtraError(NO_SUCH_CHIP % {"n": remove[:10]})
            del chips[index]
        if data.get("op") == "add":
            value = _whole(data.get("add_value", "5"), len(chips) + 1)
            count = _whole(data.get("add_count", "1"), len(chips) + 1)
            chips.extend([value] * max(0, count))
        return self.clean(chips)

    def context(self, value: Any) -> dict[str, Any]:
        chips = [v for v in value or () if isinstance(v, int)]
        return {
            "chips": chips,
            "total": sum(chips),
            "max_chips": MAX_CHIPS,
            "chip_min": CHIP_MIN,
            "chip_max": CHIP_MAX,
            "total_min": TOTAL_MIN,
            "total_max": TOTAL_MAX,
        }


EXTRAS = (CounterChips(),)
