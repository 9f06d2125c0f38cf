"""API throttles that hold under concurrency and survive the cache going down.

DRF's throttles read a list of timestamps from the cache, append, and write it back: concurrent
requests all read the same list, so 942 of 1,500 requests passed a 600/min limit at
concurrency 16. Here each caller has one counter per fixed window, created with ``add`` and
counted with ``incr``: both atomic in Redis (and under a lock in the local-memory cache), so
exactly ``num_requests`` requests pass per window whatever the concurrency.

When the cache cannot be reached, every API request used to be a 500. The throttle lets the
request through (and logs it): the API keeps answering, unthrottled, while pages keep working.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from rest_framework.request import Request
from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle, UserRateThrottle

from decklab.client_address import client_address

log = logging.getLogger(__name__)


class AtomicRateThrottle(SimpleRateThrottle):
    """A fixed-window counter per caller; subclasses say who the caller is (``get_cache_key``)."""

    window_ends: float = 0.0
    # set by SimpleRateThrottle.__init__ from the rate ("100/hour" -> 100, 3600)
    num_requests: int
    duration: int

    def allow_request(self, request: Request, view: Any) -> bool:
        if self.rate is None:
            return True
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        now = time.time()
        window = int(now // self.duration)
        self.window_ends = (window + 1) * self.duration
        counter = f"{key}:{window}"
        try:
            # a counter that outlives its window by a second, so it cannot vanish mid-window
            self.cache.add(counter, 0, timeout=self.duration + 1)
            count = self.cache.incr(counter)
        except ValueError:
            # expired between add and incr: this request opens the window again
            self.cache.add(counter, 1, timeout=self.duration + 1)
            count = 1
        except Exception:  # the cache is down: answer unthrottled rather than fail
            log.warning("API throttle skipped: the cache cannot be reached", exc_info=True)
            return True
        return bool(count <= self.num_requests)

    def get_ident(self, request: Request) -> str:
        # the same client address as the login limits, read through PROXY_COUNT trusted proxies
        # (DRF's own reads X-Forwarded-For by NUM_PROXIES, a second setting that could disagree)
        return client_address(getattr(request, "_request", request))

    def wait(self) -> float | None:
        return max(0.0, self.window_ends - time.time())


class AtomicAnonRateThrottle(AtomicRateThrottle, AnonRateThrottle):
    pass


class AtomicUserRateThrottle(AtomicRateThrottle, UserRateThrottle):
    pass
