"""What every WebSocket consumer shares (STYLE.md 3.7): the groups it joined, left on
every way out; an end the page recovers from when the channel layer loses its
subscriptions; and an end when what signed the socket in has ended.

- **Redis lost.** A restarted Redis has forgotten every group, so a socket left open
  would never hear of a change again. The channel layer (``wordgame.channel_layer``)
  then fails the consumer's next read, whether it was waiting or busy; the consumer
  closes with 4012 ("service restart"), on which the page reconnects
  (``static/js/ws-restart.js``) and gets a fresh snapshot, and leaves what it held (its
  groups, a player's presence) as on any disconnect.
- **Signed out.** A consumer opened by a signed-in user also joins ``auth-<id>``
  (``accounts.realtime``). On ``auth.changed`` (a log-out, a password change, a revoked
  token) it closes with ``SIGNED_OUT``, on which the page does not reconnect, when the
  session that opened it has ended or no longer signs that user in. Across processes
  through the channel layer, like every push.
- **Off the shared thread.** Channels runs every consumer's synchronous code (its
  ``database_sync_to_async`` and Django's async ORM) on one thread per process, while
  each HTTP request gets a thread of its own. A socket's database reads therefore run on
  ``socket_threads`` (:func:`off_thread`): the handshake (the session's user,
  :class:`SessionUser`; who the viewer is to the game) and the renders. On the one
  thread they queued behind each other while each waited for a pooled connection, and
  under a load of page views handshakes outlasted Daphne's 5 s connect timeout
  (tests/production/test_db_pool.py).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from importlib import import_module
from types import SimpleNamespace
from typing import Any, ParamSpec, TypeVar

from channels.auth import AuthMiddleware, get_user
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from redis.exceptions import RedisError

from accounts.realtime import auth_group, session_digest

logger = logging.getLogger(__name__)

#: What the channel layer raises when its subscriptions are lost (Redis restarted, down
#: or unreachable); the in-memory layer raises none.
LAYER_LOST: tuple[type[Exception], ...] = (RedisError,)
#: Close codes. Daphne lets an application close only with 1000 or 3000-4999, so not
#: with 1012 ("service restart"): the page reconnects on 4012 (static/js/ws-restart.js),
#: not on 4401.
SERVICE_RESTART = 4012
SIGNED_OUT = 4401

#: Sockets' database reads and renders run on these threads. Each holds a pooled database
#: connection only while it runs (``DB_POOL_MAX_SIZE`` bounds all).
SOCKET_THREADS = 4
socket_threads = ThreadPoolExecutor(max_workers=SOCKET_THREADS, thread_name_prefix="socket")

P = ParamSpec("P")
R = TypeVar("R")


def off_thread(function: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """``function`` run on a socket thread (database connections closed after, as
    ``database_sync_to_async`` does)."""
    return database_sync_to_async(function, thread_sensitive=False, executor=socket_threads)


class SessionUser(AuthMiddleware):
    """Channels' ``AuthMiddleware`` (the session's user in ``scope["user"]``), resolved on
    a socket thread instead of the one shared thread."""

    async def resolve_scope(self, scope: Any) -> None:
        scope["user"]._wrapped = await off_thread(get_user.func)(scope)


def still_signed_in(session_key: str | None, user_id: int) -> bool:
    """Whether the session ``session_key`` still signs in ``user_id``, decided as a page
    request would (Django's ``get_user``: the session exists and its password hash still
    matches; a session whose hash no longer matches is flushed, as a request would)."""
    from django.contrib.auth import get_user

    if not session_key:
        return False
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    user = get_user(SimpleNamespace(session=store))  # type: ignore[arg-type]
    return bool(user.is_authenticated and user.pk == user_id)


class LiveSocket(AsyncWebsocketConsumer):
    """The base of every consumer: join groups with :meth:`join`; override
    :meth:`disconnect` to release more, calling this one (it may run twice)."""

    joined: tuple[str, ...] = ()
    user_id: int | None = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        except LAYER_LOST as lost:
            logger.info("socket %s closed: the channel layer was lost (%s)", scope.get("path"), lost)
            with contextlib.suppress(Exception):  # the client may have gone as well
                await self.close(code=SERVICE_RESTART)
        finally:
            # On every way out, not only a client's disconnect: groups and presence.
            await self.disconnect(SERVICE_RESTART)

    async def join(self, *groups: str) -> None:
        """Join ``groups`` (before accepting), and the viewer's ``auth-<id>`` group when
        signed in."""
        user = self.scope.get("user")
        if user is not None and user.is_authenticated and self.user_id is None:
            self.user_id = user.pk
            groups = (*groups, auth_group(user.pk))
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)
            self.joined += (group,)

    async def disconnect(self, code: int) -> None:
        groups, self.joined = self.joined, ()
        for group in groups:
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except LAYER_LOST:
                break  # Redis is gone, and the memberships with it

    async def auth_changed(self, event: dict[str, Any]) -> None:
        """What signed the user in may have ended: close if this socket's session did."""
        if self.user_id is None:
            return
        key = getattr(self.scope.get("session"), "session_key", None)
        mine = session_digest(str(key)) if key else None
        if mine is not None and event.get("kept") == mine:
            return  # the session that changed the password: its key rotated, it stays
        if (mine is not None and event.get("ended") == mine) or not await off_thread(still_signed_in)(
            key, self.user_id
        ):
            await self.close(code=SIGNED_OUT)
