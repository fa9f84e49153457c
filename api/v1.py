"""The JSON API, version 1 (``/api/v1/``), built with django-ninja.

Its documentation is generated from these functions and ``api.schemas``: the OpenAPI
document at ``/api/v1/openapi.json`` and Swagger UI at ``/api/v1/docs`` (its scripts and
styles are django-ninja's bundled copies served from our own static files, nothing from
a CDN). Every refusal is ``{"error": CODE, "message": TEXT}`` (``api.errors``), the
message in the caller's language (``Accept-Language``).
"""

from __future__ import annotations

import json
import logging
from typing import Any

from django.conf import settings
from django.contrib.auth import authenticate
from django.contrib.auth.signals import user_logged_in
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from ninja import NinjaAPI, Status, Swagger
from ninja.errors import AuthenticationError, HttpError, Throttled, ValidationError
from ninja.parser import Parser
from ninja.renderers import JSONRenderer

import engine
from accounts.models import CORRESPONDENCE, LIVE
from api.account import router as account_router
from api.auth import TokenAuth
from api.errors import ApiError, answer, error_response
from api.games import REFUSALS
from api.games import router as games_router
from api.models import ApiToken
from api.notifications import router as notifications_router
from api.players import router as players_router
from api.puzzles import router as puzzles_router
from api.ratelimit import LOOKUP, TOKEN
from api.schemas import AccountOut, TokenIn, TokenOut, WordOut
from api.stream import router as stream_router
from api.tournaments import router as tournaments_router
from dictionaries.lookup import look_up
from games.models import Game, GameError

logger = logging.getLogger(__name__)

#: WordNet's parts of speech, as stable English keys (the pages show them translated).
PARTS_OF_SPEECH = {"n": "noun", "v": "verb", "a": "adjective", "r": "adverb"}

DESCRIPTION = """
Play Wordgame from your own programs: bots, apps, tools.

**Authentication.** Get a personal token with `POST /api/v1/token` (your username and
password) or on the page [/accounts/tokens/](/accounts/tokens/), then send it with every
request: `Authorization: Bearer TOKEN`. Tokens are stored hashed: keep yours safe, and
revoke it on that page if it leaks.

**Apps for other players.** An app registered with us signs players in without their
password: OAuth 2.0, the authorisation-code flow with PKCE (`/oauth/authorize/`, then
`/oauth/token/`). The player chooses on the consent page what it may do: `read` (every
GET), `play` (every other change) and `chat` (a game's chat); a request outside them is
refused with 403 `insufficient_scope`. The player sees and revokes the app beside their
tokens; a revoked app's next request is refused.

**Playing.** Every action (`play`, `exchange`, `pass`, `resign`, `accept`, `decline`)
carries the game's `version` as you last saw it and, ideally, an `action_id` of your
choosing: the same id sent twice is applied once (safe retries). A stale version is
refused with 409 `game_moved_on` (or `already_moved` if you moved from elsewhere).

**Everything else an app needs.** A game's chat (`GET`/`POST /games/ID/chat`), rematch,
invitations (`GET /invitations`; send with `POST /games`, answer with `accept`/`decline`),
friends and blocks (`/friends`, `/blocks`, `PUT` to add, `DELETE` to remove), reports,
profiles and ratings (`/players/NAME`), the archive of finished games with its filters and
a cursor (`/players/NAME/games`), the study list (`/study/LANGUAGE`).

**Events.** `GET /api/v1/stream/events` streams your games' events as newline-delimited
JSON (`invitation`, `game_started`, `your_turn`, `game_over`; with `?notifications=true`
also `notification` for each new notification of yours), so a bot never polls. `GET /api/v1/notifications` lists your
notifications (newest first, `unread=true` to filter, paged); `POST
/api/v1/notifications/read` marks them read.

**Errors.** Every refusal is `{"error": CODE, "message": TEXT}`: 400 malformed or
against the rules (the engine's codes, e.g. `word_not_in_lexicon`), 401 no valid token,
403 not allowed, 404 unknown or not yours to see, 409 stale version, not your turn or
game over, 429 too many requests (wait `Retry-After` seconds; the limits count per
user, all your tokens together). Messages follow `Accept-Language`.
"""


class StrictJSON(Parser):
    """JSON as RFC 8259 has it: NaN and Infinity are not JSON, so they are refused."""

    def parse_body(self, request: HttpRequest) -> dict[str, Any]:
        def refuse(name: str) -> Any:
            raise ValueError(f"{name} is not JSON")

        data: Any = json.loads(request.body, parse_constant=refuse)
        return data


class Utf8JSON(JSONRenderer):
    json_dumps_params = {"ensure_ascii": False}


class Docs(Swagger):
    """django-ninja's Swagger UI page, from its bundled static files, with a strict
    Content-Security-Policy of its own: nothing but this site may load or run."""

    POLICY = (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
    )

    def render_page(self, request: HttpRequest, api: NinjaAPI, **kwargs: Any) -> HttpResponse:
        response = super().render_page(request, api, **kwargs)
        response["Content-Security-Policy"] = self.POLICY
        return response


api = NinjaAPI(
    title="Wordgame API",
    version="1",
    description=DESCRIPTION,
    urls_namespace="api-v1",
    auth=TokenAuth(),
    docs=Docs(settings={"persistAuthorization": False}),
    docs_url="/docs",
    openapi_url="/openapi.json",
    parser=StrictJSON(),
    renderer=Utf8JSON(),
)
api.add_router("/games", games_router)
api.add_router("/stream", stream_router)
api.add_router("/tournaments", tournaments_router)
api.add_router("/", players_router)
api.add_router("/", account_router)
api.add_router("/notifications", notifications_router)
api.add_router("/puzzles", puzzles_router)


# ----- refusals, whoever raises them ------------------------------------------------------


@api.exception_handler(ApiError)
def _api_error(request: HttpRequest, exc: ApiError) -> HttpResponse:
    return answer(request, exc)


@api.exception_handler(GameError)
def _game_error(request: HttpRequest, exc: GameError) -> HttpResponse:
    return error_response(exc.code)


@api.exception_handler(engine.IllegalMove)
def _illegal_move(request: HttpRequest, exc: engine.IllegalMove) -> HttpResponse:
    return error_response(exc.code, words=tuple(exc.words))


def detail(error: dict[str, Any]) -> dict[str, str]:
    """One of pydantic's complaints as ``{"field", "msg"}``: ``field`` is the dotted path
    in the JSON body (or the name of the query parameter), e.g. ``tiles.0.2``."""
    loc = [str(part) for part in error.get("loc", ())]
    # django-ninja puts the source first ("body", "query", "path"), then, for a body,
    # the name of the function's parameter, which means nothing to the client.
    path = loc[2:] if loc[:1] == ["body"] else loc[1:]
    return {"in": loc[0] if loc else "", "field": ".".join(path), "msg": str(error.get("msg", ""))}


@api.exception_handler(ValidationError)
def _malformed(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    return error_response("bad_request", details=[detail(e) for e in exc.errors])


@api.exception_handler(AuthenticationError)
def _unauthenticated(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    return error_response("unauthenticated")


@api.exception_handler(Throttled)
def _throttled(request: HttpRequest, exc: Throttled) -> HttpResponse:
    # django-ninja adds Retry-After to this answer.
    return error_response("rate_limited")


@api.exception_handler(HttpError)
def _http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    # django-ninja's own: a body that is not JSON (400), and the like.
    code = {400: "bad_request", 404: "not_found", 405: "method_not_allowed"}.get(
        exc.status_code, "bad_request"
    )
    return error_response(code, status=exc.status_code)


@api.exception_handler(Http404)
def _not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
    return error_response("not_found")


@api.exception_handler(RequestDataTooBig)
def _too_big(request: HttpRequest, exc: RequestDataTooBig) -> HttpResponse:
    return error_response("payload_too_large")


@api.exception_handler(Exception)
def _server_error(request: HttpRequest, exc: Exception) -> HttpResponse:
    logger.exception("API error on %s %s", request.method, request.path, exc_info=exc)
    return error_response("server_error")


# ----- the index, tokens, the account, words ------------------------------------------------


@api.get("/", auth=None, include_in_schema=False)
def index(request: HttpRequest) -> dict[str, str]:
    return {
        "name": "Wordgame API",
        "version": "1",
        "docs": reverse("api-v1:openapi-view"),
        "openapi": reverse("api-v1:openapi-json"),
    }


@api.post(
    "/token",
    auth=None,
    throttle=TOKEN,
    response={201: TokenOut, **REFUSALS},
    tags=["account"],
    summary="Get a personal token",
)
def token(request: HttpRequest, body: TokenIn) -> Any:
    """Your username and password for a new personal token. Counted like a log-in by
    the log-in throttling: too many failures lock the account for a while (429)."""
    # authenticate() with the request, as the log-in page does: log-in throttling
    # (django-axes) sees this attempt, its address and its outcome.
    user = authenticate(request=request, username=body.username, password=body.password)
    if user is None:
        if getattr(request, "axes_locked_out", False):
            # Answered here, as JSON; with the flag left set, the lockout middleware
            # would replace this answer with its own page.
            request.axes_locked_out = False  # type: ignore[attr-defined]
            raise ApiError("too_many_attempts")
        raise ApiError("bad_credentials")
    if ApiToken.objects.filter(user=user).count() >= settings.API_MAX_TOKENS:
        raise ApiError("too_many_tokens")
    issued, raw = ApiToken.issue(user, body.name.strip() or "POST /api/v1/token")
    # A successful log-in by password, without a session: what login() signals, so the
    # last log-in is recorded and log-in throttling clears this account's failures.
    user_logged_in.send(sender=type(user), request=request, user=user)
    return Status(201, {"token": raw, "name": issued.name})


@api.get(
    "/account",
    response={200: AccountOut, **REFUSALS},
    throttle=LOOKUP,
    tags=["account"],
    summary="My account",
)
def account(request: HttpRequest) -> Any:
    user: Any = request.user
    user.refresh_from_db(fields=["coins"])
    return {
        "username": user.username,
        "coins": user.coins,
        "ratings": {
            r.language: {"rating": r.rating, "deviation": r.deviation}
            for r in user.ratings.all()
            if r.speed == CORRESPONDENCE
        },
        "live_ratings": {
            r.language: {"rating": r.rating, "deviation": r.deviation}
            for r in user.ratings.all()
            if r.speed == LIVE
        },
        "active_games": Game.objects.active_for(user).count(),
        "max_active_games": settings.MAX_ACTIVE_GAMES,
    }


@api.get(
    "/words/{language}/{word}",
    response={200: WordOut, **REFUSALS},
    throttle=LOOKUP,
    tags=["words"],
    summary="Look a word up",
)
def word(request: HttpRequest, language: str, word: str) -> Any:
    """Whether ``word`` is playable in ``language`` (the live word list, moderated
    changes included), how the game spells it, its tile value, and its meanings
    (English: WordNet 3.0; the others: English translations from FreeDict and Apertium;
    a meaning of a base form names the ``form`` looked up)."""
    if language not in engine.LANGUAGES:
        raise ApiError("unknown_language")
    if len(word) > 64 or "\x00" in word:
        raise ApiError("bad_word")
    result = look_up(word, language)
    answer_ = result.picked
    return {
        "word": word,
        "language": language,
        "normalized": answer_.normalized,
        # A word the language cannot spell cannot be played.
        "valid": False if answer_.normalized is None else answer_.valid,
        "value": answer_.value,
        "meanings": [
            {
                "base": entry.headword,
                "part_of_speech": PARTS_OF_SPEECH.get(entry.pos, entry.pos),
                "glosses": list(entry.senses),
                "form": entry.form,
            }
            for entry in result.definitions
        ],
        "definitions_available": result.show_definitions,
    }
