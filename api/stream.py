"""``GET /api/v1/stream/events``: the caller's game events as newline-delimited JSON.

One line per event, ``{"type": ..., "game": <game summary>}``:

- ``invitation``: another player invited you (accept or decline it);
- ``game_started``: one of your games is on (an accepted invitation, a matched seek, a
  new game against the computer);
- ``your_turn``: it is your move (once per version of the game);
- ``game_over``: one of your games ended;
- ``notification`` (with ``?notifications=true``, so that existing clients see no new
  event): a new notification of yours, ``{"type": "notification", "notification": ...}``
  as ``GET /api/v1/notifications`` lists it (in your interface language and time zone).

On connecting, the stream first says where things stand (``game_started`` for each of
your games in progress, ``your_turn`` where you are to move, ``invitation`` for each
one waiting for your answer; an empty line when there is none of these), so a bot that
reconnects misses nothing. A quiet stream sends an empty line every
``API_STREAM_KEEPALIVE_SECONDS``. The stream ends (and the client should reconnect) when
its subscription is lost (Redis restarted or unreachable), and when what authenticated it
ends: a revoked personal token or app grant at once (the revocation is sent to the
caller's ``auth-<id>`` group, which the stream joins), an expired one or a deactivated
account within the keep-alive interval (checked each time the stream wakes).

No polling: the stream joins the caller's ``lobby-<id>`` group on the channel layer
(``games.realtime``), which every committed change of their games is sent to (and
every new invitation), and re-reads only the game that changed; and their ``user-<id>``
group (``accounts.realtime``), told when their notifications change.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

from asgiref.sync import sync_to_async
from channels.layers import BaseChannelLayer, get_channel_layer
from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import close_old_connections
from django.http import HttpRequest, StreamingHttpResponse
from ninja import Router

from accounts.livesocket import LAYER_LOST
from accounts.realtime import AUTH_CHANGED, BALANCE_CHANGED, NOTIFICATIONS_CHANGED, auth_group, user_group
from api import representation
from api.auth import still_valid
from api.ratelimit import LOOKUP
from games import realtime
from games.gameview import brief_for
from games.models import Game
from notifications.models import Notification
from notifications.texts import as_recipient

logger = logging.getLogger(__name__)
router = Router(tags=["stream"])

LIVE = (Game.Status.INVITED, Game.Status.OPEN, Game.Status.ACTIVE)


@dataclass(frozen=True)
class Seen:
    status: str
    your_turn: bool
    version: int


class EventTracker:
    """What the stream has told one user so far, and the events a fresh look at a game
    adds to it. Synchronous (database reads); the stream calls it from a thread."""

    def __init__(self, user: Any) -> None:
        self.user = user
        self.seen: dict[int, Seen] = {}
        self.last_notification = 0

    def snapshot(self) -> list[dict[str, Any]]:
        """Events for where things stand now (notifications from now on: the list is
        ``GET /api/v1/notifications``)."""
        self.last_notification = (
            Notification.objects.filter(recipient=self.user)
            .order_by("-pk")
            .values_list("pk", flat=True)
            .first()
            or 0
        )
        games = Game.objects.mine(self.user).filter(status__in=LIVE).order_by("updated_at", "pk")
        return [event for game in games for event in self.look(game)]

    def refresh(self, game_id: int | None) -> list[dict[str, Any]]:
        """Events after a change of ``game_id`` (None: of any game, e.g. a new invitation)."""
        mine = Game.objects.mine(self.user)
        games = mine.filter(pk=game_id) if game_id is not None else mine.filter(status__in=LIVE)
        return [event for game in games.order_by("updated_at", "pk") for event in self.look(game)]

    def notifications(self) -> list[dict[str, Any]]:
        """A ``notification`` event for each of the user's notifications not sent yet."""
        from api.notifications import represent  # it imports api.games, which the API wires

        new = list(
            Notification.objects.filter(recipient=self.user, pk__gt=self.last_notification).order_by("pk")
        )
        if new:
            self.last_notification = new[-1].pk
        with as_recipient(self.user):
            return [{"type": "notification", "notification": represent(n)} for n in new]

    def look(self, game: Game) -> list[dict[str, Any]]:
        view = brief_for(game, self.user)
        game_summary = representation.summary(view)
        now = Seen(game.status, view.is_my_turn, game.version)
        before = self.seen.get(game.pk)
        self.seen[game.pk] = now
        kinds = []
        if now.status == Game.Status.INVITED and before is None and game.created_by_id != self.user.pk:
            kinds.append("invitation")
        if now.status == Game.Status.ACTIVE and (before is None or before.status != Game.Status.ACTIVE):
            kinds.append("game_started")
        if now.your_turn and (before is None or not before.your_turn or before.version != now.version):
            kinds.append("your_turn")
        if now.status == Game.Status.FINISHED and (before is None or before.status != Game.Status.FINISHED):
            kinds.append("game_over")
        return [{"type": kind, "game": game_summary} for kind in kinds]


def line(event: dict[str, Any]) -> str:
    return json.dumps(event, cls=DjangoJSONEncoder, ensure_ascii=False) + "\n"


def _in_thread(fn: Any) -> Any:
    """``fn`` run in the thread that holds the database connection, which is then
    released if stale (a stream lives long: it must not keep a broken one)."""

    def run(*args: Any) -> Any:
        try:
            return fn(*args)
        finally:
            close_old_connections()

    return sync_to_async(run)


async def event_lines(
    user: Any,
    layer: BaseChannelLayer,
    keepalive: float,
    still_allowed: Callable[[], bool] | None = None,
    *,
    notifications: bool = False,
) -> AsyncIterator[str]:
    """The stream's lines. ``still_allowed`` (the caller's token or app grant is still
    valid) is asked each time the stream wakes: for an event, a keep-alive, or an
    ``auth.changed`` (a token or grant revoked) on the caller's ``auth-<id>`` group.
    ``notifications``: the caller's notifications too."""
    channel = await layer.new_channel()
    groups = [realtime.lobby_group(user.pk), auth_group(user.pk)]
    if notifications:
        groups.append(user_group(user.pk))
    tracker = EventTracker(user)
    receiving: asyncio.Future[dict[str, Any]] | None = None
    try:
        # Join first, then look: a change between the two is seen twice, never missed.
        for group in groups:
            await layer.group_add(group, channel)
        snapshot = await _in_thread(tracker.snapshot)()
        for event in snapshot:
            yield line(event)
        if not snapshot:
            # A first line at once: the response's headers go out with it, and the client
            # knows it is subscribed (a quiet stream's first keep-alive came a while later).
            yield "\n"
        while True:
            if receiving is None:
                receiving = asyncio.ensure_future(layer.receive(channel))
            done, _pending = await asyncio.wait({receiving}, timeout=keepalive)
            if still_allowed is not None and not await _in_thread(still_allowed)():
                return
            if not done:
                yield "\n"
                continue
            message = receiving.result()
            receiving = None
            if message.get("type") == NOTIFICATIONS_CHANGED:
                events = await _in_thread(tracker.notifications)()
            elif message.get("type") in (BALANCE_CHANGED, AUTH_CHANGED):  # credentials: checked above
                events = []
            else:
                game_id = message.get("game_id")
                events = await _in_thread(tracker.refresh)(game_id if isinstance(game_id, int) else None)
            for event in events:
                yield line(event)
    except LAYER_LOST as lost:
        # The subscription is gone (Redis restarted or unreachable): end the stream, so
        # the client reconnects and gets where things stand, rather than wait on deaf.
        logger.info("event stream of user %s ended: the channel layer was lost (%s)", user.pk, lost)
    finally:
        if receiving is not None:
            receiving.cancel()
        for group in groups:
            try:
                await layer.group_discard(group, channel)
            except LAYER_LOST:
                break  # Redis is gone, and the memberships with it


@router.get(
    "/events",
    throttle=LOOKUP,
    summary="Events of my games (NDJSON)",
    openapi_extra={
        "responses": {
            200: {
                "description": "One JSON object per line: invitation, game_started, your_turn, game_over.",
                "content": {"application/x-ndjson": {"schema": {"type": "string"}}},
            }
        }
    },
)
async def events(request: HttpRequest, notifications: bool = False) -> StreamingHttpResponse:
    """Your games' events, one JSON object per line, for as long as you stay connected;
    with ``notifications=true`` your new notifications too."""
    layer = get_channel_layer()
    assert layer is not None, "CHANNEL_LAYERS is always configured (wordgame/settings.py)"
    token: Any = request.auth  # type: ignore[attr-defined]
    response = StreamingHttpResponse(
        event_lines(
            token.user,
            layer,
            float(settings.API_STREAM_KEEPALIVE_SECONDS),
            lambda: still_valid(token),
            notifications=notifications,
        ),
        content_type="application/x-ndjson",
    )
    response["Cache-Control"] = "no-cache"
    # nginx would otherwise buffer the stream and deliver events late.
    response["X-Accel-Buffering"] = "no"
    return response
