"""Requests per person per minute, writes, look-ups and token requests apart, counted by
the shared limiter (``accounts.ratelimit``: the cache every process shares, failing open
when it is unavailable).

An authenticated request counts against its token's user, so one person's tokens share
one budget (a user with many tokens gets no more); an anonymous one against its client
address. Over the limit the API answers 429 with ``Retry-After``: the seconds left in the
window.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest
from ninja.throttling import BaseThrottle

from accounts import ratelimit

WINDOW_SECONDS = 60

#: The setting that holds the limit per minute for each kind of request.
LIMIT_SETTINGS = {
    "write": "API_WRITES_PER_MINUTE",
    "lookup": "API_LOOKUPS_PER_MINUTE",
    "token": "API_TOKEN_REQUESTS_PER_MINUTE",
}


def count(kind: str, ident: str, now: float) -> int | None:
    """Add one request to ``ident``'s counter of ``kind`` for the window holding ``now``
    and return the count so far (None: the cache is unavailable, let it through)."""
    return ratelimit.count(f"api-rate:{kind}", ident, now, window=WINDOW_SECONDS)


class RateLimit(BaseThrottle):
    """A django-ninja throttle for one kind of request (``write``, ``lookup``, ``token``):
    per user once authenticated (``request.auth``, a token), per client address otherwise."""

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def now(self) -> float:
        return ratelimit.clock()

    def limit(self) -> int:
        return int(getattr(settings, LIMIT_SETTINGS[self.kind]))

    def ident(self, request: HttpRequest) -> str:
        token: Any = getattr(request, "auth", None)
        if token is not None and getattr(token, "user_id", None) is not None:
            return f"user-{token.user_id}"
        return f"addr-{request.META.get('REMOTE_ADDR', '')}"

    def allow_request(self, request: HttpRequest) -> bool:
        limit = self.limit()
        if limit <= 0:  # 0 turns the limit off
            return True
        hits = count(self.kind, self.ident(request), self.now())
        return hits is None or hits <= limit

    def wait(self) -> float:
        """Seconds to the next window (stateless: one instance serves every request)."""
        return float(ratelimit.retry_after(window=WINDOW_SECONDS, now=self.now()))


WRITE = RateLimit("write")
LOOKUP = RateLimit("lookup")
TOKEN = RateLimit("token")
