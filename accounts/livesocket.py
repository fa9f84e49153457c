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
"""

from __future__ import annotations

import contextlib
import logging
from importlib import import_module
from types import SimpleNamespace
from typing import Any

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
        if (mine is not None and event.get("ended") == mine) or not await database_sync_to_async(
            still_signed_in
        )(key, self.user_id):
            await self.close(code=SIGNED_OUT)
