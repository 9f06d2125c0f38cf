"""The API's JSON parser: DRF's, reading through ``decklab.safe_input``.

DRF's own parser only turns ``ValueError`` into a 400; a body nested ~1,000 levels deep raised
``RecursionError`` and answered 500, and a ``\\u0000`` reached PostgreSQL. Here both are 400s
naming what was refused.
"""

from __future__ import annotations

import codecs
from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.utils import json as drf_json

from decklab import safe_input


class SafeJSONParser(JSONParser):
    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            # decoded inside the try: bytes that are not valid UTF-8 are the client's error
            text = codecs.getreader(encoding)(stream).read()
        except (UnicodeDecodeError, LookupError):
            raise ParseError(safe_input.not_utf8_message()) from None
        try:
            # DRF's strict mode: NaN and Infinity are not JSON
            return safe_input.loads(text, parse_constant=drf_json.strict_constant)
        except safe_input.UnsafeInput as exc:
            raise ParseError(str(exc)) from None
        except ValueError as exc:
            raise ParseError(f"JSON parse error - {exc}") from None


def _refuse_nul(data: Any) -> Any:
    """Form fields (names and values) with a NUL are refused: PostgreSQL would refuse them."""
    for name, values in data.lists():
        if safe_input.NUL in name or any(
            isinstance(value, str) and safe_input.NUL in value for value in values
        ):
            raise ParseError({name: [safe_input.nul_message()]})
    return data


class SafeFormParser(FormParser):
    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        return _refuse_nul(super().parse(stream, media_type, parser_context))


class SafeMultiPartParser(MultiPartParser):
    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        parsed = super().parse(stream, media_type, parser_context)
        _refuse_nul(parsed.data)
        return parsed
