"""One error shape for the whole API, written into the OpenAPI schema once.

Every error answer under /api/v1/ is a JSON object: ``detail`` (a sentence) for an error of the
request as a whole, and/or each bad field or query parameter with its reasons (a list of
strings, or an object for a list's items or a nested field). An import refused adds
``problems`` (each bad line); a stale write adds ``current_version``. This hook points every
4xx/5xx answer of every operation at that one ``Error`` component, and documents the answers any
endpoint can give (400, 404, 413, 429, 503) where a view did not.
"""

from __future__ import annotations

from typing import Any

ERROR_REF = {"$ref": "#/components/schemas/Error"}

_REASONS: dict[str, Any] = {
    "oneOf": [
        {"type": "array", "items": {"type": "string"}},
        {"type": "object", "additionalProperties": {}},
        {"type": "string"},
    ]
}

ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "The API's one error shape: `detail` for the request as a whole, and/or "
    "each bad field or query parameter with its reasons.",
    "properties": {
        "detail": {"type": "string"},
        "problems": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "line": {"type": "integer"},
                    # a contributions refusal's place: a field or a path in the payload
                    "where": {"type": "string"},
                    "text": {"type": "string"},
                    "message": {"type": "string"},
                    "code": {"type": "string"},
                },
            },
        },
        "current_version": {"type": "integer", "nullable": True},
    },
    "additionalProperties": _REASONS,
}

#: answers any operation can give, whatever its view says
COMMON = {
    "400": "Bad input: each bad field or query parameter and why (or `detail`).",
    # a wrong token is refused on every endpoint, even one anyone may call
    "401": "Not signed in, or a token that is not valid.",
    "403": "Not allowed (or a session write without its CSRF token).",
    "404": "Not found.",
    "413": "The request body is over the size limit.",
    "429": "Too many requests: wait for the Retry-After seconds.",
    "503": "A service the API needs is down: retry after the Retry-After seconds.",
}


def document_errors(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: the ``Error`` component on every error answer."""
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR_SCHEMA
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            for code, description in COMMON.items():
                responses.setdefault(code, {"description": description})
            for code, response in responses.items():
                if str(code)[0] in "45":
                    response["content"] = {"application/json": {"schema": ERROR_REF}}
    return result


def overlapping_alternatives(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: a component offering alternative shapes without a
    discriminator (``PolymorphicProxySerializer`` with no type field) is ``anyOf``, not
    ``oneOf``. The shapes may overlap (a player's own collection item carries every field of
    the public one), and ``oneOf`` then declares the very answers the API gives invalid."""
    for component in result.get("components", {}).get("schemas", {}).values():
        if "oneOf" in component and "discriminator" not in component:
            component["anyOf"] = component.pop("oneOf")
    return result
