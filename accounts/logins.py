"""One structured log line per log-in attempt, for operators.

django-axes writes several lines of its own for every log-in (attempts cleaned up,
reset, deleted); the settings keep it to errors (``LOGGING``, ``AXES_VERBOSE``) and this
writes one JSON line on the ``accounts.logins`` logger instead, from Django's own signals
(framework plumbing, like the access log):
``{"event": "login", "outcome": "success", "user": 42, "client": "203.0.113.5"}``, and for
a refused one ``"outcome": "failure"`` (or ``"locked_out"``), ``"user": null`` and the
attempted name's keyed hash (``name_hash``): the same name gives the same hash, so repeated
guesses show, but the name itself (often a password typed in the wrong field) is never
written.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from django.http import HttpRequest
from django.utils.crypto import salted_hmac

from accounts.names import username_key

logger = logging.getLogger("accounts.logins")


def name_hash(name: str) -> str:
    """A keyed hash (the site's secret key) of the name as log-in compares it."""
    return salted_hmac("accounts.logins.name", username_key(name)).hexdigest()[:16]


def _client(request: HttpRequest | None) -> str:
    return str(request.META.get("REMOTE_ADDR", "")) if request is not None else ""


def _write(**fields: object) -> None:
    logger.info(json.dumps({"event": "login", **fields}, separators=(",", ":")))


def logged_in(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    _write(outcome="success", user=user.pk, client=_client(request))


def login_failed(
    sender: Any, credentials: dict[str, Any], request: HttpRequest | None = None, **kwargs: Any
) -> None:
    """After django-axes's own receiver (the axes app is listed first), which marks a
    request it locked out."""
    name = credentials.get("username")
    locked = bool(getattr(request, "axes_locked_out", False))
    _write(
        outcome="locked_out" if locked else "failure",
        user=None,
        name_hash=name_hash(name) if isinstance(name, str) and name else None,
        client=_client(request),
    )
