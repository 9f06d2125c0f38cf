"""CSV formula injection: a cell that begins with ``=``, ``+``, ``-``, ``@``, a tab or a
carriage return is a formula to a spreadsheet. Exports prefix such a cell with a single quote,
as OWASP's CSV-injection guidance says, and the readers take that quote off again, so an
export read back is the same collection.

A cell that already begins with quotes before such a character gets one more quote, so the
reader's taking one off gives back exactly what was written. A plain number in a numeric
column (``-3``) stays readable as a number.
"""

from __future__ import annotations

import re

#: what makes a spreadsheet read a cell as a formula
TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?")


def _dangerous(text: str) -> bool:
    return text.lstrip("'").startswith(TRIGGERS)


def protect(value: object, *, numeric: bool = False) -> str:
    """The cell as written to a CSV export."""
    text = "" if value is None else str(value)
    if numeric and _PLAIN_NUMBER.fullmatch(text):
        return text
    return "'" + text if _dangerous(text) else text


def unprotect(text: str) -> str:
    """The cell as it was before ``protect``: one protective quote taken off."""
    if text.startswith("'") and _dangerous(text[1:]):
        return text[1:]
    return text
