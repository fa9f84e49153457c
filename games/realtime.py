"""Group names and event types for live updates: the only module that knows them.

Every send is scheduled with ``transaction.on_commit``, so a consumer that re-reads
the database on an event always sees the change that caused it. Payloads are ids and a
version number only (STYLE.md 3.7): each consumer renders what its own viewer may see.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterable
from typing import Any

from channels.layers import get_channel_layer
from django.db import transaction

from accounts.liveloop import run_coroutine

logger = logging.getLogger(__name__)

GAME_CHANGED = "game.changed"
CHAT_POSTED = "chat.posted"
LOBBY_CHANGED = "lobby.changed"
ANALYSIS_READY = "analysis.ready"


def game_group(game_id: int) -> str:
    return f"game-{game_id}"


def lobby_group(user_id: int) -> str:
    return f"lobby-{user_id}"


PRESENCE_CHANGED = "presence.changed"

#: Every open seeks page (``/games/seeks/``, through the lobby socket with ``?seeks=1``).
SEEKS_GROUP = "seeks"
SEEKS_CHANGED = "seeks.changed"


def _send(*messages: tuple[str, dict[str, Any]]) -> None:
    """Send events, each ``(group, event)``, all at once (one hop to the event loop,
    whatever their number). A failure (Redis down or restarting) is logged and
    swallowed: it runs after the commit, so the change is saved, and the player who made
    it must get their normal answer, not an error page; screens catch up when they
    reconnect (every connection starts with a full snapshot)."""
    layer = get_channel_layer()
    if layer is None or not messages:
        return

    async def send_all() -> list[BaseException | None]:
        return await asyncio.gather(
            *(layer.group_send(group, event) for group, event in messages), return_exceptions=True
        )

    try:
        results = run_coroutine(send_all)
    except (Exception, asyncio.CancelledError):
        logger.exception("live updates to %s failed", ", ".join(group for group, _event in messages))
        return
    for (group, event), result in zip(messages, results, strict=True):
        if isinstance(result, BaseException):
            logger.error("live update to %s failed (%s)", group, event.get("type"), exc_info=result)


def game_changed(
    game_id: int, version: int, *, player_ids: Iterable[int] = (), by: int | None = None
) -> None:
    """After the commit: tell the game's watchers and its players' lobbies. The watchers'
    event also says who made the change (``by``, a user id or None) and when it was
    committed (``at``, seconds since the epoch), for the operators' push latency
    (``accounts.metrics.push_seconds``); nothing of the game."""
    players = list(player_ids)

    def send() -> None:
        event = {"type": GAME_CHANGED, "game_id": game_id, "version": version, "by": by, "at": time.time()}
        _send(
            (game_group(game_id), event),
            *((lobby_group(user_id), {"type": LOBBY_CHANGED, "game_id": game_id}) for user_id in players),
        )

    transaction.on_commit(send)


def chat_posted(game_id: int, message_id: int) -> None:
    """After the commit: tell the game's watchers a chat line arrived."""
    transaction.on_commit(
        lambda: _send(
            (game_group(game_id), {"type": CHAT_POSTED, "game_id": game_id, "message_id": message_id})
        )
    )


def lobby_changed(user_ids: Iterable[int]) -> None:
    """After the commit: tell these users' lobbies to re-render (e.g. a new invitation)."""
    users = list(user_ids)

    transaction.on_commit(
        lambda: _send(*((lobby_group(user_id), {"type": LOBBY_CHANGED}) for user_id in users))
    )


def analysis_ready(game_id: int) -> None:
    """After the commit: the game's analysis is stored (its page shows it)."""
    transaction.on_commit(lambda: _send((game_group(game_id), {"type": ANALYSIS_READY, "game_id": game_id})))


def seeks_changed() -> None:
    """The open requests changed (one opened, was taken up, matched or withdrawn): every
    open seeks page re-reads them, on commit."""
    transaction.on_commit(lambda: _send((SEEKS_GROUP, {"type": SEEKS_CHANGED})))


async def apresence_changed(game_id: int, user_id: int | None) -> None:
    """A player's page on a live game opened or closed (from that page's socket, already
    in the event loop): the others' pages show them present or away again."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        await layer.group_send(game_group(game_id), {"type": PRESENCE_CHANGED, "user_id": user_id})
    except Exception:
        logger.exception("presence update to %s failed", game_group(game_id))
