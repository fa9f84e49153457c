"""Every refusal of the API as ``{"error": CODE, "message": TEXT}``, with its status.

Codes are the engine's (``engine.errors``: illegal plays and exchanges), the site's
(``games.models.GameError``) and the API's own (``api.messages``). The status follows the
kind of refusal: 400 the request cannot be read or breaks the rules of a play, 401 no
valid token, 403 not allowed, 404 unknown or not visible, 409 the game is not in a state
for it (stale version, not your turn, over), 429 too many requests.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse

from api.messages import error_message
from engine import errors as engine_errors

STATUS: dict[str, int] = {
    # 400: malformed, or a play or exchange the rules refuse.
    "bad_request": 400,
    "bad_tiles": 400,
    "bad_word": 400,
    "missing_version": 400,
    "bad_language": 400,
    "bad_level": 400,
    "bad_mode": 400,
    "bad_pace": 400,
    "bad_opponent": 400,
    "bad_rules": 400,
    "bad_cursor": 400,
    "self": 400,
    "empty_chat": 400,
    **dict.fromkeys(engine_errors.PLAY_ERROR_ORDER, 400),
    engine_errors.EXCHANGE_BAG_TOO_SMALL: 400,
    engine_errors.EXCHANGE_COUNT_INVALID: 400,
    # 401: who is asking is not known.
    "unauthenticated": 401,
    "bad_credentials": 401,
    # 403: known, but not allowed.
    "not_a_player": 403,
    "not_invited": 403,
    "not_allowed": 403,
    "too_many_games": 403,
    "too_many_invitations": 403,
    "too_many_tokens": 403,
    "insufficient_scope": 403,
    "not_finished": 403,
    # 404: unknown, or not visible to the caller (never said apart).
    "not_found": 404,
    "unknown_opponent": 404,
    "unknown_language": 404,
    "unknown_player": 404,
    "method_not_allowed": 405,
    "payload_too_large": 413,
    # 409: the game is not where the caller thought it was.
    "game_moved_on": 409,
    "already_moved": 409,
    "game_changed": 409,
    engine_errors.NOT_YOUR_TURN: 409,
    engine_errors.GAME_OVER: 409,
    # A challenge rule's: nothing to challenge now, or only the last play's window open.
    engine_errors.NOTHING_TO_CHALLENGE: 409,
    engine_errors.CHALLENGE_WINDOW_OPEN: 409,
    engine_errors.CHALLENGE_NOT_ALLOWED: 409,
    "not_started": 409,
    "declined": 409,
    "not_due": 409,
    "time_up": 409,
    "aborted": 409,
    "seek_gone": 409,
    "seek_out_of_range": 409,
    "clock_flag": 409,
    "already_dealt": 409,
    "extra_not_now": 409,
    "already_bought": 409,
    "already_friends": 409,
    "no_request": 409,
    "already_reported": 409,
    "on_vacation": 409,
    "not_on_vacation": 409,
    "no_vacation_left": 409,
    "bad_extra": 404,
    "bad_format": 400,
    "export_refused": 409,
    # 429: too many.
    "rate_limited": 429,
    "too_many_attempts": 429,
    "server_error": 500,
}


class ApiError(Exception):
    """A refusal raised inside an endpoint; the API turns it into the JSON answer."""

    def __init__(self, code: str, *, status: int | None = None, **extra: Any) -> None:
        super().__init__(code)
        self.code = code
        self.status = status or STATUS.get(code, 403)
        self.extra = extra


def status_for(code: str) -> int:
    return STATUS.get(code, 403)


def error_response(
    code: str, *, status: int | None = None, words: tuple[str, ...] = (), **extra: Any
) -> HttpResponse:
    """The JSON answer for a refusal, its message in the active language."""
    body: dict[str, Any] = {"error": code, "message": error_message(code, words=words)}
    if words:
        body["words"] = list(words)
    body.update(extra)
    response = JsonResponse(
        body, status=status or status_for(code), json_dumps_params={"ensure_ascii": False}
    )
    if response.status_code == 401:
        response["WWW-Authenticate"] = 'Bearer realm="wordgame"'
    return response


def answer(request: HttpRequest, exc: ApiError) -> HttpResponse:
    return error_response(exc.code, status=exc.status, **exc.extra)
