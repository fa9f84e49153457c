"""The per-user live channel: group names and event types for what follows a player
from page to page (today: the coin balance in the header).

Like ``games.realtime``, every send waits for ``transaction.on_commit`` and carries ids
only; ``accounts.consumers.UserConsumer`` re-reads the database and renders.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

BALANCE_CHANGED = "balance.changed"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def _send(group: str, event: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group, event)


def balance_changed(user_id: int) -> None:
    """After the commit: tell the user's open pages that their balance changed."""
    transaction.on_commit(lambda: _send(user_group(user_id), {"type": BALANCE_CHANGED, "user_id": user_id}))
