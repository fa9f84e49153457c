"""The notices a signed-in player has not acknowledged yet, for the banner of every page."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from accounts.notices import open_notices


def notices(request: HttpRequest) -> dict[str, Any]:
    # Lazy: a page (or partial) that does not show the banner does not query.
    return {"open_notices": SimpleLazyObject(lambda: open_notices(getattr(request, "user", None)))}
