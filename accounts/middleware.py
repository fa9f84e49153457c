"""The daily bonus, granted with a signed-in player's first request of each UTC day."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeGuard

from asgiref.sync import iscoroutinefunction, sync_to_async
from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils import timezone, translation
from django.utils.decorators import sync_and_async_middleware
from django.utils.deprecation import MiddlewareMixin
from django.utils.translation import ngettext

from accounts.models import User
from accounts.services import grant_daily_bonus


def _due(user: object, path: str = "/") -> TypeGuard[User]:
    """Whether ``user`` may be owed today's bonus: a signed-in player whose row (loaded by
    the authentication middleware anyway) records no bonus today, on a page (the API's
    requests are not pages: a bot earns no daily bonus). No query."""
    if path.startswith("/api/"):
        return False
    if not isinstance(user, User) or not user.is_authenticated or not user.is_active:
        return False
    return user.last_daily_bonus is None or user.last_daily_bonus < timezone.now().date()


def _grant(request: HttpRequest, user: User) -> None:
    entry = grant_daily_bonus(user=user)
    if entry is not None:
        messages.info(
            request,
            ngettext("Daily bonus: %(count)d coin.", "Daily bonus: %(count)d coins.", entry.amount)
            % {"count": entry.amount},
        )


@sync_and_async_middleware
def daily_bonus_middleware(
    get_response: Callable[[HttpRequest], Any],
) -> Callable[[HttpRequest], Any]:
    """Put after the authentication and message middleware.

    Costs nothing on later requests of the day. The grant locks the user row, so two
    first requests at once grant the bonus once. Async-capable, so that under ASGI it
    does not push every request through a worker thread.
    """
    if iscoroutinefunction(get_response):

        async def async_middleware(request: HttpRequest) -> HttpResponse:
            user = await request.auser()
            if _due(user, request.path):
                await sync_to_async(_grant)(request, user)
                # The page renders request.user, a lazy copy of its own: it must show the
                # balance with today's bonus, not the one read before it.
                request.user = user
            response: Awaitable[HttpResponse] = get_response(request)
            return await response

        return async_middleware

    def middleware(request: HttpRequest) -> HttpResponse:
        user = request.user
        if _due(user, request.path):
            _grant(request, user)
        response: HttpResponse = get_response(request)
        return response

    return middleware


def supported(code: str) -> str:
    """``code`` when it is one of the interface languages, else ``""``."""
    return code if code in {c for c, _name in settings.LANGUAGES} else ""


def stored_language(request: HttpRequest) -> str:
    user: Any = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return ""
    return supported(getattr(user, "interface_language", ""))


class UserLanguageMiddleware(MiddlewareMixin):
    def process_request(self, request: HttpRequest) -> None:
        if language := stored_language(request):
            translation.activate(language)
            request.LANGUAGE_CODE = language

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        # Read again: the switcher may have changed the stored choice during this request.
        language = stored_language(request)
        if language and request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != language:
            response.set_cookie(
                settings.LANGUAGE_COOKIE_NAME,
                language,
                max_age=settings.LANGUAGE_COOKIE_AGE,
                path=settings.LANGUAGE_COOKIE_PATH,
                domain=settings.LANGUAGE_COOKIE_DOMAIN,
                secure=settings.LANGUAGE_COOKIE_SECURE,
                httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
                samesite=settings.LANGUAGE_COOKIE_SAMESITE,
            )
        return response
