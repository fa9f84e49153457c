"""Times on every page in the signed-in player's own time zone (``User.time_zone``, set in
the notification settings); UTC for everyone else."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from notifications.texts import time_zone_of


class UserTimeZoneMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and getattr(user, "time_zone", ""):
            with timezone.override(time_zone_of(user)):
                return self.get_response(request)
        return self.get_response(request)
