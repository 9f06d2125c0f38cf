"""The mapping step's memory: a header a player mapped by hand is read the same way next time.

Headers are compared normalised (each cell as ``dialects.key``: width, case, spaces and
punctuation ignored), by the SHA-256 of the normalised cells, per player.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from collection.interchange.dialects import key
from collection.models import ColumnMapping


def header_hash(header: list[str]) -> str:
    normalised = "\x1f".join(key(cell) for cell in header)
    return hashlib.sha256(normalised.encode("utf-8")).hexdigest()


def column_mapping_for(*, owner: Any, header: list[str]) -> dict[str, int] | None:
    """The mapping this player gave for this header, if any."""
    if not getattr(owner, "pk", None) or not header:
        return None
    found = ColumnMapping.objects.filter(owner=owner, header_hash=header_hash(header)).first()
    if found is None or not isinstance(found.mapping, dict):
        return None
    return {str(k): int(v) for k, v in found.mapping.items() if isinstance(v, int)}


def column_mapping_remember(*, owner: Any, header: list[str], mapping: Mapping[str, int]) -> None:
    ColumnMapping.objects.update_or_create(
        owner=owner,
        header_hash=header_hash(header),
        defaults={"header": [cell[:200] for cell in header[:200]], "mapping": dict(mapping)},
    )
