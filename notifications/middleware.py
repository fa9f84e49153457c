"""Times on every page in the signed-in player's own time zone (``User.time_zone``, set in
the notification settings); UTC for everyone else."""

from __future__ import annotations

from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.utils import timezone
from django.utils.deprecation import MiddlewareMixin

from notifications.texts import time_zone_of


class UserTimeZoneMiddleware(MiddlewareMixin):
    # MiddlewareMixin: async-capable, so the chain still runs in one thread per request.
    def process_request(self, request: HttpRequest) -> None:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and getattr(user, "time_zone", ""):
            timezone.activate(time_zone_of(user))
        else:
            timezone.deactivate()

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        timezone.deactivate()
        return response
