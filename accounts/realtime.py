"""The per-user live channel: group names and event types for what follows a player
from page to page (today: the coin balance in the header).

Like ``games.realtime``, every send waits for ``transaction.on_commit`` and carries ids
only; ``accounts.consumers.UserConsumer`` re-reads the database and renders.
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

BALANCE_CHANGED = "balance.changed"
logger = logging.getLogger(__name__)


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def _send(group: str, event: dict[str, Any]) -> None:
    """Send one event; a failure (Redis down) is logged, never the request's error: the
    change is committed, and the header catches up when its socket reconnects."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, event)
    except Exception:
        logger.exception("live update to %s failed (%s)", group, event.get("type"))


def balance_changed(user_id: int) -> None:
    """After the commit: tell the user's open pages that their balance changed."""
    transaction.on_commit(lambda: _send(user_group(user_id), {"type": BALANCE_CHANGED, "user_id": user_id}))


NOTIFICATIONS_CHANGED = "notifications.changed"


def notifications_changed(user_id: int) -> None:
    """After the commit: the user's unread notifications changed (the header's bell)."""
    transaction.on_commit(
        lambda: _send(user_group(user_id), {"type": NOTIFICATIONS_CHANGED, "user_id": user_id})
    )
