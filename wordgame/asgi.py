"""ASGI entry point: HTTP goes to Django, WebSockets to the apps' consumers.

WebSocket connections are logged (connect and disconnect, ``wordgame.middleware``), must
come from this site's own origin (scheme, host and port) and carry the Django session user
in ``scope["user"]``; each consumer decides what that user may watch.
"""

from __future__ import annotations

import gc
import os
import time

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "wordgame.settings")
# Django must be set up before anything imports models (the routing modules do).
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.sessions import CookieMiddleware, SessionMiddleware  # noqa: E402
from django.conf import settings  # noqa: E402

from accounts.livesocket import SessionUser  # noqa: E402
from wordgame.embedded_worker import StartsEmbeddedWorker  # noqa: E402
from wordgame.middleware import (  # noqa: E402
    EndsStartedResponses,
    OriginValidator,
    WebSocketAccessLog,
    deferred_events,
)
from wordgame.routing import websocket_urlpatterns  # noqa: E402


def settle_garbage_collector(thresholds: tuple[int, int, int]) -> None:
    """Everything built so far (Django, the URL conf, the apps) lives as long as the
    process: out of the collector's sight (``gc.freeze``). And full collections rarely:
    with a thousand connections open, each full collection stopped the process for
    60-200 ms, several times a minute, and those pauses were the slowest moves
    (docs/benchmarks.md). Young garbage is still collected as often as before. Long
    pauses are logged."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*thresholds)
    gc.callbacks.append(log_long_collections)


#: A collection that stops the process this long or longer is logged.
LONG_COLLECTION_MS = 10.0
_collection_started = 0.0


def log_long_collections(phase: str, info: dict[str, int]) -> None:
    """One log line per garbage collection that stopped the process for
    ``LONG_COLLECTION_MS`` or more, with its generation and pause: such pauses become
    the slowest moves (``bench/load.py`` counts them)."""
    global _collection_started
    if phase == "start":
        _collection_started = time.perf_counter()
        return
    ms = (time.perf_counter() - _collection_started) * 1000
    if ms >= LONG_COLLECTION_MS:
        # Not written here (a collection may start inside another log write): with the
        # next log line.
        deferred_events.append({"event": "gc", "generation": info.get("generation"), "ms": round(ms, 1)})


settle_garbage_collector(settings.GC_THRESHOLDS)

application = StartsEmbeddedWorker(
    ProtocolTypeRouter(
        {
            "http": EndsStartedResponses(django_asgi_app),
            "websocket": OriginValidator(
                CookieMiddleware(
                    SessionMiddleware(SessionUser(WebSocketAccessLog(URLRouter(websocket_urlpatterns))))
                )
            ),
        }
    )
)
