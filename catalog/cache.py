"""The catalog's version for caches: a number every catalog import moves on commit, so a
cached piece of a catalog page (the set page's card grid for visitors) is never served for
rows an import has changed. The number lives in Django's cache: shared by every process with
Redis (a change shows at once); with the per-process in-memory cache of the embedded setup,
other processes see it when their cached pieces expire (``FRAGMENT_SECONDS``)."""

from __future__ import annotations

import logging

from django.core.cache import cache

log = logging.getLogger(__name__)

VERSION_KEY = "catalog:version"
#: how long a cached piece of a catalog page lives at most
FRAGMENT_SECONDS = 60


def catalog_version() -> int:
    version = cache.get(VERSION_KEY)
    if version is None:
        cache.add(VERSION_KEY, 1, timeout=None)
        version = cache.get(VERSION_KEY, 1)
    return int(version)


def catalog_version_bump() -> None:
    """After an import commits: every cached piece of a catalog page is stale."""
    try:
        cache.incr(VERSION_KEY)
    except ValueError:  # not set yet (or evicted): any new number is fresh
        cache.set(VERSION_KEY, 2, timeout=None)
    except Exception:
        # Redis down (decklab/cache.py): the import stands; stale pieces expire by themselves
        # within FRAGMENT_SECONDS
        log.warning("catalog version not moved on: the cache cannot be reached", exc_info=True)
