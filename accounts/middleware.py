"""The interface language follows the player, not the browser.

Django's ``LocaleMiddleware`` picks the language from the cookie or Accept-Language before
the user is known. Once ``AuthenticationMiddleware`` has run, a signed-in player's stored
choice (``User.interface_language``, set by the language switcher) wins on every device,
and the language cookie is brought in line so that the WebSocket consumers, which read
the cookie, render live updates in that language too.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation


def supported(code: str) -> str:
    """``code`` when it is one of the interface languages, else ``""``."""
    return code if code in {c for c, _name in settings.LANGUAGES} else ""


class UserLanguageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        language = supported(getattr(user, "interface_language", "")) if user is not None else ""
        if language and user is not None and user.is_authenticated:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        response = self.get_response(request)
        # The switcher may have changed the stored choice during this request.
        language = supported(getattr(user, "interface_language", "")) if user is not None else ""
        signed_in = getattr(user, "is_authenticated", False)
        if language and signed_in and request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != language:
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
