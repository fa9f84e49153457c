"""Group names and event types for live updates: the only module that knows them.

Every send is scheduled with ``transaction.on_commit``, so a consumer that re-reads
the database on an event always sees the change that caused it. Payloads are ids and a
version number only (STYLE.md 3.7): each consumer renders what its own viewer may see.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)

GAME_CHANGED = "game.changed"
CHAT_POSTED = "chat.posted"
LOBBY_CHANGED = "lobby.changed"
ANALYSIS_READY = "analysis.ready"


def game_group(game_id: int) -> str:
    return f"game-{game_id}"


def lobby_group(user_id: int) -> str:
    return f"lobby-{user_id}"


def _send(group: str, event: dict[str, Any]) -> None:
    """Send one event. A failure (Redis down or restarting) is logged and swallowed: it
    runs after the commit, so the change is saved, and the player who made it must get
    their normal answer, not an error page; screens catch up when they reconnect (every
    connection starts with a full snapshot)."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, event)
    except Exception:
        logger.exception("live update to %s failed (%s)", group, event.get("type"))


def game_changed(game_id: int, version: int, *, player_ids: Iterable[int] = ()) -> None:
    """After the commit: tell the game's watchers and its players' lobbies."""
    players = list(player_ids)

    def send() -> None:
        _send(game_group(game_id), {"type": GAME_CHANGED, "game_id": game_id, "version": version})
        for user_id in players:
            _send(lobby_group(user_id), {"type": LOBBY_CHANGED, "game_id": game_id})

    transaction.on_commit(send)


def chat_posted(game_id: int, message_id: int) -> None:
    """After the commit: tell the game's watchers a chat line arrived."""
    transaction.on_commit(
        lambda: _send(
            game_group(game_id), {"type": CHAT_POSTED, "game_id": game_id, "message_id": message_id}
        )
    )


def lobby_changed(user_ids: Iterable[int]) -> None:
    """After the commit: tell these users' lobbies to re-render (e.g. a new invitation)."""
    users = list(user_ids)

    def send() -> None:
        for user_id in users:
            _send(lobby_group(user_id), {"type": LOBBY_CHANGED})

    transaction.on_commit(send)


def analysis_ready(game_id: int) -> None:
    """After the commit: the game's analysis is stored (its page shows it)."""
    transaction.on_commit(lambda: _send(game_group(game_id), {"type": ANALYSIS_READY, "game_id": game_id}))
