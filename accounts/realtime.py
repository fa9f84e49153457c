"""The per-user live channel: group names and event types for what follows a player
from page to page (today: the coin balance in the header).

Like ``games.realtime``, every send waits for ``transaction.on_commit`` and carries ids
only; ``accounts.consumers.UserConsumer`` re-reads the database and renders.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from typing import Any

from channels.layers import get_channel_layer
from django.db import transaction

from accounts.liveloop import run_coroutine

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
        run_coroutine(lambda: layer.group_send(group, event))
    except Exception:
        logger.exception("live update to %s failed (%s)", group, event.get("type"))


def balance_changed(user_id: int) -> None:
    """After the commit: tell the user's open pages that their balance changed."""
    transaction.on_commit(lambda: _send(user_group(user_id), {"type": BALANCE_CHANGED, "user_id": user_id}))


NOTIFICATIONS_CHANGED = "notifications.changed"


def notifications_changed(*user_ids: int) -> None:
    """After the commit: these users' unread notifications changed (the header's bell),
    all told in one hop to the event loop (a tournament round tells hundreds at once)."""
    if user_ids:
        transaction.on_commit(lambda: _send_many(user_ids))


def _send_many(user_ids: tuple[int, ...]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return

    async def send_all() -> None:
        events = [(user_group(u), {"type": NOTIFICATIONS_CHANGED, "user_id": u}) for u in user_ids]
        results = await asyncio.gather(*(layer.group_send(g, e) for g, e in events), return_exceptions=True)
        for (group, _event), result in zip(events, results, strict=True):
            if isinstance(result, BaseException):
                logger.error("live update to %s failed (%s)", group, NOTIFICATIONS_CHANGED, exc_info=result)

    try:
        run_coroutine(send_all)
    except Exception:
        logger.exception("live updates of notifications failed")


AUTH_CHANGED = "auth.changed"


def auth_group(user_id: int) -> str:
    """Every socket and event stream a signed-in user opened joins this group: told when
    what signed them in may have ended (a log-out, a password change, a revoked token)."""
    return f"auth-{user_id}"


def session_digest(session_key: str) -> str:
    """What a group event says of a session: never its key (that signs a browser in)."""
    return hashlib.sha256(session_key.encode()).hexdigest()[:32]


def auth_changed(user_id: int, *, ended_session: str | None = None, kept_session: str | None = None) -> None:
    """After the commit: each of the user's open sockets and streams checks that what
    opened it still stands, and ends if not. ``ended_session``: the key of a session that
    has just ended (a log-out: its sockets close without looking, as the session is
    flushed only after Django's ``user_logged_out``). ``kept_session``: the key, before
    it was rotated, of a session that stays signed in (the one that changed the
    password: its sockets stay open)."""
    event: dict[str, Any] = {"type": AUTH_CHANGED, "user_id": user_id}
    if ended_session:
        event["ended"] = session_digest(ended_session)
    if kept_session:
        event["kept"] = session_digest(kept_session)
    transaction.on_commit(lambda: _send(auth_group(user_id), event))
