"""Is this player's page open on this game? Across server processes, through the cache
(Redis in production): a game page's socket sets a key with an expiry and refreshes it
while it stays open (``games.consumers``), so a killed worker never leaves a stale
"present" for longer than ``PRESENCE_SECONDS``. No push about a game the player is
looking at (as Lichess does); the other channels are unaffected."""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache


def key(user_id: int, game_id: int) -> str:
    return f"presence:{user_id}:{game_id}"


async def amark_present(user_id: int, game_id: int) -> None:
    await cache.aset(key(user_id, game_id), 1, timeout=settings.PRESENCE_SECONDS)


async def amark_gone(user_id: int, game_id: int) -> None:
    await cache.adelete(key(user_id, game_id))


def is_present(user_id: int, game_id: int) -> bool:
    return cache.get(key(user_id, game_id)) is not None
