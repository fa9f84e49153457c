"""The interface language follows the player, not the browser.

Django's ``LocaleMiddleware`` picks the language from the cookie or Accept-Language before
the user is known. Once ``AuthenticationMiddleware`` has run, a signed-in player's stored
choice (``User.interface_language``, set by the language switcher) wins on every device,
and the language cookie is brought in line so that the WebSocket consumers, which read
the cookie, render live updates in that language too.

A ``MiddlewareMixin`` so that it works in both the sync and the async request path: a
sync-only middleware would push the whole ASGI request through one adapted thread.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.utils import translation
from django.utils.deprecation import MiddlewareMixin


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
