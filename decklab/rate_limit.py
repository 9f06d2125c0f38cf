"""Fixed-window counters in the cache, for limits outside the API (sign-ups, reset mails).

The same scheme as the API's throttles (decklab/api/throttling.py): ``add`` then ``incr``, both
atomic in Redis, so exactly the limit passes per window whatever the concurrency. When the
cache cannot be reached the event is let through and logged: the site keeps answering.
"""

from __future__ import annotations

import hashlib
import logging
import time
from dataclasses import dataclass

from django.core.cache import cache

log = logging.getLogger(__name__)

_PERIODS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}


@dataclass(frozen=True)
class Rate:
    count: int
    seconds: int


def rate_parse(text: str) -> Rate:
    """``"10/hour"`` -> Rate(10, 3600); the period may be s, m, h, d or the whole word."""
    number, _slash, period = text.strip().partition("/")
    period = period.strip().lower()
    seconds = next((s for name, s in _PERIODS.items() if name.startswith(period[:1])), None)
    if not period or seconds is None or not number.strip().isdigit():
        raise ValueError(f"A rate is written like 10/hour, not {text!r}.")
    return Rate(count=int(number), seconds=seconds)


def rate_limit_hit(*, scope: str, key: str, rate: Rate) -> float | None:
    """Count one event for ``key``: None when it is within the rate, else the seconds to wait."""
    now = time.time()
    window = int(now // rate.seconds)
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    counter = f"rate:{scope}:{digest}:{window}"
    try:
        cache.add(counter, 0, timeout=rate.seconds + 1)
        count = cache.incr(counter)
    except ValueError:  # expired between add and incr: this event opens the window again
        cache.add(counter, 1, timeout=rate.seconds + 1)
        count = 1
    except Exception:  # the cache is down: let it through rather than fail the page
        log.warning("rate limit %s skipped: the cache cannot be reached", scope, exc_info=True)
        return None
    if count <= rate.count:
        return None
    return max(1.0, (window + 1) * rate.seconds - now)
