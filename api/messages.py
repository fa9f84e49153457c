"""The API's own refusals, as translatable sentences; game refusals come from
``games.messages`` (the same sentences the pages show)."""

from __future__ import annotations

from django.conf import settings
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games.messages import ERROR_MESSAGES as GAME_MESSAGES
from games.messages import error_message as game_error_message

API_MESSAGES: dict[str, Promise] = {
    "bad_request": _("The request could not be read: check its JSON body and fields."),
    "unauthenticated": _("Send a personal API token in the header Authorization: Bearer TOKEN."),
    "bad_credentials": _("Wrong username or password."),
    "too_many_attempts": _("Too many failed log-ins. Wait a while before trying again."),
    "rate_limited": _("Too many requests. Wait the number of seconds in Retry-After, then try again."),
    "not_found": _("There is nothing here, or it is not yours to see."),
    "method_not_allowed": _("This address does not take that method."),
    "payload_too_large": _("The request is too large."),
    "unknown_language": _("There is no game language with that code."),
    "unknown_player": _("There is no player with that username."),
    "insufficient_scope": _("This app was not given that permission. Sign in to it again and allow it."),
    "bad_word": _("Send a word of at most 64 characters."),
    "too_many_tokens": _("You already have %(limit)s tokens. Revoke one before creating another."),
    "strength_not_bought": _("Buy word strength for this turn first (POST /games/ID/extras/word-strength)."),
    "bad_format": _("Choose one of the formats: standings-csv, results-csv, json, tsh, gcg-zip, bundle."),
    "export_refused": _("The files would be wrong: the pre-flight check refused them (see reasons)."),
    "server_error": _("Something went wrong on our side. Please try again later."),
}


def error_message(code: str, *, words: tuple[str, ...] = ()) -> str:
    """The sentence for ``code`` in the active language (the caller's Accept-Language)."""
    if code == "too_many_tokens":
        return str(API_MESSAGES[code]) % {"limit": settings.API_MAX_TOKENS}
    if code in API_MESSAGES:
        return str(API_MESSAGES[code])
    return game_error_message(code, words=words)


def is_known(code: str) -> bool:
    return code in API_MESSAGES or code in GAME_MESSAGES
