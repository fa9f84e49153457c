"""channels-redis's channel layer, made to survive a Redis restart.

A restarted Redis has lost every group membership, and each connection a process had
pooled to it is stale. Two things follow:

- A consumer whose subscriptions are gone must not wait on: it would never hear of a
  move again. When the blocking read fails, every consumer waiting in this process is
  ended (its client reconnects once, joins its groups again and gets a fresh snapshot).
- A send must not fail because it picked a stale pooled connection: on a connection
  error the process drops all its pooled connections and tries once more.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from channels_redis.core import RedisChannelLayer as BaseRedisChannelLayer
from redis.exceptions import ConnectionError as RedisConnectionError

T = TypeVar("T")

#: Put in the receive buffer of every waiting consumer when Redis went away.
REDIS_LOST = "wordgame.redis_lost"


class RedisChannelLayer(BaseRedisChannelLayer):
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

    async def group_discard(self, group: str, channel: str) -> None:
        await self._once_more(lambda: super(RedisChannelLayer, self).group_discard(group, channel))

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        await self._once_more(lambda: super(RedisChannelLayer, self).group_send(group, message))

    async def receive(self, channel: str) -> dict[str, Any]:
        """A message for ``channel``; raises ``redis.ConnectionError`` when Redis went away
        (for the consumer that was reading and for every other one waiting)."""
        try:
            message: dict[str, Any] = await super().receive(channel)
        except RedisConnectionError:
            await self.drop_connections()
            # Wake every other consumer of this process that waits for a message.
            for queue in list(self.receive_buffer.values()):
                queue.put_nowait({"type": REDIS_LOST})
            raise
        if message.get("type") == REDIS_LOST:
            raise RedisConnectionError("the connection to Redis was lost; the client must reconnect")
        return message
