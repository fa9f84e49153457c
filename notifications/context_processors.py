"""The unread count for the header's bell."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from notifications.services import unread_count


def bell(request: HttpRequest) -> dict[str, Any]:
    # Lazy: a partial that shows no header does not query.
    return {"unread_notifications": SimpleLazyObject(lambda: unread_count(getattr(request, "user", None)))}
