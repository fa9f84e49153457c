"""The tournament page's live group and event type: the only module that knows them.

Like ``games.realtime``: every send happens after the commit and carries the
tournament id only; each ``TournamentConsumer`` re-reads the database and renders the
partials for its own viewer.
"""

from __future__ import annotations

import logging

from channels.layers import get_channel_layer
from django.db import transaction

from accounts.liveloop import run_coroutine

logger = logging.getLogger(__name__)

TOURNAMENT_CHANGED = "tournament.changed"


def tournament_group(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def tournament_changed(tournament_id: int) -> None:
    """After the commit: tell everyone watching the tournament's page. A failed send
    (Redis down) is logged, never raised: the change is saved, and pages catch up when
    they reconnect (each connection starts with a full snapshot)."""

    def send() -> None:
        layer = get_channel_layer()
        if layer is None:
            return
        try:
            run_coroutine(
                lambda: layer.group_send(
                    tournament_group(tournament_id),
                    {"type": TOURNAMENT_CHANGED, "tournament_id": tournament_id},
                )
            )
        except Exception:
            logger.exception("live update of tournament %s failed", tournament_id)

    transaction.on_commit(send)
