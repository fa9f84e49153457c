"""Requests per token per minute, counted in the cache every process shares.

A fixed one-minute window per (kind, token): the first request of a window creates its
counter (``cache.add``), each request increments it (``cache.incr``, atomic in Redis and
under the local-memory cache's lock), and the counter expires with its window. So two
processes serving the same token count together, and nothing needs cleaning up. Over
the limit the API answers 429 with ``Retry-After``: the seconds left in the window.
"""

from __future__ import annotations

import math
import time
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from ninja.throttling import BaseThrottle

WINDOW_SECONDS = 60

#: The setting that holds the limit per minute for each kind of request.
LIMIT_SETTINGS = {
    "write": "API_WRITES_PER_MINUTE",
    "lookup": "API_LOOKUPS_PER_MINUTE",
    "token": "API_TOKEN_REQUESTS_PER_MINUTE",
}


def count(kind: str, ident: str, now: float) -> int:
    """Add one request to ``ident``'s counter of ``kind`` for the window holding ``now``
    and return the count so far."""
    key = f"api-rate:{kind}:{ident}:{int(now // WINDOW_SECONDS)}"
    # A little longer than the window, so the key outlives clock skew between processes.
    cache.add(key, 0, timeout=WINDOW_SECONDS + 10)
    try:
        return int(cache.incr(key))
    except ValueError:
        # The key expired between add and incr (a window boundary): start it again.
        cache.set(key, 1, timeout=WINDOW_SECONDS + 10)
        return 1


class RateLimit(BaseThrottle):
    """A django-ninja throttle for one kind of request (``write``, ``lookup``, ``token``):
    per token once authenticated (``request.auth``), per client address otherwise."""

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def now(self) -> float:
        return time.time()

    def limit(self) -> int:
        return int(getattr(settings, LIMIT_SETTINGS[self.kind]))

    def ident(self, request: HttpRequest) -> str:
        token: Any = getattr(request, "auth", None)
        if token is not None and getattr(token, "pk", None) is not None:
            return f"token-{token.pk}"
        return f"addr-{request.META.get('REMOTE_ADDR', '')}"

    def allow_request(self, request: HttpRequest) -> bool:
        limit = self.limit()
        if limit <= 0:  # 0 turns the limit off
            return True
        return count(self.kind, self.ident(request), self.now()) <= limit

    def wait(self) -> float:
        """Seconds to the next window (stateless: one instance serves every request)."""
        return max(1.0, math.ceil(WINDOW_SECONDS - self.now() % WINDOW_SECONDS))


WRITE = RateLimit("write")
LOOKUP = RateLimit("lookup")
TOKEN = RateLimit("token")
