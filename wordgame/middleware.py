"""Site-wide plumbing around every request and WebSocket: one structured access-log line
per HTTP request and per WebSocket connect and disconnect, and the WebSocket origin check.

Log lines are JSON objects on the ``wordgame.access`` logger, so a log shipper can read
them without a pattern: ``{"event": "http", "method": "GET", "path": "/games/",
"status": 200, "ms": 12.3, "client": "203.0.113.5", "user": 42}``.
"""

from __future__ import annotations

import json
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

from asgiref.sync import iscoroutinefunction
from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.http.request import split_domain_port, validate_host
from django.utils.decorators import sync_and_async_middleware
from django.utils.functional import empty

from accounts import metrics
from wordgame.metrics import observe_request

access_logger = logging.getLogger("wordgame.access")
logger = logging.getLogger(__name__)

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


#: Events recorded where writing a log line is not safe (a garbage-collector callback may
#: run inside another log write): written before the next log line.
deferred_events: deque[dict[str, object]] = deque(maxlen=1000)


def log_event(**fields: object) -> None:
    while deferred_events:
        try:
            earlier = deferred_events.popleft()
        except IndexError:  # another thread took it
            break
        access_logger.info(json.dumps(earlier, separators=(",", ":"), default=str))
    access_logger.info(json.dumps(fields, separators=(",", ":"), default=str))


def _user_id(request: HttpRequest) -> int | None:
    """The signed-in user's id if the request already looked the user up; never a query
    of its own (nor, in async code, a synchronous one)."""
    user = getattr(request, "user", None)
    user = getattr(user, "_wrapped", user)
    if user is None or user is empty:
        return None
    return user.pk if user.is_authenticated else None


def _request_fields(request: HttpRequest, response: HttpResponseBase, started: float) -> dict[str, object]:
    return {
        "event": "http",
        "method": request.method,
        "path": request.path,
        "status": response.status_code,
        "ms": round((time.perf_counter() - started) * 1000, 1),
        "client": request.META.get("REMOTE_ADDR", ""),
        "user": _user_id(request),
    }


@sync_and_async_middleware
def access_log(get_response: Any) -> Any:
    """One line per HTTP request, after the response is made (outermost middleware, so
    the time covers all the others)."""
    if iscoroutinefunction(get_response):

        async def async_middleware(request: HttpRequest) -> HttpResponseBase:
            started = time.perf_counter()
            response = await get_response(request)
            log_event(**_request_fields(request, response, started))
            observe_request(request.method, request.path, time.perf_counter() - started)
            return response

        return async_middleware

    def middleware(request: HttpRequest) -> HttpResponseBase:
        started = time.perf_counter()
        response = get_response(request)
        log_event(**_request_fields(request, response, started))
        observe_request(request.method, request.path, time.perf_counter() - started)
        return response

    return middleware


def _client(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else ""


def socket_route(path: str) -> str:
    """The route a WebSocket's path belongs to, for the open sockets' gauge: ``games`` for
    ``/ws/games/12/`` (a few values, never an id)."""
    parts = path.split("/")
    return parts[2] if len(parts) > 3 and parts[1] == "ws" else "other"


class WebSocketAccessLog:
    """ASGI middleware for WebSockets, inside the session middleware (it names the user): a
    line when the connection is accepted (or refused by the consumer) and one when it ends,
    with who closed it, the close code and how long it lasted. It also keeps the count of
    this worker's open sockets (``accounts.metrics.open_sockets``)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = time.monotonic()
        state: dict[str, Any] = {"accepted": False, "closed": False}
        base = {"path": scope.get("path", ""), "client": _client(scope)}

        def user_id() -> int | None:
            user = scope.get("user")
            return user.pk if user is not None and getattr(user, "is_authenticated", False) else None

        def ended(by: str, code: object) -> None:
            if state["closed"]:
                return
            state["closed"] = True
            if state["accepted"]:
                metrics.open_sockets.labels(socket_route(base["path"])).dec()
                seconds = round(time.monotonic() - started, 1)
                log_event(event="ws_disconnect", by=by, code=code, seconds=seconds, user=user_id(), **base)
            else:
                log_event(event="ws_refused", reason="consumer", code=code, user=user_id(), **base)

        async def logging_send(message: Message) -> None:
            if message["type"] == "websocket.accept":
                state["accepted"] = True
                # Labelled once accepted: only routed paths get that far (a few routes,
                # no label a client could invent).
                metrics.open_sockets.labels(socket_route(base["path"])).inc()
                log_event(event="ws_connect", user=user_id(), **base)
            elif message["type"] == "websocket.close":
                ended("server", message.get("code", 1000))
            await send(message)

        async def logging_receive() -> Message:
            message = await receive()
            if message["type"] == "websocket.disconnect":
                ended("client", message.get("code"))
            return message

        try:
            await self.app(scope, logging_receive, logging_send)
        except BaseException:
            ended("error", 1011)
            raise


def _secure(scope: Scope) -> bool:
    """Whether the browser reached us over TLS, as Django's ``request.is_secure()`` decides:
    the scheme Daphne reports, or the proxy's header named by SECURE_PROXY_SSL_HEADER."""
    if scope.get("scheme") in {"https", "wss"}:
        return True
    proxy_header = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy_header:
        name, value = proxy_header
        wanted = name.removeprefix("HTTP_").replace("_", "-").lower().encode("latin-1")
        for key, raw in scope.get("headers", []):
            if key.lower() == wanted:
                return bool(raw.decode("latin-1").split(",")[0].strip() == value)
    return False


def origin_allowed(scope: Scope) -> bool:
    """The WebSocket's ``Origin`` is this site as the browser reached it (scheme, host and
    port, like Django's CSRF origin check), or one of ``CSRF_TRUSTED_ORIGINS``; the
    ``Host`` must be one of ``ALLOWED_HOSTS``."""
    headers = {key.decode("latin-1").lower(): raw.decode("latin-1") for key, raw in scope.get("headers", [])}
    origin = headers.get("origin")
    if not origin or origin == "null":
        return False
    # Browsers always send Host; only an in-process test client leaves it out, and then
    # the origin's own host and port stand in for it (still checked against ALLOWED_HOSTS
    # and the connection's scheme below).
    host = headers.get("host") or urlsplit(origin.lower()).netloc
    domain, _port = split_domain_port(host)
    allowed_hosts = list(settings.ALLOWED_HOSTS)
    if settings.DEBUG and not allowed_hosts:
        allowed_hosts = [".localhost", "127.0.0.1", "[::1]"]
    if not domain or not validate_host(domain, allowed_hosts):
        return False
    own = f"{'https' if _secure(scope) else 'http'}://{host}".lower()
    trusted = {o.lower().rstrip("/") for o in settings.CSRF_TRUSTED_ORIGINS}
    parts = urlsplit(origin.lower())
    return f"{parts.scheme}://{parts.netloc}" in {own, *trusted}


class OriginValidator:
    """Refuses (closes before accepting) a WebSocket whose origin is not this site."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and not origin_allowed(scope):
            log_event(event="ws_refused", reason="origin", path=scope.get("path", ""), client=_client(scope))
            # Read the connect message first, as an ASGI server expects, then refuse.
            message = await receive()
            if message["type"] == "websocket.connect":
                await send({"type": "websocket.close", "code": 4403})
            return
        await self.app(scope, receive, send)


@sync_and_async_middleware
def static_files(get_response: Any) -> Any:
    """WhiteNoise's static files, without making the middleware chain synchronous.

    ``WhiteNoiseMiddleware`` is sync-only, and one sync-only middleware makes Django run the
    whole chain and every view in a thread per request under ASGI. Only its file index and
    ``serve()`` are used here; requests outside ``STATIC_URL`` go on untouched.
    """
    from whitenoise.middleware import WhiteNoiseMiddleware

    files = WhiteNoiseMiddleware(get_response)

    def static_response(request: HttpRequest) -> HttpResponseBase | None:
        if not request.path_info.startswith(files.static_prefix):
            return None
        found = (
            files.find_file(request.path_info) if files.autorefresh else files.files.get(request.path_info)
        )
        return files.serve(found, request) if found is not None else None

    if iscoroutinefunction(get_response):

        async def async_middleware(request: HttpRequest) -> HttpResponseBase:
            response = static_response(request)
            return response if response is not None else await get_response(request)

        return async_middleware

    def middleware(request: HttpRequest) -> HttpResponseBase:
        response = static_response(request)
        return response if response is not None else get_response(request)

    return middleware


def one_thread(get_response: Any) -> Any:
    """The innermost middleware, synchronous only: Django then runs every middleware
    above it in one worker thread per request, rather than hopping between the event
    loop and a thread for each hook of each middleware (about twenty hops a request)."""

    def middleware(request: HttpRequest) -> HttpResponseBase:
        response: HttpResponseBase = get_response(request)
        return response

    return middleware


class EndsStartedResponses:
    """ASGI middleware for HTTP: an application that fails after its response started
    (a stream whose channel-layer subscription was lost, a download cut short) has the
    response ended here, its error logged, instead of the exception reaching Daphne.

    Daphne answers an application's exception with a 500 page; once the response has
    started that raises inside its once-a-second ``application_checker``, which then never
    runs again: from that moment no WebSocket whose consumer ended had its close frame
    sent (the clients were left open and silent), and no disconnected application was
    reaped. A failure before the response starts is Daphne's to answer, as before."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        state = {"started": False, "ended": False}

        async def tracking_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                state["started"] = True
            elif message["type"] == "http.response.body" and not message.get("more_body", False):
                state["ended"] = True
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except Exception:
            if not state["started"]:
                raise
            logger.exception("response to %s %s cut short", scope.get("method"), scope.get("path"))
            if not state["ended"]:
                try:
                    await send({"type": "http.response.body", "body": b"", "more_body": False})
                except Exception:  # the client has gone too
                    logger.debug("could not end the response", exc_info=True)
