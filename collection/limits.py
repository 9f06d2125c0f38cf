"""The collection's limits (settings ``COLLECTION_*``; README's configuration table and
docs/collection-format.md): when work leaves the web request for a worker, how big a
collection and an import file may be, and how many imports a player starts an hour.

Each limit answers with a message constant the pages and the API show as they are: a 400 for
a size, a 429 for the hourly count.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.utils.translation import gettext_lazy as _

from collection import errors
from collection.models import CollectionItem
from decklab.rate_limit import Rate, rate_limit_hit

COLLECTION_FULL = _(
    "A collection holds at most %(max)s items; yours has %(have)s and this would add "
    "%(adding)s new ones. Remove some items or merge them (same printing, condition, finish, "
    "language and binder) first."
)
TOO_MANY_ROWS = _("An import is at most %(max)s rows; this one has %(rows)s. Split the file.")
TOO_MANY_IMPORTS = _(
    "You have started %(max)s imports in the last hour, the most allowed. Try again in "
    "%(minutes)s minutes."
)
BODY_TOO_LARGE = _(
    "The request body is larger than an import takes: a file is at most %(limit)s MB."
)


def job_threshold() -> int:
    """Rows (of an import) or items (of an export) above which the work runs as a job."""
    return int(getattr(settings, "COLLECTION_JOB_THRESHOLD", 2000))


def max_items() -> int:
    return int(getattr(settings, "COLLECTION_MAX_ITEMS", 200_000))


def import_max_rows() -> int:
    return int(getattr(settings, "COLLECTION_IMPORT_MAX_ROWS", 200_000))


def import_max_bytes() -> int:
    return int(getattr(settings, "COLLECTION_IMPORT_MAX_MB", 16)) * 1024 * 1024


def imports_per_hour() -> int:
    return int(getattr(settings, "COLLECTION_IMPORTS_PER_HOUR", 30))


def text_rows(content: str) -> int:
    """The lines of an import's text (the header included), counted by their line ends at C
    speed without reading it: enough to choose between the request and a job, and to refuse a
    file far too long. Blank lines at its end are not counted."""
    text = content.rstrip()
    if not text:
        return 0
    return (text.count("\n") or text.count("\r")) + 1


def import_rows_problem(content: str) -> str | None:
    """The refusal of a file with more rows than an import takes (one header line allowed)."""
    rows = text_rows(content)
    if rows - 1 > import_max_rows():
        return str(TOO_MANY_ROWS % {"max": f"{import_max_rows():,}", "rows": f"{rows - 1:,}"})
    return None


def import_started(*, user: Any) -> str | None:
    """Count one import (a preview) of the player: None while within the hourly limit, else
    the message to answer with 429. The page and the API share the count."""
    wait = rate_limit_hit(
        scope="collection-import", key=str(user.pk), rate=Rate(imports_per_hour(), 3600)
    )
    if wait is None:
        return None
    minutes = max(1, round(wait / 60))
    return str(TOO_MANY_IMPORTS % {"max": imports_per_hour(), "minutes": minutes})


def collection_room_problem(*, owner: Any, new_items: int) -> str | None:
    """The refusal of adding ``new_items`` items (not merging into one the player has)."""
    if new_items <= 0:
        return None
    have = CollectionItem.objects.filter(owner=owner).count()
    if have + new_items <= max_items():
        return None
    return str(
        COLLECTION_FULL
        % {"max": f"{max_items():,}", "have": f"{have:,}", "adding": f"{new_items:,}"}
    )


def collection_room_check(*, owner: Any, specs: Sequence[Any]) -> None:
    """Refuse (``CollectionError`` on ``items``) an add that would take the collection over
    its size; what merges into an existing item takes no room."""
    from collection.services import collection_plan

    plan = collection_plan(owner=owner, specs=specs)
    new_items = sum(1 for outcome in plan if not outcome.merged)
    problem = collection_room_problem(owner=owner, new_items=new_items)
    if problem:
        raise errors.CollectionError("items", problem)
