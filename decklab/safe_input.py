"""The one place where text from outside is checked before it can reach the database.

Two things from a request crash the server rather than the request if they get through:
JSON nested so deep that the parser (or anything walking the result) exhausts Python's
recursion limit, and the NUL character, which PostgreSQL refuses in ``text`` and ``jsonb``.
Every reader of outside JSON (the API's parser, deck imports, catalog files) decodes it with
``loads`` or checks an already-decoded value with ``check``; plain text (a CSV file) goes
through ``check_text``. Each raises ``UnsafeInput`` (a ``ValueError``, so parsers that already
turn ``ValueError`` into a 400 keep doing so) with a message naming the limit.
"""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext as _

#: nesting depth of JSON arrays and objects accepted anywhere: real decks and catalogs nest 5-6
MAX_JSON_DEPTH = 64

NUL = "\x00"


class UnsafeInput(ValueError):
    """Input refused before it reaches the database; ``str()`` is a translated message."""


def too_deep_message() -> str:
    return _("The JSON is nested deeper than %(max)d levels.") % {"max": MAX_JSON_DEPTH}


def nul_message() -> str:
    return _("The text contains a NUL character (\\u0000), which cannot be stored.")


def not_utf8_message() -> str:
    return _("The request body is not valid UTF-8 text.")


def check_text(text: str) -> str:
    """``text`` itself, or ``UnsafeInput`` when it holds a NUL character."""
    if NUL in text:
        raise UnsafeInput(nul_message())
    return text


def check(data: Any) -> Any:
    """``data`` itself after checking its depth and every string in it (keys too).

    Iterative, so the check itself cannot exhaust the recursion limit.
    """
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            check_text(value)
        elif isinstance(value, dict | list | tuple):
            if depth > MAX_JSON_DEPTH:
                raise UnsafeInput(too_deep_message())
            if isinstance(value, dict):
                for key, item in value.items():
                    if isinstance(key, str):
                        check_text(key)
                    stack.append((item, depth + 1))
            else:
                stack.extend((item, depth + 1) for item in value)
    return data


def loads(text: str | bytes, **kwargs: Any) -> Any:
    """``json.loads`` that refuses deep nesting and NUL characters with ``UnsafeInput``.

    Broken JSON still raises ``json.JSONDecodeError`` as before, so callers keep their messages.
    """
    try:
        data = json.loads(text, **kwargs)
    except RecursionError:
        # the C decoder gives up around depth 1,000: far beyond our limit, so name the limit
        raise UnsafeInput(too_deep_message()) from None
    return check(data)
