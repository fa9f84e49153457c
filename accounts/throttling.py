"""Who is asking, and how often: the client address for log-in throttling (django-axes)
and the sign-up rate limit.

Behind nginx, Daphne runs with ``--proxy-headers`` and reports the client's address (from
``X-Forwarded-For``, which nginx sets to the peer it saw, so a client cannot choose it) as
``REMOTE_ADDR``; without a proxy it is the peer itself.
"""

from __future__ import annotations

import logging
from typing import Any

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from accounts import ratelimit

log = logging.getLogger(__name__)

WINDOW_SECONDS = 3600


def client_ip(request: HttpRequest) -> str | None:
    """The client's address, or None when the server gave none (a test, a Unix socket
    without ``--proxy-headers``)."""
    return request.META.get("REMOTE_ADDR") or None


def username_key(request: HttpRequest, credentials: dict[str, Any] | None = None) -> str | None:
    """The user name django-axes counts failures for: lower-cased, since log-in ignores
    case (ANA and ana are one account, so they share one count)."""
    source = credentials if credentials else request.POST
    name = source.get("username") if source is not None else None
    return name.lower() if isinstance(name, str) else None


def signup_allowed(request: HttpRequest) -> bool:
    """Count one sign-up attempt (a POST) from this client address; False once it made more
    than ``SIGNUP_RATE_PER_HOUR`` in the current hour.

    Counted by the shared limiter (``accounts.ratelimit``), so every worker counts
    together; if the cache is unreachable the sign-up is let through and the failure
    logged: an outage of the cache must not take sign-up down with it.
    """
    return ratelimit.allow(
        "signup-rate",
        client_ip(request) or "unknown",
        limit=settings.SIGNUP_RATE_PER_HOUR,
        window=WINDOW_SECONDS,
    )


def locked_out(
    request: HttpRequest, response: HttpResponse | None = None, credentials: object = None
) -> HttpResponse:
    """django-axes's answer to a locked-out log-in: the site's page, in the visitor's
    language, with HTTP 429."""
    minutes = max(1, round(settings.AXES_COOLOFF_TIME.total_seconds() / 60))
    return render(request, "registration/locked_out.html", {"cooloff_minutes": minutes}, status=429)


class LoginThrottleBackend(AxesStandaloneBackend):
    """django-axes's check before the password is looked at. An ``authenticate()`` call
    without a request comes from code (a management command, the shell, a test), not
    from a client whose address could be throttled, so it goes on to the password check
    unthrottled instead of failing. Every web entry point (the log-in page, the API's
    token endpoint) passes its request and is throttled."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> None:
        if request is None:
            return None
        return super().authenticate(request, username, password, **kwargs)
