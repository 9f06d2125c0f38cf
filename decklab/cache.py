"""Django's Redis cache, degrading to "no cache" while Redis is down.

The cache only ever holds what can be computed again (page fragments, counters), yet with
Django's backend an unreachable Redis turned every cached page into a 500 while the database
was fine. Here a read that cannot reach Redis is a miss and a write is skipped (each logged),
so pages are served uncached; ``/health/ready`` reports the cache as down (decklab/health.py).

After a failure Redis is left alone for ``RETRY_AFTER`` seconds. ``incr`` still raises: the
throttles (decklab/api/throttling.py, decklab/rate_limit.py) must know that nothing was
counted, and let the request through themselves.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

#: what an unreachable or failing Redis raises (a refused or reset socket is an OSError)
UNAVAILABLE = (RedisError, OSError)


#: after a failure, Redis is not tried again for this many seconds: a page reading twenty
#: fragments must not wait for twenty connection timeouts
RETRY_AFTER = 5.0


class FallThroughRedisCache(RedisCache):
    _down_until = 0.0

    def ping(self) -> bool:
        """True when Redis answers (readiness): the one call that never falls through."""
        return bool(self._cache.get_client(write=True).ping())

    def _guarded(self, operation: str, fallback: Any, call: Callable[[], Any]) -> Any:
        if time.monotonic() < self._down_until:
            return fallback
        try:
            return call()
        except UNAVAILABLE as error:
            if time.monotonic() >= self._down_until:
                log.warning("cache %s skipped, Redis unavailable: %s", operation, error)
            self._down_until = time.monotonic() + RETRY_AFTER
            return fallback

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        return self._guarded(
            "get", default, lambda: super(FallThroughRedisCache, self).get(key, default, version)
        )

    def get_many(self, keys: Any, version: int | None = None) -> dict[Any, Any]:
        return self._guarded(
            "get_many", {}, lambda: super(FallThroughRedisCache, self).get_many(keys, version)
        )

    def has_key(self, key: Any, version: int | None = None) -> bool:
        return self._guarded(
            "has_key", False, lambda: super(FallThroughRedisCache, self).has_key(key, version)
        )

    def add(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> bool:
        return self._guarded(
            "add",
            False,
            lambda: super(FallThroughRedisCache, self).add(key, value, timeout, version),
        )

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> None:
        self._guarded(
            "set",
            None,
            lambda: super(FallThroughRedisCache, self).set(key, value, timeout, version),
        )

    def set_many(
        self, data: dict[Any, Any], timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> list[Any]:
        # Django's contract: the keys that were not stored
        return self._guarded(
            "set_many",
            list(data),
            lambda: super(FallThroughRedisCache, self).set_many(data, timeout, version),
        )

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        return self._guarded(
            "touch", False, lambda: super(FallThroughRedisCache, self).touch(key, timeout, version)
        )

    def delete(self, key: Any, version: int | None = None) -> bool:
        return self._guarded(
            "delete", False, lambda: super(FallThroughRedisCache, self).delete(key, version)
        )

    def delete_many(self, keys: Any, version: int | None = None) -> None:
        self._guarded(
            "delete_many",
            None,
            lambda: super(FallThroughRedisCache, self).delete_many(keys, version),
        )
