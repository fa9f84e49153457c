"""channels-redis's channel layer, made to survive a Redis restart.

A restarted Redis (it keeps nothing on disk here) has lost every group membership, and
each connection a process had pooled to it is stale. What follows:

- A consumer whose subscriptions are gone must not wait on: it would never hear of a
  move again. When the layer finds Redis lost, every consumer of this process that joined
  a group is ended, whether it is waiting for a message at that moment or busy with one
  (its next read fails): its client reconnects once, joins its groups again and gets a
  fresh snapshot. The consumers close such a socket with 4012 ("service restart"), on
  which the page reconnects (``accounts.livesocket``, ``static/js/ws-restart.js``).
- The layer finds Redis lost when the blocking read fails (the connection closed), and
  also when the read's connection came back by itself to a Redis that forgot this
  process: before each blocking read (every ``brpop_timeout`` seconds, 5) it checks a
  key of its own (the "canary", set when it starts reading), which a restart, a flush
  or an eviction takes away with the groups.
- A send must not fail because it picked a stale pooled connection: on a connection
  error the process drops all its pooled connections and tries once more.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from channels_redis.core import RedisChannelLayer as BaseRedisChannelLayer
from redis.exceptions import ConnectionError as RedisConnectionError

T = TypeVar("T")
logger = logging.getLogger(__name__)

#: Put in the receive buffer of every consumer of this process when Redis was lost.
REDIS_LOST = "wordgame.redis_lost"
#: How long the canary key lives in Redis without being checked (a process that ended
#: leaves it behind no longer than this).
CANARY_SECONDS = 3600
#: The canary is checked before a blocking read at most this often (seconds).
CANARY_CHECK_SECONDS = 1.0


class RedisChannelLayer(BaseRedisChannelLayer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The groups each channel of this process joined: the consumers to end when
        # Redis loses them (a consumer busy at that moment is not waiting in receive()).
        self.memberships: defaultdict[str, set[str]] = defaultdict(set)
        self.canary_set: set[int] = set()  # the connection indexes whose canary is set
        self.canary_checked_at = float("-inf")

    @property
    def canary_key(self) -> str:
        return f"{self.prefix}:alive:{self.client_prefix}"

    async def drop_connections(self) -> None:
        """Disconnect every pooled connection of this event loop; the next use of each
        connects afresh."""
        for index in range(self.ring_size):
            await self.connection(index).connection_pool.disconnect()

    async def _once_more(self, call: Callable[[], Awaitable[T]]) -> T:
        try:
            return await call()
        except RedisConnectionError:
            await self.drop_connections()
            return await call()

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        await self._once_more(lambda: super(RedisChannelLayer, self).send(channel, message))

    async def group_add(self, group: str, channel: str) -> None:
        await self._once_more(lambda: super(RedisChannelLayer, self).group_add(group, channel))
        self.memberships[channel].add(group)

    async def group_discard(self, group: str, channel: str) -> None:
        groups = self.memberships.get(channel)
        if groups is not None:
            groups.discard(group)
            if not groups:
                del self.memberships[channel]
        await self._once_more(lambda: super(RedisChannelLayer, self).group_discard(group, channel))

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        await self._once_more(lambda: super(RedisChannelLayer, self).group_send(group, message))

    def lost(self) -> None:
        """Redis lost this process's groups: end every consumer that joined one (and any
        other waiting for a message). Runs on the event loop that receives."""
        channels = set(self.memberships) | set(self.receive_buffer)
        logger.warning(
            "Redis was lost: ending the %d live connections of this process", len(self.memberships)
        )
        self.memberships.clear()
        self.canary_set.clear()
        for channel in channels:
            self.receive_buffer[channel].put_nowait({"type": REDIS_LOST})

    async def _brpop_with_clean(self, index: int, channel: str, timeout: int) -> Any:
        """The blocking read, after checking that Redis still knows this process."""
        connection = self.connection(index)
        now = time.monotonic()
        if index not in self.canary_set:
            await connection.set(self.canary_key, 1, ex=CANARY_SECONDS)
            self.canary_set.add(index)
            self.canary_checked_at = now
        elif now - self.canary_checked_at >= CANARY_CHECK_SECONDS:
            # At most once a second: a busy process reads once per message.
            self.canary_checked_at = now
            if await connection.getex(self.canary_key, ex=CANARY_SECONDS) is None:
                raise RedisConnectionError("Redis has forgotten this process's groups (restarted or flushed)")
        return await super()._brpop_with_clean(index, channel, timeout)

    async def receive(self, channel: str) -> dict[str, Any]:
        """A message for ``channel``; raises ``redis.ConnectionError`` when Redis was lost
        (for the consumer that was reading and for every other one of this process)."""
        try:
            message: dict[str, Any] = await super().receive(channel)
        except RedisConnectionError:
            self.lost()
            self.receive_buffer.pop(channel, None)
            with contextlib.suppress(Exception):
                await self.drop_connections()
            raise
        if message.get("type") == REDIS_LOST:
            raise RedisConnectionError("the connection to Redis was lost; the client must reconnect")
        return message
