"""Rate limits any app may use: so many actions per person (or per address) per window,
counted in the cache every process shares, failing open.

A fixed window per (scope, who): the first hit of a window creates its counter
(``cache.add``), each hit increments it (``cache.incr``, atomic in Redis and under the
local-memory cache's lock), and the counter expires with its window, so processes serving
the same person count together and nothing needs cleaning up.

When the cache is unreachable (a Redis outage) every limit **fails open**: the action is
let through and one line is logged. After a failure the cache is not asked again in this
process for ``RETRY_SECONDS``, so an outage neither floods the log nor makes every request
wait for a connection timeout. Limits guard against abuse; an outage of the cache must not
turn into an outage of the site.
"""

from __future__ import annotations

import logging
import math
import time
from typing import Any

from django.core.cache import cache

logger = logging.getLogger(__name__)

#: Seconds the cache is left alone after it failed (this process lets everything through).
RETRY_SECONDS = 5.0

_cache_down_until = 0.0


def who(user: Any) -> str:
    """The identity a per-user limit counts: one person, whatever token or session."""
    return f"user-{user.pk}"


def count(scope: str, ident: str, now: float, *, window: int = 60) -> int | None:
    """Add one hit to ``ident``'s counter of ``scope`` for the window holding ``now`` and
    return the count so far, or None when the cache is unavailable (logged)."""
    global _cache_down_until
    if time.monotonic() < _cache_down_until:
        return None
    key = f"{scope}:{ident}:{int(now // window)}"
    try:
        # A little longer than the window, so the key outlives clock skew between processes.
        cache.add(key, 0, timeout=window + 10)
        try:
            return int(cache.incr(key))
        except ValueError:
            # The key expired between add and incr (a window boundary): start it again.
            cache.set(key, 1, timeout=window + 10)
            return 1
    except Exception:
        _cache_down_until = time.monotonic() + RETRY_SECONDS
        logger.warning(
            "rate limit %s: the cache is unavailable; limits let everything through for %s s",
            scope,
            RETRY_SECONDS,
            exc_info=True,
        )
        return None


def clock() -> float:
    """The wall clock the windows are counted on (one place, so tests can hold it still)."""
    return time.time()


def allow(scope: str, ident: str, *, limit: int, window: int = 60, now: float | None = None) -> bool:
    """Count one hit and say whether it is within ``limit`` per ``window`` seconds. A limit
    of 0 or less is off; an unavailable cache lets it through."""
    if limit <= 0:
        return True
    hits = count(scope, ident, clock() if now is None else now, window=window)
    return hits is None or hits <= limit


def retry_after(*, window: int = 60, now: float | None = None) -> int:
    """Seconds to the next window (at least 1)."""
    now = clock() if now is None else now
    return max(1, math.ceil(window - now % window))


def reset_outage() -> None:
    """Forget a remembered cache failure (tests that bring the cache back)."""
    global _cache_down_until
    _cache_down_until = 0.0
