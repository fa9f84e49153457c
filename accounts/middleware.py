"""The daily bonus, granted with a signed-in player's first request of each UTC day."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.translation import ngettext

from accounts.models import User
from accounts.services import grant_daily_bonus


class DailyBonusMiddleware:
    """Put after the authentication and message middleware.

    Costs nothing on later requests of the day: the day of the last bonus is on the
    user row the authentication middleware loaded anyway. The grant itself locks the
    user row, so two first requests at once grant the bonus once.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if isinstance(user, User) and user.is_authenticated and user.is_active:
            today = timezone.now().date()
            if user.last_daily_bonus is None or user.last_daily_bonus < today:
                entry = grant_daily_bonus(user=user, today=today)
                if entry is not None:
                    messages.info(
                        request,
                        ngettext(
                            "Daily bonus: %(count)d coin.", "Daily bonus: %(count)d coins.", entry.amount
                        )
                        % {"count": entry.amount},
                    )
        return self.get_response(request)
